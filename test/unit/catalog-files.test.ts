import { afterEach, beforeEach, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDb, type Db } from '../../src/db/client.ts'
import { insertArchive } from '../../src/db/repos/archives.repo.ts'
import { readCatalogFiles } from '../../src/domain/archives/catalog-files.ts'

let root: string
let db: Db

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'tankobun-catalog-files-'))
  db = openDb(join(root, 'db.sqlite'))
  const add = (n: number, unlinked: boolean) =>
    insertArchive(
      db,
      {
        id: String(n).repeat(40),
        path: `a/${n}.cbz`,
        filename: String(n),
        extension: 'cbz',
        title: String(n),
        size: 100 * n,
        mtimeMs: 1000 * n,
        unlinked,
        createdAt: 0,
      },
      [],
    )
  add(1, false)
  add(2, false)
  add(3, true)
})
afterEach(() => {
  db.$client.close()
  rmSync(root, { recursive: true, force: true })
})

describe('readCatalogFiles', () => {
  it('needs no read only for a shown row with the same size and mtime', () => {
    const files = readCatalogFiles(db)
    expect(files.found('a/1.cbz', 100, 1000)).toBe(true)
    expect(files.found('a/2.cbz', 200, 2001)).toBe(false) // changed mtime
    expect(files.found('a/3.cbz', 300, 3000)).toBe(false) // hidden row: read again
    expect(files.found('a/new.cbz', 1, 1)).toBe(false)
    expect(files.get('a/3.cbz')).toEqual({
      id: '3'.repeat(40),
      path: 'a/3.cbz',
      size: 300,
      mtimeMs: 3000,
      unlinked: true,
    })
    expect(files.get('a/new.cbz')).toBeUndefined()
  })

  it('lists the rows no found() named, changed or not', () => {
    const files = readCatalogFiles(db)
    files.found('a/2.cbz', 0, 0)
    expect([...files.notFound()]).toEqual([
      { id: '1'.repeat(40), path: 'a/1.cbz' },
      { id: '3'.repeat(40), path: 'a/3.cbz' },
    ])
  })
})
