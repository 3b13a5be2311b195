// GET /api/bookmarks: every bookmark grouped by archive, sorted, paged by an opaque keyset cursor
// (stable while bookmarks come and go). Bookmarks of deleted or unlinked archives are dropped.
import type { Deps } from '../../deps.ts'
import { findArchives, readArchivePages, type ArchiveRow } from '../../db/repos/archives.repo.ts'
import { listAllBookmarks, type BookmarkRow } from '../../db/repos/bookmarks.repo.ts'
import { AppError, fail } from '../../errors.ts'
import { lastTagValue } from '../../model/tags.ts'
import { naturalCompare } from '../../model/natural-sort.ts'
import { toBookmarkView, type BookmarkView } from './bookmarks.ts'
import { inScope, type Scope } from '../search/guest-scope.ts'

export const BOOKMARK_SORTS = ['bookmarked_at', 'title', 'date_added'] as const
export type BookmarkSort = (typeof BOOKMARK_SORTS)[number]
export const MIN_LIMIT = 1
export const MAX_LIMIT = 200
export const DEFAULT_LIMIT = 50

export type BookmarkEntry = { archive: ArchiveRow; pages: BookmarkView[] }

/** Where an archive sits in the order: its sort key, then its id to break ties. */
type Position = { key: number | string; id: string }

function sortKey(
  sort: BookmarkSort,
  archive: ArchiveRow,
  bookmarks: BookmarkRow[],
): number | string {
  switch (sort) {
    case 'bookmarked_at':
      return Math.max(...bookmarks.map((b) => b.bookmarkedAt))
    case 'title':
      return archive.title
    case 'date_added': {
      const tagged = Number(lastTagValue(archive.tags, 'date_added'))
      return Number.isFinite(tagged) && tagged > 0 ? tagged : archive.createdAt
    }
  }
}

/** bookmarked_at and date_added: newest first; title: A to Z. */
function compare(sort: BookmarkSort, a: Position, b: Position): number {
  const byKey =
    sort === 'title' ? naturalCompare(String(a.key), String(b.key)) : Number(b.key) - Number(a.key)
  return byKey || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
}

function encodeCursor(sort: BookmarkSort, at: Position): string {
  return Buffer.from(JSON.stringify([sort, at.key, at.id])).toString('base64url')
}

function decodeCursor(sort: BookmarkSort, cursor: string): Position {
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch (cause) {
    throw new AppError('bad_request', 'Invalid cursor.', undefined, { cause })
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 3 ||
    parsed[0] !== sort ||
    (typeof parsed[1] !== 'number' && typeof parsed[1] !== 'string') ||
    typeof parsed[2] !== 'string'
  ) {
    throw fail.bad_request('Invalid cursor (or one made for another sort order).')
  }
  return { key: parsed[1], id: parsed[2] }
}

export function listBookmarkEntries(
  deps: Pick<Deps, 'db'>,
  options: { sort: BookmarkSort; cursor?: string; limit: number },
  scope: Scope,
): { entries: BookmarkEntry[]; nextCursor: string | null } {
  const after = options.cursor ? decodeCursor(options.sort, options.cursor) : undefined
  const grouped = new Map<string, BookmarkRow[]>()
  for (const row of listAllBookmarks(deps.db)) {
    if (!inScope(scope, row.archiveId)) continue
    const list = grouped.get(row.archiveId)
    if (list) list.push(row)
    else grouped.set(row.archiveId, [row])
  }
  const ordered = findArchives(deps.db, [...grouped.keys()])
    .filter((archive) => !archive.unlinked)
    .map((archive) => {
      const bookmarks = grouped.get(archive.id)!
      const key = sortKey(options.sort, archive, bookmarks)
      return { archive, bookmarks, at: { key, id: archive.id } }
    })
    .sort((a, b) => compare(options.sort, a.at, b.at))
  const rest = after ? ordered.filter((item) => compare(options.sort, item.at, after) > 0) : ordered
  const shown = rest.slice(0, options.limit)
  const last = shown.at(-1)
  return {
    entries: shown.map(({ archive, bookmarks }) => {
      const pages = readArchivePages(deps.db, archive.id) ?? []
      return { archive, pages: bookmarks.map((b) => toBookmarkView(b, pages)) }
    }),
    nextCursor: rest.length > shown.length && last ? encodeCursor(options.sort, last.at) : null,
  }
}
