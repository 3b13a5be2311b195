// bzip2- and xz-compressed tars: Node cannot write them, so the fixtures come from the system
// `tar` with bzip2/xz (installed by .ci/run), then go through the real reader.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createArchiveReader } from '../../src/archive/reader.ts'
import type { ArchiveReader } from '../../src/archive/types.ts'
import { makeJpeg } from '../helpers/fixtures.ts'

let dir: string
let reader: ArchiveReader
const pages: Record<string, Uint8Array> = {}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tankobun-ctar-'))
  reader = createArchiveReader({ tempDir: join(dir, 'tmp') })
  await mkdir(join(dir, 'src', 'chapter'), { recursive: true })
  for (const [i, name] of ['chapter/p10.jpg', 'chapter/p2.jpg', 'chapter/p1.jpg'].entries()) {
    pages[name] = await makeJpeg(16, 24, i + 40)
    await writeFile(join(dir, 'src', name), pages[name]!)
  }
})

afterAll(async () => {
  await reader.close()
  await rm(dir, { recursive: true, force: true })
})

describe.each([
  ['tar.bz2', '-cjf'],
  ['tar.xz', '-cJf'],
])('%s', (extension, flag) => {
  it('lists pages in natural order and reads them back byte for byte', async () => {
    const path = join(dir, `book.${extension}`)
    const tar = Bun.spawnSync(['tar', flag, path, '-C', join(dir, 'src'), 'chapter'])
    expect(tar.exitCode).toBe(0)
    expect(await reader.listPages(path)).toEqual([
      'chapter/p1.jpg',
      'chapter/p2.jpg',
      'chapter/p10.jpg',
    ])
    for (const [name, bytes] of Object.entries(pages))
      expect(new Uint8Array(await reader.readPage(path, name))).toEqual(new Uint8Array(bytes))
  })
})
