import { describe, expect, it } from 'bun:test'
import { readdir, truncate, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { createArchiveReader } from '../../src/archive/reader.ts'
import type { ArchiveReader } from '../../src/archive/types.ts'
import * as fx from '../helpers/fixtures.ts'
import { archiveReaderForFile, refusal } from '../helpers/reader-setup.ts'

const { dir, reader } = archiveReaderForFile('tankobun-extract-')

const cachedFolders = async (tempDir: string) =>
  (await readdir(join(tempDir, 'pages')).catch(() => [])).filter((n) => !n.includes('.tmp-'))

async function expectPages(r: ArchiveReader, path: string, options: fx.PagesOptions) {
  const expected = await fx.makePages(path, options)
  const names = expected.map((e) => e.name)
  const pages = await r.listPages(path)
  expect([...pages].sort()).toEqual([...names].sort())
  for (const { name, data } of expected)
    expect(await r.readPage(path, name)).toEqual(new Uint8Array(data))
  return pages
}

describe('libarchive formats', () => {
  it('reads a gzip-compressed tar', async () => {
    const path = await fx.makeTarGz(join(dir, 'a.cbt.gz'), { pages: 3 })
    expect(await expectPages(reader, path, { pages: 3 })).toEqual(['001.jpg', '002.jpg', '003.jpg'])
  })

  it('reads a hand-made RAR4 in natural order', async () => {
    const options = { names: ['c/p10.jpg', 'c/p2.jpg', 'c/p1.jpg'] }
    const path = await fx.makeRar4(join(dir, 'b.cbr'), options)
    expect(await expectPages(reader, path, options)).toEqual(['c/p1.jpg', 'c/p2.jpg', 'c/p10.jpg'])
  })

  it.each([true, false])('reads a 7z (solid: %p) unpacked once to disk', async (solid) => {
    const tempDir = join(dir, `tmp-7z-${solid}`)
    const own = createArchiveReader({ tempDir })
    try {
      const options = {
        pages: 4,
        entries: [{ name: 'info.txt', data: new TextEncoder().encode('x') }],
      }
      const path = await fx.make7z(join(dir, `c-${solid}.cb7`), { ...options, solid })
      await own.listPages(path)
      // One pass wrote every page: reads are served from disk, not by decoding again.
      const [folder] = await cachedFolders(tempDir)
      const files = await readdir(join(tempDir, 'pages', folder!))
      expect(files.filter((f) => f.endsWith('.jpg'))).toHaveLength(4)
      await expectPages(own, path, { pages: 4 })
    } finally {
      await own.close()
    }
  })

  it.each(['BZip2', 'LZMA'] as const)('reads a zip whose pages use %s', async (method) => {
    const path = await fx.makeZipWith7z(join(dir, `zip-${method}.cbz`), { pages: 2, method })
    expect(await expectPages(reader, path, { pages: 2 })).toEqual(['001.jpg', '002.jpg'])
  })

  it('refuses a truncated RAR', async () => {
    const path = await fx.makeCorrupt(join(dir, 'broken.cbr'), 'truncated-rar')
    const err = await refusal(reader.listPages(path))
    expect(err.code).toBe('unprocessable')
  })

  it('refuses a compressed tar with an unsafe name, writing nothing outside', async () => {
    const data = await fx.makeJpeg(8, 8)
    const path = join(dir, 'evil.tgz')
    await writeFile(path, gzipSync(fx.buildTar([{ name: '../../evil.jpg', data }])))
    const err = await refusal(reader.listPages(path))
    expect(err.message).toContain('unsafe entry name')
    expect(await readdir(dir)).not.toContain('evil.jpg')
  })

  it('refuses an encrypted 7z', async () => {
    const path = join(dir, 'secret.cb7')
    await fx.make7z(path, { pages: 1, password: 'hunter2' })
    const err = await refusal(reader.listPages(path))
    expect(err.code).toBe('unprocessable')
  })

  it('refuses a solid 7z whose pages inflate past the compression ratio, caching nothing', async () => {
    const tempDir = join(dir, 'tmp-ratio')
    const own = createArchiveReader({ tempDir })
    try {
      const zeros = { name: '001.jpg', data: new Uint8Array(9 * 1024 * 1024) }
      const path = await fx.make7z(join(dir, 'zeros.cb7'), { names: [], entries: [zeros] })
      const err = await refusal(own.listPages(path))
      expect(err.code).toBe('unprocessable')
      expect(err.message).toContain('compression ratio')
      expect(await cachedFolders(tempDir)).toHaveLength(0)
    } finally {
      await own.close()
    }
  })

  it('refuses a RAR/7z past the size cap without reading it', async () => {
    const path = join(dir, 'huge.cb7')
    await writeFile(path, new Uint8Array([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c, 0, 4]))
    await truncate(path, 1.5 * 1024 ** 3) // sparse: costs no disk
    const err = await refusal(reader.listPages(path))
    expect(err.code).toBe('unprocessable')
    expect(err.message).toContain('not supported')
  })
})

describe('extraction worker failures', () => {
  it('fails only the call whose worker died, and the next call works', async () => {
    const real = new URL('../../src/archive/extract.worker.ts', import.meta.url).pathname
    const crashing = join(dir, 'crashing.worker.ts')
    await writeFile(
      crashing,
      `import ${JSON.stringify(real)}
      declare const self: Worker
      const serve = self.onmessage!
      self.onmessage = (event: MessageEvent) => {
        const path: string = event.data.request.path
        if (path.includes('throws')) setTimeout(() => { throw new Error('boom') })
        else if (path.includes('exits')) process.exit(3)
        else return (serve as (e: MessageEvent) => unknown)(event)
      }`,
    )
    const own = createArchiveReader({ tempDir: join(dir, 'tmp-crash'), extractWorkerUrl: crashing })
    try {
      const throws = await fx.makeRar4(join(dir, 'throws.cbr'))
      const exits = await fx.makeRar4(join(dir, 'exits.cbr'))
      const fine = await fx.makeRar4(join(dir, 'fine.cbr'))
      for (const bad of [throws, exits]) {
        const err = await refusal(own.listPages(bad))
        expect(err.code).toBe('unprocessable')
        expect(err.message).toStartWith('archive extraction failed')
        expect(err.message).not.toContain('boom')
        expect(await own.listPages(fine)).toEqual(['001.jpg', '002.jpg', '003.jpg'])
        own.dropCached(fine)
      }
    } finally {
      await own.close()
    }
  })
})

describe('page cache', () => {
  it('evicts the least recently used archive and unpacks it again when needed', async () => {
    const tempDir = join(dir, 'tmp-evict')
    // Each archive holds ~0.8 KB of pages: the cache fits one, not two.
    const own = createArchiveReader({ tempDir, pageCacheBytes: 1200 })
    try {
      const a = await fx.makeRar4(join(dir, 'evict-a.cbr'))
      const b = await fx.makeRar4(join(dir, 'evict-b.cbr'))
      await own.listPages(a)
      expect(await cachedFolders(tempDir)).toHaveLength(1)
      await own.listPages(b)
      expect(await cachedFolders(tempDir)).toHaveLength(1)
      await expectPages(own, a, {})
      await expectPages(own, b, {})
    } finally {
      await own.close()
    }
  })

  it('refuses an archive whose pages alone exceed the cache bound', async () => {
    const own = createArchiveReader({ tempDir: join(dir, 'tmp-tiny'), pageCacheBytes: 500 })
    try {
      const path = await fx.makeRar4(join(dir, 'too-big.cbr'))
      const err = await refusal(own.listPages(path))
      expect(err.code).toBe('unprocessable')
      expect(err.message).toContain('exceed 500 bytes')
      expect(await cachedFolders(join(dir, 'tmp-tiny'))).toHaveLength(0)
    } finally {
      await own.close()
    }
  })

  it('clearCache empties the folder and the reader keeps serving', async () => {
    const tempDir = join(dir, 'tmp-clear')
    const own = createArchiveReader({ tempDir })
    try {
      const path = await fx.makeTarGz(join(dir, 'clear.cbt.gz'))
      await own.listPages(path)
      expect(await cachedFolders(tempDir)).toHaveLength(1)
      await own.clearCache()
      expect(await cachedFolders(tempDir)).toHaveLength(0)
      await expectPages(own, path, {})
    } finally {
      await own.close()
    }
  })

  it('forget() also removes pages extracted before a restart', async () => {
    const tempDir = join(dir, 'tmp-restart')
    const path = await fx.makeRar4(join(dir, 'restart.cbr'))
    const first = createArchiveReader({ tempDir })
    await first.listPages(path)
    await first.close()
    const second = createArchiveReader({ tempDir })
    try {
      expect(await cachedFolders(tempDir)).toHaveLength(1)
      second.dropCached(path)
      for (let i = 0; i < 50 && (await cachedFolders(tempDir)).length > 0; i++) await Bun.sleep(5)
      expect(await cachedFolders(tempDir)).toHaveLength(0)
      await expectPages(second, path, {})
    } finally {
      await second.close()
    }
  })

  it('forget() removes the extracted pages of a file', async () => {
    const tempDir = join(dir, 'tmp-forget')
    const own = createArchiveReader({ tempDir })
    try {
      const path = await fx.makeRar4(join(dir, 'forget.cbr'))
      await own.listPages(path)
      own.dropCached(path)
      await Bun.sleep(0)
      for (let i = 0; i < 50 && (await cachedFolders(tempDir)).length > 0; i++) await Bun.sleep(5)
      expect(await cachedFolders(tempDir)).toHaveLength(0)
    } finally {
      await own.close()
    }
  })
})
