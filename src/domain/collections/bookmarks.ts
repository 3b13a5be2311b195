// Per-archive page bookmarks: list (with each page's file name), add, remove, name.
// Pages are not checked against the page count; removal does not need the archive to exist.
import type { Deps } from '../../deps.ts'
import { tx } from '../../db/client.ts'
import { findArchive, readArchivePages } from '../../db/repos/archives.repo.ts'
import {
  deleteBookmark,
  insertBookmark,
  listArchiveBookmarks,
  setBookmarkName,
  type BookmarkRow,
} from '../../db/repos/bookmarks.repo.ts'
import { fail } from '../../errors.ts'
import { parseArchiveId } from '../../model/ids.ts'
import { inScope, type Scope } from '../search/guest-scope.ts'

export type BookmarkView = {
  page: number
  /** Entry name of the page; empty when the archive has no such page (the spec types it a string). */
  filename: string
  name: string | null
  bookmarkedAt: number
}

export const MAX_BOOKMARK_NAME_LENGTH = 200

export function toBookmarkView(row: BookmarkRow, pages: readonly string[]): BookmarkView {
  const filename = pages[row.page - 1] ?? ''
  return { page: row.page, filename, name: row.name, bookmarkedAt: row.bookmarkedAt }
}

/** Ascending by page; a nonexistent (or unlinked) archive has none. */
export function archiveBookmarks(
  deps: Pick<Deps, 'db'>,
  rawId: string,
  scope: Scope,
): BookmarkView[] {
  const id = parseArchiveId(rawId)
  if (!inScope(scope, id)) throw fail.not_found('No archive with this ID.')
  const archive = findArchive(deps.db, id)
  if (!archive || archive.unlinked) return []
  const pages = readArchivePages(deps.db, id) ?? []
  return listArchiveBookmarks(deps.db, id).map((row) => toBookmarkView(row, pages))
}

/** Adding an existing bookmark keeps its name and time. */
export function addBookmark(deps: Pick<Deps, 'db'>, rawId: string, page: number): void {
  const id = parseArchiveId(rawId)
  tx(deps.db, () => {
    if (!findArchive(deps.db, id)) throw fail.bad_request(`${id} does not exist in the database.`)
    const bookmarkedAt = Math.floor(Date.now() / 1000)
    insertBookmark(deps.db, { archiveId: id, page, name: null, bookmarkedAt })
  })
}

export function removeBookmark(deps: Pick<Deps, 'db'>, rawId: string, page: number): void {
  const id = parseArchiveId(rawId)
  tx(deps.db, () => deleteBookmark(deps.db, id, page))
}

/** Sets the name, or clears it for null or blank; 404 when there is no such bookmark. */
export function renameBookmark(
  deps: Pick<Deps, 'db'>,
  rawId: string,
  page: number,
  name: string | null,
): string | null {
  const id = parseArchiveId(rawId)
  const clean = name?.trim() || null
  if (clean !== null && [...clean].length > MAX_BOOKMARK_NAME_LENGTH) {
    throw fail.bad_request(`Bookmark name is longer than ${MAX_BOOKMARK_NAME_LENGTH} characters.`)
  }
  const found = tx(deps.db, () => setBookmarkName(deps.db, id, page, clean))
  if (!found) throw fail.not_found(`No bookmark on page ${page} of ${id}.`)
  return clean
}
