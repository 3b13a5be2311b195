// Wire shapes of bookmarks (per archive, per Tankoubon, aggregated) and their request bodies.
import { t } from 'elysia'
import type { BookmarkView } from '../../domain/collections/bookmarks.ts'
import type { TankBookmarkView } from '../../domain/collections/tank-bookmarks.ts'
import {
  BOOKMARK_SORTS,
  DEFAULT_LIMIT,
  MAX_LIMIT,
  MIN_LIMIT,
  type BookmarkEntry,
  type BookmarkSort,
} from '../../domain/collections/bookmark-list.ts'
import { fail } from '../../errors.ts'
import { toWireArchive } from './archives.ts'

export const BookmarkModel = {
  archiveParams: t.Object({ id: t.String() }),
  pageParams: t.Object({ id: t.String(), page: t.String() }),
  /** `name` is required: a string sets it, null or blank clears it (docs/collections.md). */
  renameBody: t.Object({ name: t.Union([t.String(), t.Null()]) }),
  listQuery: t.Object({
    sort: t.Optional(t.String()),
    cursor: t.Optional(t.String()),
    limit: t.Optional(t.String()),
  }),
  hoverOrderBody: t.Object({ order: t.String() }),
  onlyMatchingBody: t.Object({ only_matching: t.Boolean() }),
}

export function parseListOptions(query: typeof BookmarkModel.listQuery.static): {
  sort: BookmarkSort
  cursor?: string
  limit: number
} {
  const sort = BOOKMARK_SORTS.find((s) => s === (query.sort ?? 'bookmarked_at'))
  if (!sort) throw fail.bad_request(`sort must be one of ${BOOKMARK_SORTS.join(', ')}.`)
  let limit = DEFAULT_LIMIT
  if (query.limit !== undefined) {
    limit = /^[0-9]{1,4}$/.test(query.limit) ? Number(query.limit) : NaN
    if (!(limit >= MIN_LIMIT && limit <= MAX_LIMIT)) {
      throw fail.bad_request(`limit must be an integer from ${MIN_LIMIT} to ${MAX_LIMIT}.`)
    }
  }
  return { sort, limit, ...(query.cursor ? { cursor: query.cursor } : {}) }
}

export function toWireBookmark(view: BookmarkView) {
  return {
    page: view.page,
    filename: view.filename,
    name: view.name,
    bookmarked_at: view.bookmarkedAt,
  }
}

export function toWireTankBookmark(view: TankBookmarkView) {
  return {
    page: view.page,
    archive_id: view.archiveId,
    local_page: view.localPage,
    filename: view.filename,
    name: view.name,
    bookmarked_at: view.bookmarkedAt,
  }
}

export function toWireBookmarkEntry(entry: BookmarkEntry) {
  return { archive: toWireArchive(entry.archive), pages: entry.pages.map(toWireBookmark) }
}
