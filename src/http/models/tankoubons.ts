// Wire shapes of Tankoubons (plain and full), their request bodies, page parameters, and the
// language model's rename and group suggestions with their ignore list.
import { Type } from '@sinclair/typebox'
import { t } from 'elysia'
import type { FullTankoubon } from '../../domain/collections/tankoubons.ts'
import {
  MAX_GROUP_LIMIT,
  MAX_IGNORED_IDS,
  type GroupSuggestions,
  type IgnoredGroupSuggestion,
} from '../../domain/collections/group-suggestions.ts'
import type { ChapterRename, RenameSuggestions } from '../../domain/collections/tank-rename.ts'
import type { Tankoubon } from '../../domain/collections/tank-record.ts'
import { fail } from '../../errors.ts'
import { toWireArchive } from './archives.ts'

export const TankoubonModel = {
  params: t.Object({ id: t.String() }),
  memberParams: t.Object({ id: t.String(), archive: t.String() }),
  pageParams: t.Object({ id: t.String(), page: t.String() }),
  listQuery: t.Object({ page: t.Optional(t.String()) }),
  getQuery: t.Object({
    page: t.Optional(t.String()),
    include_full_data: t.Optional(t.String()),
  }),
  thumbnailQuery: t.Object({ no_fallback: t.Optional(t.String()), page: t.Optional(t.String()) }),
  /** Create or rename: form-urlencoded or multipart (JSON accepted too). */
  createBody: t.Optional(
    t.Object(
      { name: t.Optional(t.String()), tankid: t.Optional(t.String()) },
      { additionalProperties: true },
    ),
  ),
  /** Only the keys sent change; no body at all changes nothing (LANraragi). */
  updateBody: t.Optional(
    t.Object({
      archives: t.Optional(t.Array(t.String())),
      metadata: t.Optional(
        t.Object({
          name: t.Optional(t.String()),
          summary: t.Optional(t.String()),
          tags: t.Optional(t.String()),
          append: t.Optional(t.Boolean()),
        }),
      ),
    }),
  ),
}

/**
 * Transform hook of the update route, before validation: Elysia coerces a string or null into
 * the optional `metadata` object, so a malformed `metadata` would pass as "change nothing".
 */
export function checkTankUpdateBody({ body }: { body: unknown }): void {
  if (typeof body !== 'object' || body === null || !('metadata' in body)) return
  const metadata = (body as { metadata: unknown }).metadata
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))
    throw fail.bad_request('Invalid metadata: Expected object')
}

/** A 1-based page in a path or query: a positive integer, anything else is a 400. */
export function parsePageNumber(raw: string | undefined, what = 'page'): number {
  if (raw === undefined) throw fail.bad_request(`Missing ${what} (a positive integer is expected).`)
  if (!/^[1-9][0-9]{0,8}$/.test(raw)) {
    const shown = raw.slice(0, 32)
    throw fail.bad_request(`Invalid ${what}: ${shown} (a positive integer is expected).`)
  }
  return Number(raw)
}

/** A 0-based list page; -1 = everything. */
export function parseListPage(raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback
  if (!/^(-1|[0-9]{1,9})$/.test(raw)) throw fail.bad_request(`Invalid page: ${raw.slice(0, 32)}`)
  return Number(raw)
}

export function toWireTankoubon(tank: Tankoubon) {
  return {
    id: tank.id,
    name: tank.name,
    summary: tank.summary,
    tags: tank.tags,
    progress: tank.progress,
    archives: tank.archives,
  }
}

export function toWireFullTankoubon(tank: FullTankoubon) {
  return { ...toWireTankoubon(tank), full_data: tank.fullData.map((row) => toWireArchive(row)) }
}

const CHAPTER_BODY = 'Body must be {"archive_index": integer, 0-based}.'
const GROUP_BODY = `Body must be {"limit"?: integer 1 to ${MAX_GROUP_LIMIT}}.`
const IGNORE_BODY = 'Body must be {"archives": [archive id, at least two]}.'
const UNIGNORE_BODY = 'Body must be {"key": suggestion key} or {"archives": [archive id]}.'

const archiveIds = (error: string) =>
  t.Array(t.String({ maxLength: 64, error }), { maxItems: MAX_IGNORED_IDS, error })

/** Bodies of the language-model suggestion routes (docs/llm.md). */
export const TankSuggestionModel = {
  chapterBody: t.Object(
    { archive_index: t.Integer({ minimum: 0, maximum: 1_000_000, error: CHAPTER_BODY }) },
    { additionalProperties: false, error: CHAPTER_BODY },
  ),
  groupBody: t.Optional(
    t.Object(
      { limit: t.Optional(t.Integer({ minimum: 1, maximum: MAX_GROUP_LIMIT, error: GROUP_BODY })) },
      { additionalProperties: false, error: GROUP_BODY },
    ),
  ),
  ignoreBody: t.Object(
    { archives: archiveIds(IGNORE_BODY) },
    { additionalProperties: false, error: IGNORE_BODY },
  ),
  unignoreBody: t.Optional(
    t.Object(
      {
        key: t.Optional(t.String({ maxLength: 64, error: UNIGNORE_BODY })),
        archives: t.Optional(archiveIds(UNIGNORE_BODY)),
      },
      { additionalProperties: false, error: UNIGNORE_BODY },
    ),
  ),
  unignoreQuery: t.Object({ key: t.Optional(t.String()) }),
}

export function toWireRenameSuggestions(s: RenameSuggestions) {
  return {
    id: s.id,
    current_name: s.current,
    name: s.suggested,
    chapters: s.chapters.map((c, index) => ({
      archive_index: index,
      id: c.archive,
      current: c.current,
      name: c.suggested,
    })),
  }
}

export function toWireChapterRename(r: ChapterRename) {
  return {
    id: r.id,
    archive_index: r.archiveIndex,
    archive: r.chapter.archive,
    current: r.chapter.current,
    name: r.chapter.suggested,
  }
}

export function toWireGroupSuggestions(g: GroupSuggestions) {
  return {
    suggestions: g.suggestions.map((s) => ({
      key: s.key,
      name: s.name,
      reasons: s.reasons,
      archives: s.archives,
    })),
    candidates: g.candidates,
    rejected: g.rejected,
    ignored: g.ignored,
  }
}

export function toWireIgnored(entry: IgnoredGroupSuggestion) {
  return { key: entry.key, archives: entry.archiveIds, ignored_at: entry.ignoredAt }
}

/** GET /api/tankoubons (LANraragi's contract), keys in the order the answer writes them. */
export const TankoubonListResponse = t.Object({
  filtered: Type.Integer(),
  result: t.Array(
    t.Object({
      id: t.String(),
      name: t.String(),
      summary: t.String(),
      tags: t.String(),
      progress: Type.Integer(),
      archives: t.Array(t.String()),
    }),
  ),
  total: Type.Integer(),
})
