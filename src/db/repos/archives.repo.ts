// Queries of the catalog tables (archives, archive_pages). Hot lookups are prepared once per db.
import { and, eq, inArray, sql } from 'drizzle-orm'
import type { Statement } from 'bun:sqlite'
import type { Db } from '../client.ts'
import { archives, archivePages } from '../schema/archives.ts'

export type ArchiveRow = typeof archives.$inferSelect
export type NewArchiveRow = typeof archives.$inferInsert

const prepared = new WeakMap<Db, ReturnType<typeof prepare>>()

function prepare(db: Db) {
  return {
    byId: db
      .select()
      .from(archives)
      .where(eq(archives.id, sql.placeholder('id')))
      .prepare(),
    byPath: db
      .select()
      .from(archives)
      .where(eq(archives.path, sql.placeholder('path')))
      .prepare(),
    pages: db
      .select({ pages: archivePages.pages })
      .from(archivePages)
      .where(eq(archivePages.archiveId, sql.placeholder('id')))
      .prepare(),
  }
}

function q(db: Db) {
  let p = prepared.get(db)
  if (!p) prepared.set(db, (p = prepare(db)))
  return p
}

export function findArchive(db: Db, id: string): ArchiveRow | undefined {
  return q(db).byId.get({ id })
}

export function findArchiveByPath(db: Db, path: string): ArchiveRow | undefined {
  return q(db).byPath.get({ path })
}

export function findArchives(db: Db, ids: string[]): ArchiveRow[] {
  if (ids.length === 0) return []
  return db.select().from(archives).where(inArray(archives.id, ids)).all()
}

export function listArchives(db: Db): ArchiveRow[] {
  return db.select().from(archives).where(eq(archives.unlinked, false)).all()
}

/**
 * One batch of linked archives in storage (rowid) order after `afterRowid`, with the rowid to go
 * on from: the full list is read batch by batch, never whole.
 */
export function listArchivesAfter(
  db: Db,
  afterRowid: number,
  limit: number,
): { rows: ArchiveRow[]; lastRowid: number | null } {
  const batch = db
    .select({ rowid: sql<number>`${archives}.rowid`, row: archives })
    .from(archives)
    .where(and(eq(archives.unlinked, false), sql`${archives}.rowid > ${afterRowid}`))
    .orderBy(sql`${archives}.rowid`)
    .limit(limit)
    .all()
  return { rows: batch.map((b) => b.row), lastRowid: batch.at(-1)?.rowid ?? null }
}

type IndexColumns = 'id' | 'title' | 'tags' | 'isnew' | 'progress' | 'pagecount' | 'lastreadtime'

/** id, title, tags, isnew (0 or 1), progress, pagecount, lastreadtime, rowid: an index batch row. */
type IndexRowValues = [string, string, string, number, number, number, number, number]

const indexBatchStatements = new WeakMap<Db, Statement<IndexRowValues, [number, number]>>()

/**
 * Only the columns the search index reads, for every linked archive (its build at start). A raw
 * statement read as value arrays: drizzle's select and row mapping took ~3 s of a million-row
 * read that takes ~1 s this way.
 */
export function* listIndexArchives(
  db: Db,
  batch = 10_000,
): Generator<Pick<ArchiveRow, IndexColumns>> {
  let statement = indexBatchStatements.get(db)
  if (!statement) {
    statement = db.$client.prepare<IndexRowValues, [number, number]>(
      `SELECT id, title, tags, isnew, progress, pagecount, lastreadtime, rowid FROM archives
       WHERE unlinked = 0 AND rowid > ?1 ORDER BY rowid LIMIT ?2`,
    )
    indexBatchStatements.set(db, statement)
  }
  // Read in rowid batches: at a million archives the whole result alone took ~1 GB of RSS.
  let after = 0
  for (;;) {
    const rows = statement.values(after, batch) as IndexRowValues[]
    for (const [id, title, tags, isnew, progress, pagecount, lastreadtime] of rows)
      yield { id, title, tags, isnew: isnew !== 0, progress, pagecount, lastreadtime }
    if (rows.length < batch) return
    after = rows[rows.length - 1]![7]
  }
}

/** Path, size, mtime and hidden flag of every row: what a rescan needs to skip unchanged files. */
export function listArchiveFileStamps(
  db: Db,
): { id: string; path: string; size: number; mtimeMs: number; unlinked: boolean }[] {
  return db
    .select({
      id: archives.id,
      path: archives.path,
      size: archives.size,
      mtimeMs: archives.mtimeMs,
      unlinked: archives.unlinked,
    })
    .from(archives)
    .all()
}

export function insertArchive(db: Db, row: NewArchiveRow, pages: string[]): ArchiveRow {
  const inserted = db.insert(archives).values(row).returning().get()
  db.insert(archivePages)
    .values({ archiveId: row.id, pages: JSON.stringify(pages) })
    .onConflictDoUpdate({ target: archivePages.archiveId, set: { pages: JSON.stringify(pages) } })
    .run()
  return inserted
}

export function updateArchive(
  db: Db,
  id: string,
  patch: Partial<Omit<NewArchiveRow, 'id'>>,
): ArchiveRow | undefined {
  return db.update(archives).set(patch).where(eq(archives.id, id)).returning().get()
}

/** Clears the New flag of every row; answers the rows as written. */
export function clearEveryNewFlag(db: Db): ArchiveRow[] {
  return db.update(archives).set({ isnew: false }).returning().all()
}

export function setArchivePages(db: Db, id: string, pages: string[]): void {
  db.insert(archivePages)
    .values({ archiveId: id, pages: JSON.stringify(pages) })
    .onConflictDoUpdate({ target: archivePages.archiveId, set: { pages: JSON.stringify(pages) } })
    .run()
}

export function readArchivePages(db: Db, id: string): string[] | undefined {
  const row = q(db).pages.get({ id })
  return row ? (JSON.parse(row.pages) as string[]) : undefined
}

export function deleteArchiveRow(db: Db, id: string): boolean {
  return (
    db.delete(archives).where(eq(archives.id, id)).returning({ id: archives.id }).all().length > 0
  )
}

export function countArchives(db: Db): number {
  return db
    .select({ n: sql<number>`count(*)` })
    .from(archives)
    .where(eq(archives.unlinked, false))
    .get()!.n
}
