// Wire shapes of categories: the form body of create/update and the Category object.
import { t } from 'elysia'
import type { Category, CategoryInput } from '../../domain/collections/categories.ts'
import { parseFlag } from '../params.ts'

const Flag = t.Union([t.String(), t.Boolean(), t.Number()])

export const CategoryModel = {
  params: t.Object({ id: t.String() }),
  memberParams: t.Object({ id: t.String(), archive: t.String() }),
  /** Form-urlencoded, multipart or JSON; flags are 'true'/'false' (1/0 accepted too). */
  body: t.Optional(
    t.Object(
      {
        name: t.Optional(t.String()),
        search: t.Optional(t.String()),
        pinned: t.Optional(Flag),
        visible_to_guest: t.Optional(Flag),
      },
      { additionalProperties: true },
    ),
  ),
}

export type CategoryBody = typeof CategoryModel.body.static

/**
 * LANraragi reads these as request params: the query string (its web client sends them there) or
 * the body; a field in both takes the body's value.
 */
export function categoryFields(
  body: CategoryBody | null,
  query: Record<string, string | undefined>,
): NonNullable<CategoryBody> {
  return {
    name: body?.name ?? query.name,
    search: body?.search ?? query.search,
    pinned: body?.pinned ?? query.pinned,
    visible_to_guest: body?.visible_to_guest ?? query.visible_to_guest,
  }
}

/** A form flag ('true'/'false', 1/0), or a JSON boolean; absent stays undefined (unchanged). */
function parseBodyFlag(
  value: string | boolean | number | undefined,
  field: string,
): boolean | undefined {
  if (value === undefined || typeof value === 'boolean') return value
  return parseFlag(String(value), field)
}

export function toCategoryInput(body: CategoryBody): CategoryInput {
  return {
    name: body?.name,
    search: body?.search,
    pinned: parseBodyFlag(body?.pinned, 'pinned'),
    visibleToGuest: parseBodyFlag(body?.visible_to_guest, 'visible_to_guest'),
  }
}

/** pinned goes out as "0"/"1" like LANraragi's; visible_to_guest (ours) as a boolean. */
export function toWireCategory(category: Category) {
  return {
    id: category.id,
    name: category.name,
    archives: category.archives,
    search: category.search,
    pinned: category.pinned ? '1' : '0',
    visible_to_guest: category.visibleToGuest,
  }
}

/** GET /api/categories (LANraragi's contract), keys in toWireCategory's order. */
export const CategoryListResponse = t.Array(
  t.Object({
    id: t.String(),
    name: t.String(),
    archives: t.Array(t.String()),
    search: t.String(),
    pinned: t.String(),
    visible_to_guest: t.Boolean(),
  }),
)
