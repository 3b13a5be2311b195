import { afterEach, beforeEach, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { openDb, type Db } from '../../src/db/client.ts'
import { archives } from '../../src/db/schema/archives.ts'
import {
  findArchive,
  findArchiveByPath,
  insertArchive,
  listArchiveFileStamps,
  listArchivesAfter,
  readArchivePages,
  setArchivePages,
  updateArchive,
  type ArchiveRow,
  type NewArchiveRow,
} from '../../src/db/repos/archives.repo.ts'

let root: string
let db: Db

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'tankobun-archives-repo-'))
  db = openDb(join(root, 'db.sqlite'))
})
afterEach(() => {
  db.$client.close()
  rmSync(root, { recursive: true, force: true })
})

const id = (n: number) => n.toString(16).padStart(40, '0')

/** Every column away from its default, so a column read into the wrong field shows. */
function row(n: number, overrides: Partial<NewArchiveRow> = {}): NewArchiveRow {
  return {
    id: id(n),
    path: `folder/file ${n}.cbz`,
    filename: `file ${n}`,
    extension: 'cbz',
    title: `Title ${n}`,
    tags: `artist:a${n}, parody:p`,
    summary: `summary ${n}`,
    isnew: false,
    progress: 3 + n,
    pagecount: 20 + n,
    lastreadtime: 1_700_000_000 + n,
    size: 5_000_000_000 + n,
    mtimeMs: 1_690_000_000_000 + n,
    toc: `{"${n}":"chapter"}`,
    thumbhash: `hash${n}`,
    coverPage: 2 + n,
    hasPatch: true,
    unreadable: `reason ${n}`,
    unlinked: false,
    createdAt: 1_600_000_000 + n,
    ...overrides,
  }
}

describe('listArchivesAfter (a raw statement)', () => {
  it('reads every column as drizzle reads it, linked rows only, in batches by rowid', () => {
    for (let n = 1; n <= 5; n++) insertArchive(db, row(n, { unlinked: n === 3 }), ['p.jpg'])
    insertArchive(
      db,
      row(6, { isnew: true, hasPatch: false, thumbhash: null, unreadable: null }),
      [],
    )
    const expected = db.select().from(archives).where(eq(archives.unlinked, false)).all()
    const first = listArchivesAfter(db, 0, 3)
    expect(first.rows).toEqual(expected.slice(0, 3))
    const second = listArchivesAfter(db, first.lastRowid!, 3)
    expect(second.rows).toEqual(expected.slice(3))
    expect(listArchivesAfter(db, second.lastRowid!, 3)).toEqual({ rows: [], lastRowid: null })
  })
})

describe('listArchiveFileStamps', () => {
  it('lists linked and unlinked rows in rowid order', () => {
    for (let n = 1; n <= 3; n++) insertArchive(db, row(n, { unlinked: n === 2 }), [])
    expect([...listArchiveFileStamps(db)]).toEqual(
      [1, 2, 3].map((n) => ({
        id: id(n),
        path: `folder/file ${n}.cbz`,
        size: 5_000_000_000 + n,
        mtimeMs: 1_690_000_000_000 + n,
        unlinked: n === 2,
      })),
    )
  })
})

describe('the archive writers (kept statements)', () => {
  const stored = (n: number) =>
    db
      .select()
      .from(archives)
      .where(eq(archives.id, id(n)))
      .get()
  /** row() sets every column. */
  const whole = (n: number) => row(n) as ArchiveRow

  it('inserts every column as given, and answers the row as stored', () => {
    const given = whole(1)
    const answered = insertArchive(db, given, ['a.jpg', 'b.jpg'])
    expect(stored(1)).toEqual(given)
    expect(answered).toEqual(given)
    expect(readArchivePages(db, id(1))).toEqual(['a.jpg', 'b.jpg'])
  })

  it('leaves the columns it is not given to their defaults', () => {
    const answered = insertArchive(
      db,
      { id: id(2), path: 'p.cbz', filename: 'p', extension: 'cbz', title: 'P', createdAt: 5 },
      [],
    )
    expect(answered).toMatchObject({ tags: '', isnew: true, coverPage: 1, thumbhash: null })
    expect(stored(2)).toEqual(answered)
  })

  it('updates only the fields it is given, booleans and nulls included', () => {
    insertArchive(db, row(3), [])
    const patch = { isnew: true, hasPatch: false, thumbhash: null, title: 'New', progress: 0 }
    const answered = updateArchive(db, id(3), { ...patch, summary: undefined })
    expect(answered).toEqual({ ...whole(3), ...patch })
    expect(stored(3)).toEqual(answered!)
    expect(updateArchive(db, id(3), {})).toEqual(answered)
    expect(updateArchive(db, id(99), { title: 'none' })).toBeUndefined()
  })

  it('finds a row by id or path as drizzle reads it, and nothing for an unknown one', () => {
    insertArchive(db, row(5), [])
    insertArchive(
      db,
      row(6, { isnew: true, hasPatch: false, thumbhash: null, unreadable: null }),
      [],
    )
    for (const n of [5, 6]) {
      expect(findArchive(db, id(n))).toEqual(stored(n)!)
      expect(findArchiveByPath(db, `folder/file ${n}.cbz`)).toEqual(stored(n)!)
    }
    expect(findArchive(db, id(7))).toBeUndefined()
    expect(findArchiveByPath(db, 'folder/none.cbz')).toBeUndefined()
  })

  it('replaces the page list', () => {
    insertArchive(db, row(4), ['a.jpg'])
    setArchivePages(db, id(4), ['z.jpg', 'y.jpg'])
    expect(readArchivePages(db, id(4))).toEqual(['z.jpg', 'y.jpg'])
  })
})
