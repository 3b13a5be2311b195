import { afterEach, beforeEach, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { openDb, type Db } from '../../src/db/client.ts'
import { archives } from '../../src/db/schema/archives.ts'
import {
  insertArchive,
  listArchiveFileStamps,
  listArchivesAfter,
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
