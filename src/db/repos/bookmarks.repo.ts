// Queries of the bookmarks table: one row per (archive, page), with an optional name.
import { and, asc, eq, inArray } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { bookmarks } from '../schema/collections.ts'

export type BookmarkRow = typeof bookmarks.$inferSelect

export function listArchiveBookmarks(db: Db, archiveId: string): BookmarkRow[] {
  return db
    .select()
    .from(bookmarks)
    .where(eq(bookmarks.archiveId, archiveId))
    .orderBy(asc(bookmarks.page))
    .all()
}

/** Bookmarks of several archives, grouped by archive id, pages ascending. */
export function bookmarksByArchive(db: Db, archiveIds: string[]): Map<string, BookmarkRow[]> {
  const out = new Map<string, BookmarkRow[]>()
  if (archiveIds.length === 0) return out
  const rows = db
    .select()
    .from(bookmarks)
    .where(inArray(bookmarks.archiveId, archiveIds))
    .orderBy(asc(bookmarks.archiveId), asc(bookmarks.page))
    .all()
  for (const row of rows) {
    const list = out.get(row.archiveId)
    if (list) list.push(row)
    else out.set(row.archiveId, [row])
  }
  return out
}

export function listAllBookmarks(db: Db): BookmarkRow[] {
  return db.select().from(bookmarks).orderBy(asc(bookmarks.archiveId), asc(bookmarks.page)).all()
}

export function findBookmark(db: Db, archiveId: string, page: number): BookmarkRow | undefined {
  return db
    .select()
    .from(bookmarks)
    .where(and(eq(bookmarks.archiveId, archiveId), eq(bookmarks.page, page)))
    .get()
}

/** Adds a bookmark; an existing one keeps its name and time. False when it already existed. */
export function insertBookmark(db: Db, row: BookmarkRow): boolean {
  return db.insert(bookmarks).values(row).onConflictDoNothing().returning().all().length > 0
}

export function deleteBookmark(db: Db, archiveId: string, page: number): boolean {
  return (
    db
      .delete(bookmarks)
      .where(and(eq(bookmarks.archiveId, archiveId), eq(bookmarks.page, page)))
      .returning()
      .all().length > 0
  )
}

/** False when there is no such bookmark. */
export function setBookmarkName(
  db: Db,
  archiveId: string,
  page: number,
  name: string | null,
): boolean {
  return (
    db
      .update(bookmarks)
      .set({ name })
      .where(and(eq(bookmarks.archiveId, archiveId), eq(bookmarks.page, page)))
      .returning()
      .all().length > 0
  )
}
