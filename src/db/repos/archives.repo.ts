// Queries of the catalog tables (archives, archive_pages). Hot lookups run statements kept per db.
import { eq, getTableColumns, inArray, sql } from 'drizzle-orm'
import type { SQLQueryBindings, Statement } from 'bun:sqlite'
import type { Db } from '../client.ts'
import { archives } from '../schema/archives.ts'

export type ArchiveRow = typeof archives.$inferSelect
export type NewArchiveRow = typeof archives.$inferInsert

const archiveColumns = getTableColumns(archives)
type ArchiveField = keyof typeof archiveColumns
const ARCHIVE_FIELDS = Object.keys(archiveColumns) as ArchiveField[]

/** Every column of `archives` in schema order, then the rowid: what the raw reads select. */
const ARCHIVE_COLUMNS = [
  ...ARCHIVE_FIELDS.map((field) => `"${archiveColumns[field].name}"`),
  'rowid',
].join(', ')

/** An archive as a raw statement returns it: the values of ARCHIVE_COLUMNS, in their order. */
type ArchiveRowValues = unknown[]
const ROWID_AT = ARCHIVE_FIELDS.length

/**
 * The row of a raw read's values, made by one object literal compiled from the schema at load: a
 * loop over the columns setting keys one by one took 3.5x as long per row, and the full archive
 * list maps every row. Booleans are stored as 0 and 1; text and number columns read as they are.
 */
const archiveRowOf = compileArchiveRowOf()

function compileArchiveRowOf(): (values: ArchiveRowValues) => ArchiveRow {
  const columns = ARCHIVE_FIELDS.map((field) => archiveColumns[field])
  const entries = columns.map((column, i) => {
    const value =
      column.columnType === 'SQLiteBoolean'
        ? `v[${i}] !== 0`
        : column.columnType === 'SQLiteText' || column.columnType === 'SQLiteInteger'
          ? `v[${i}]`
          : `c[${i}].mapFromDriverValue(v[${i}])`
    return `${JSON.stringify(ARCHIVE_FIELDS[i])}: ${value}`
  })
  const compile = new Function('c', `return (v) => ({ ${entries.join(', ')} })`)
  return compile(columns) as (values: ArchiveRowValues) => ArchiveRow
}

const statements = new WeakMap<Db, Map<string, Statement<unknown[], [number, number]>>>()

/** `sqlText` prepared once per database: every raw statement of this file is kept here. */
function statementFor<Row extends unknown[]>(
  db: Db,
  sqlText: string,
): Statement<Row, [number, number]> {
  let known = statements.get(db)
  if (!known) statements.set(db, (known = new Map()))
  let statement = known.get(sqlText)
  if (!statement) known.set(sqlText, (statement = db.$client.prepare(sqlText)))
  return statement as Statement<Row, [number, number]>
}

/** Runs a kept statement (whole archive rows unless told); answers the rows it returns. */
function runStatement<Row extends unknown[] = ArchiveRowValues>(
  db: Db,
  sqlText: string,
  params: SQLQueryBindings[],
): Row[] {
  const statement = statementFor(db, sqlText) as unknown as Statement<unknown, SQLQueryBindings[]>
  return statement.values(...params) as unknown as Row[]
}

// One archive by id or path: a raw statement read as values, as the writers below answer rows.
// Every request for an archive starts here; drizzle's prepared query spent ~25 us a row mapping.
const byIdSql = `SELECT ${ARCHIVE_COLUMNS} FROM archives WHERE id = ?`
const byPathSql = `SELECT ${ARCHIVE_COLUMNS} FROM archives WHERE path = ?`

export function findArchive(db: Db, id: string): ArchiveRow | undefined {
  const found = runStatement(db, byIdSql, [id])[0]
  return found ? archiveRowOf(found) : undefined
}

export function findArchiveByPath(db: Db, path: string): ArchiveRow | undefined {
  const found = runStatement(db, byPathSql, [path])[0]
  return found ? archiveRowOf(found) : undefined
}

export function findArchives(db: Db, ids: string[]): ArchiveRow[] {
  if (ids.length === 0) return []
  return db.select().from(archives).where(inArray(archives.id, ids)).all()
}

/** What the duplicate scan reads of every shown archive: no tags, no summary, no path. */
export type DuplicateScanRow = Pick<
  ArchiveRow,
  'id' | 'thumbhash' | 'size' | 'mtimeMs' | 'pagecount' | 'createdAt'
>

export function listDuplicateScanRows(db: Db): DuplicateScanRow[] {
  return db
    .select({
      id: archives.id,
      thumbhash: archives.thumbhash,
      size: archives.size,
      mtimeMs: archives.mtimeMs,
      pagecount: archives.pagecount,
      createdAt: archives.createdAt,
    })
    .from(archives)
    .where(eq(archives.unlinked, false))
    .all()
}

export function listArchives(db: Db): ArchiveRow[] {
  return db.select().from(archives).where(eq(archives.unlinked, false)).all()
}

/**
 * One batch of linked archives in storage (rowid) order after `afterRowid`, with the rowid to go
 * on from: the full list is read batch by batch, never whole. A raw statement read as value
 * arrays: through drizzle's select, a million-row list spent 5.5 s reading, this way 2.2 s.
 */
export function listArchivesAfter(
  db: Db,
  afterRowid: number,
  limit: number,
): { rows: ArchiveRow[]; lastRowid: number | null } {
  const values = statementFor<ArchiveRowValues>(
    db,
    `SELECT ${ARCHIVE_COLUMNS} FROM archives WHERE unlinked = 0 AND rowid > ?1 ORDER BY rowid LIMIT ?2`,
  ).values(afterRowid, limit) as ArchiveRowValues[]
  const last = values.at(-1)
  return { rows: values.map(archiveRowOf), lastRowid: last ? (last[ROWID_AT] as number) : null }
}

type IndexColumns = 'id' | 'title' | 'tags' | 'isnew' | 'progress' | 'pagecount' | 'lastreadtime'

/** id, title, tags, isnew (0 or 1), progress, pagecount, lastreadtime, rowid: an index batch row. */
type IndexRowValues = [string, string, string, number, number, number, number, number]

/**
 * Only the columns the search index reads, for every linked archive (its build at start). A raw
 * statement read as value arrays: drizzle's select and row mapping took ~3 s of a million-row
 * read that takes ~1 s this way.
 */
export function* listIndexArchives(db: Db): Generator<Pick<ArchiveRow, IndexColumns>> {
  const batches = batchesByRowid<IndexRowValues>(
    db,
    `SELECT id, title, tags, isnew, progress, pagecount, lastreadtime, rowid FROM archives
     WHERE unlinked = 0 AND rowid > ?1 ORDER BY rowid LIMIT ?2`,
  )
  for (const rows of batches)
    for (const [id, title, tags, isnew, progress, pagecount, lastreadtime] of rows)
      yield { id, title, tags, isnew: isnew !== 0, progress, pagecount, lastreadtime }
}

/**
 * The rows of `sqlText` (parameters: the rowid to go on from, the batch size; its last column is
 * the rowid) as value arrays, batch by batch, never whole: at a million archives a whole result
 * alone took ~1 GB of RSS.
 */
function* batchesByRowid<Row extends unknown[]>(
  db: Db,
  sqlText: string,
  batch = 10_000,
): Generator<Row[]> {
  const statement = statementFor<Row>(db, sqlText)
  let after = 0
  for (;;) {
    const rows = statement.values(after, batch) as Row[]
    yield rows
    if (rows.length < batch) return
    after = rows[rows.length - 1]!.at(-1) as number
  }
}

/** The ids of every linked archive, in storage order, without reading their rows whole. */
export function listLinkedArchiveIds(db: Db): string[] {
  const ids: string[] = []
  const batches = batchesByRowid<[string, number]>(
    db,
    'SELECT id, rowid FROM archives WHERE unlinked = 0 AND rowid > ?1 ORDER BY rowid LIMIT ?2',
  )
  for (const rows of batches) for (const [id] of rows) ids.push(id)
  return ids
}

/** A catalogued file as a rescan or database/clean compares it with the content folder. */
export type ArchiveFileStamp = {
  id: string
  path: string
  size: number
  mtimeMs: number
  unlinked: boolean
}

/** id, path, size, mtime_ms, unlinked (0 or 1), rowid. */
type FileStampValues = [string, string, number, number, number, number]

/**
 * Every catalogued file's stamps, linked or not, read in rowid batches like the index rows: at a
 * million archives a whole drizzle result and its row objects were ~1 GB at the rescan's peak.
 */
export function* listArchiveFileStamps(db: Db): Generator<ArchiveFileStamp> {
  const batches = batchesByRowid<FileStampValues>(
    db,
    'SELECT id, path, size, mtime_ms, unlinked, rowid FROM archives WHERE rowid > ?1 ORDER BY rowid LIMIT ?2',
  )
  for (const rows of batches) for (const row of rows) yield fileStampOf(row)
}

/**
 * The stamps of the files at `path` or under it as a folder (content-relative), linked or not:
 * a range of the path index (`/` is 0x2F, `0` the next byte).
 */
export function listArchiveFileStampsUnder(db: Db, path: string): ArchiveFileStamp[] {
  const rows = db.$client
    .query<FileStampValues, [string]>(
      `SELECT id, path, size, mtime_ms, unlinked, rowid FROM archives
       WHERE path = ?1 OR (path >= ?1 || '/' AND path < ?1 || '0')`,
    )
    .values(path) as FileStampValues[]
  return rows.map(fileStampOf)
}

const fileStampOf = ([id, path, size, mtimeMs, unlinked]: FileStampValues): ArchiveFileStamp => ({
  id,
  path,
  size,
  mtimeMs,
  unlinked: unlinked !== 0,
})

/**
 * The fields `values` sets (undefined ones are left out, as drizzle's insert and set do), in one
 * order, so each set of fields has one statement text.
 */
function fieldsSetIn(values: Partial<NewArchiveRow>): ArchiveField[] {
  return (Object.keys(values) as ArchiveField[])
    .filter((field) => values[field] !== undefined && field in archiveColumns)
    .sort()
}

/** What SQLite stores for each field (booleans as 0 and 1). */
function driverValuesOf(fields: readonly ArchiveField[], values: Partial<NewArchiveRow>) {
  return fields.map((field) => {
    const value = values[field]
    return value === null
      ? null
      : (archiveColumns[field].mapToDriverValue(value) as SQLQueryBindings)
  })
}

const columnsOf = (fields: readonly ArchiveField[]) =>
  fields.map((field) => `"${archiveColumns[field].name}"`)

const upsertPagesSql = `INSERT INTO archive_pages (archive_id, pages) VALUES (?, ?)
  ON CONFLICT (archive_id) DO UPDATE SET pages = excluded.pages`

// The writers below run prepared statements kept per set of fields: through drizzle's builder,
// building and preparing each statement cost ~300 us a row (a restore of 10,000 archives held
// the thread 3.6 s), where running a kept one costs a few.

export function insertArchive(db: Db, row: NewArchiveRow, pages: string[]): ArchiveRow {
  const fields = fieldsSetIn(row)
  const columns = columnsOf(fields)
  const sqlText = `INSERT INTO archives (${columns.join(', ')})
    VALUES (${columns.map(() => '?').join(', ')}) RETURNING ${ARCHIVE_COLUMNS}`
  const inserted = runStatement(db, sqlText, driverValuesOf(fields, row))[0]!
  setArchivePages(db, row.id, pages)
  return archiveRowOf(inserted)
}

export function updateArchive(
  db: Db,
  id: string,
  patch: Partial<Omit<NewArchiveRow, 'id'>>,
): ArchiveRow | undefined {
  const fields = fieldsSetIn(patch).filter((field) => field !== 'id')
  if (fields.length === 0) return findArchive(db, id)
  const assignments = columnsOf(fields).map((column) => `${column} = ?`)
  const sqlText = `UPDATE archives SET ${assignments.join(', ')} WHERE id = ?
    RETURNING ${ARCHIVE_COLUMNS}`
  const updated = runStatement(db, sqlText, [...driverValuesOf(fields, patch), id])[0]
  return updated ? archiveRowOf(updated) : undefined
}

/** Clears the New flag of every row that has it; answers those rows as written. */
export function clearEveryNewFlag(db: Db): ArchiveRow[] {
  return db.update(archives).set({ isnew: false }).where(eq(archives.isnew, true)).returning().all()
}

export function setArchivePages(db: Db, id: string, pages: string[]): void {
  runStatement(db, upsertPagesSql, [id, JSON.stringify(pages)])
}

const pagesSql = 'SELECT pages FROM archive_pages WHERE archive_id = ?'

export function readArchivePages(db: Db, id: string): string[] | undefined {
  const row = runStatement<[string]>(db, pagesSql, [id])[0]
  return row ? (JSON.parse(row[0]) as string[]) : undefined
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
