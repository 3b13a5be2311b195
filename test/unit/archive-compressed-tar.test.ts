// bzip2- and xz-compressed tars: Node cannot write them, so the fixtures are built by buildTar()
// and compressed by the 7za binary of the 7zip-bin devDependency, then go through the real reader.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createArchiveReader } from '../../src/archive/reader.ts'
import type { ArchiveReader } from '../../src/archive/types.ts'
import { type Entry, makeJpeg, makeTarBz2, makeTarXz } from '../helpers/fixtures.ts'

let dir: string
let reader: ArchiveReader
const entries: Entry[] = []

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tankobun-ctar-'))
  reader = createArchiveReader({ tempDir: join(dir, 'tmp') })
  for (const [i, name] of ['chapter/p10.jpg', 'chapter/p2.jpg', 'chapter/p1.jpg'].entries())
    entries.push({ name, data: await makeJpeg(16, 24, i + 40) })
})

afterAll(async () => {
  await reader.close()
  await rm(dir, { recursive: true, force: true })
})

describe.each([
  ['tar.bz2', makeTarBz2],
  ['tar.xz', makeTarXz],
])('%s', (extension, make) => {
  it('lists pages in natural order and reads them back byte for byte', async () => {
    // No generated pages: only the entries above, so their bytes are known.
    const path = await make(join(dir, `book.${extension}`), { names: [], entries })
    expect(await reader.listPages(path)).toEqual([
      'chapter/p1.jpg',
      'chapter/p2.jpg',
      'chapter/p10.jpg',
    ])
    for (const { name, data } of entries)
      expect(new Uint8Array(await reader.readPage(path, name))).toEqual(new Uint8Array(data))
  })
})
