// Queries of the download queue table: items in the order they were added.
import { asc, eq, inArray } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { downloadQueue } from '../schema/downloads.ts'

export type DownloadItemRow = typeof downloadQueue.$inferSelect
export type NewDownloadItem = typeof downloadQueue.$inferInsert
export type DownloadItemPatch = Partial<Omit<DownloadItemRow, 'id' | 'createdAt'>>

export function insertDownloadItem(db: Db, row: NewDownloadItem): DownloadItemRow {
  return db.insert(downloadQueue).values(row).returning().get()
}

export function findDownloadItem(db: Db, id: string): DownloadItemRow | undefined {
  return db.select().from(downloadQueue).where(eq(downloadQueue.id, id)).get()
}

/** Every item, oldest first (the order the user added them). */
export function listDownloadItems(db: Db): DownloadItemRow[] {
  return db
    .select()
    .from(downloadQueue)
    .orderBy(asc(downloadQueue.createdAt), asc(downloadQueue.id))
    .all()
}

export function listDownloadItemsByState(db: Db, states: string[]): DownloadItemRow[] {
  return db
    .select()
    .from(downloadQueue)
    .where(inArray(downloadQueue.state, states))
    .orderBy(asc(downloadQueue.createdAt), asc(downloadQueue.id))
    .all()
}

/** Writes the patch (updated_at set by the caller); answers the row as it is now, if it exists. */
export function updateDownloadItem(
  db: Db,
  id: string,
  patch: DownloadItemPatch,
): DownloadItemRow | undefined {
  return db.update(downloadQueue).set(patch).where(eq(downloadQueue.id, id)).returning().get()
}

export function deleteDownloadItem(db: Db, id: string): boolean {
  return db.delete(downloadQueue).where(eq(downloadQueue.id, id)).returning().all().length > 0
}
