// Whole-database reads and deletes for backup, restore and drop: every archive row (hidden ones
// included), the rows a restore matches by file name, and the non-library rows a drop clears
// (bookmarks, API tokens, sessions). Library rows are still deleted only by their writers.
import { eq } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { archives } from '../schema/archives.ts'
import { bookmarks } from '../schema/collections.ts'
import { apiTokens, sessionFamilies } from '../schema/auth.ts'

/** The fields a backup keeps of an archive. */
export type BackupArchiveRow = {
  id: string
  title: string
  tags: string
  summary: string
  filename: string
  thumbhash: string | null
  toc: string
}

/** Every archive row, hidden ones included (their metadata is kept for when the file returns). */
export function listBackupArchiveRows(db: Db): BackupArchiveRow[] {
  return db
    .select({
      id: archives.id,
      title: archives.title,
      tags: archives.tags,
      summary: archives.summary,
      filename: archives.filename,
      thumbhash: archives.thumbhash,
      toc: archives.toc,
    })
    .from(archives)
    .orderBy(archives.id)
    .all()
}

/** Every archive's id, hidden ones included. */
export function listAllArchiveIds(db: Db): string[] {
  return db
    .select({ id: archives.id })
    .from(archives)
    .all()
    .map((r) => r.id)
}

/** Archive ids by file name (without extension); a name two files share maps to several ids. */
export function archiveIdsByFilename(db: Db): Map<string, string[]> {
  const out = new Map<string, string[]>()
  for (const row of db
    .select({ id: archives.id, filename: archives.filename })
    .from(archives)
    .all()) {
    const list = out.get(row.filename)
    if (list) list.push(row.id)
    else out.set(row.filename, [row.id])
  }
  return out
}

/** Archive rows by content-relative path, linked ones only (the maintenance scripts' walk). */
export function linkedArchiveIdsByPath(db: Db): Map<string, string> {
  const rows = db
    .select({ id: archives.id, path: archives.path })
    .from(archives)
    .where(eq(archives.unlinked, false))
    .all()
  return new Map(rows.map((r) => [r.path, r.id]))
}

export function deleteAllBookmarks(db: Db): number {
  return db.delete(bookmarks).returning({ id: bookmarks.archiveId }).all().length
}

/** API tokens, session families and (cascading) their refresh tokens: everyone is signed out. */
export function deleteAllCredentials(db: Db): { tokens: number; sessions: number } {
  const tokens = db.delete(apiTokens).returning({ id: apiTokens.id }).all().length
  const sessions = db.delete(sessionFamilies).returning({ id: sessionFamilies.id }).all().length
  return { tokens, sessions }
}
