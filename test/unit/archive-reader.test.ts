import { describe, expect, it } from 'bun:test'
import { utimes } from 'node:fs/promises'
import { join } from 'node:path'
import { createArchiveReader } from '../../src/archive/reader.ts'
import * as fx from '../helpers/fixtures.ts'
import { archiveReaderForFile, refusal } from '../helpers/reader-setup.ts'

const { dir, reader } = archiveReaderForFile('tankobun-reader-')

const bytesOf = async (path: string, options: fx.PagesOptions = {}) =>
  new Map((await fx.makePages(path, options)).map((e) => [e.name, new Uint8Array(e.data)]))

describe('ZIP', () => {
  it.each(['store', 'deflate'] as const)('lists and reads %s pages', async (compression) => {
    const path = await fx.makeCbz(join(dir, `z-${compression}.cbz`), { pages: 3, compression })
    const pages = await reader.listPages(path)
    expect(pages).toEqual(['001.jpg', '002.jpg', '003.jpg'])
    const expected = await bytesOf(path, { pages: 3 })
    for (const page of pages) expect(await reader.readPage(path, page)).toEqual(expected.get(page)!)
  })

  it('orders pages naturally and ignores other entries', async () => {
    const path = await fx.makeCbz(join(dir, 'order.cbz'), {
      names: ['ch2/p1.jpg', 'ch1/p10.jpg', 'ch1/p9.png', 'ch1/p1.jpg'],
      entries: [
        { name: 'ComicInfo.xml', data: new TextEncoder().encode('<ComicInfo/>') },
        { name: '__MACOSX/ch1/._p1.jpg', data: new Uint8Array(4) },
        { name: 'ch1/.thumb.jpg', data: new Uint8Array(4) },
        { name: 'ch3/', data: new Uint8Array() },
      ],
    })
    const pages = await reader.listPages(path)
    expect(pages).toEqual(['ch1/p1.jpg', 'ch1/p9.png', 'ch1/p10.jpg', 'ch2/p1.jpg'])
  })

  it('lists an empty zip as no pages', async () => {
    const path = await fx.makeCbz(join(dir, 'empty.cbz'), { pages: 0 })
    expect(await reader.listPages(path)).toEqual([])
  })

  it('refuses an archive with a traversal entry', async () => {
    const path = await fx.makeTraversalZip(join(dir, 'traversal.cbz'), '../x.jpg')
    const err = await refusal(reader.listPages(path))
    expect(err.code).toBe('unprocessable')
    expect(err.message).toContain('unsafe entry name')
  })

  const unsafeNames = ['/abs.jpg', 'C:\\win.jpg', 'a\\..\\..\\x.jpg']
  it.each(unsafeNames)('refuses entry name %j', async (name) => {
    const path = await fx.makeTraversalZip(join(dir, `unsafe-${Bun.hash(name)}.cbz`), name)
    expect((await refusal(reader.listPages(path))).message).toContain('unsafe entry name')
  })

  it.each([
    ['ratio', 'compression ratio'],
    ['declared', 'exceeds'],
  ] as const)('refuses a %s zip bomb when listing', async (mode, reason) => {
    const path = await fx.makeZipBomb(join(dir, `bomb-${mode}.cbz`), mode)
    const err = await refusal(reader.listPages(path))
    expect(err.code).toBe('unprocessable')
    expect(err.message).toContain(reason)
  })

  it('stops inflating an entry that lies about its size', async () => {
    const path = await fx.makeZipBomb(join(dir, 'bomb-lying.cbz'), 'lying')
    expect(await reader.listPages(path)).toEqual(['page.jpg'])
    const err = await refusal(reader.readPage(path, 'page.jpg'))
    expect(err.code).toBe('unprocessable')
  })

  it('refuses encrypted entries', async () => {
    const path = await fx.makeEncryptedZip(join(dir, 'encrypted.cbz'))
    const err = await refusal(reader.listPages(path))
    expect(err.code).toBe('unprocessable')
    expect(err.message).toContain('encrypted')
  })
})

describe('TAR', () => {
  it.each(['gnu', 'pax'] as const)('reads pages with %s long names', async (longNames) => {
    const long = `${'chapter-'.repeat(15)}/p2.jpg`
    const options = { names: [long, 'p10.jpg', 'p1.jpg'], longNames }
    const path = await fx.makeTar(join(dir, `t-${longNames}.cbt`), options)
    const pages = await reader.listPages(path)
    expect(pages).toEqual([long, 'p1.jpg', 'p10.jpg'])
    const expected = await bytesOf(path, options)
    for (const page of pages) expect(await reader.readPage(path, page)).toEqual(expected.get(page)!)
  })
})

describe('corrupt and foreign files', () => {
  it.each(['garbage', 'truncated-zip', 'truncated-tar'] as const)('refuses %s', async (kind) => {
    const path = await fx.makeCorrupt(join(dir, `corrupt-${kind}.cbz`), kind)
    const err = await refusal(reader.listPages(path))
    expect(err.code).toBe('unprocessable')
    expect(err.message.length).toBeGreaterThan(0)
  })

  it('answers not_found for a missing file', async () => {
    expect((await refusal(reader.listPages(join(dir, 'nope.cbz')))).code).toBe('not_found')
  })
})

describe('readPage', () => {
  it.each(['../x.jpg', '/etc/passwd', 'a\0.jpg', 'ComicInfo.xml', '001.JPG', ''])(
    'answers bad_request for %j',
    async (name) => {
      const path = await fx.makeCbz(join(dir, 'pages-only.cbz'), {
        entries: [{ name: 'ComicInfo.xml', data: new Uint8Array(3) }],
      })
      const err = await refusal(reader.readPage(path, name))
      expect(err.code).toBe('bad_request')
      expect(err.message).toContain('is not a page of this archive')
    },
  )

  it('serves many concurrent reads of one archive', async () => {
    const path = await fx.makeCbz(join(dir, 'concurrent.cbz'), { pages: 8, compression: 'deflate' })
    const pages = await reader.listPages(path)
    const expected = await bytesOf(path, { pages: 8 })
    const reads = await Promise.all([...pages, ...pages].map((p) => reader.readPage(path, p)))
    reads.forEach((bytes, i) => expect(bytes).toEqual(expected.get(pages[i % 8]!)!))
  })
})

describe('caching', () => {
  it('notices a rewritten file by its size and mtime', async () => {
    const path = join(dir, 'changing.cbz')
    await fx.makeCbz(path, { pages: 2 })
    expect(await reader.listPages(path)).toHaveLength(2)
    await fx.makeCbz(path, { pages: 5 })
    await utimes(path, new Date(), new Date(Date.now() + 5000))
    expect(await reader.listPages(path)).toHaveLength(5)
  })

  it('keeps working past the open-handle bound', async () => {
    const small = createArchiveReader({ tempDir: join(dir, 'tmp-small'), maxOpen: 2 })
    try {
      const paths = await Promise.all(
        [1, 2, 3, 4].map((n) => fx.makeCbz(join(dir, `lru-${n}.cbz`), { pages: n })),
      )
      for (const path of [...paths, ...paths]) {
        const pages = await small.listPages(path)
        expect(await small.readPage(path, pages.at(-1)!)).toBeInstanceOf(Uint8Array)
      }
      expect(await small.listPages(paths[0]!)).toHaveLength(1)
    } finally {
      await small.close()
    }
  })

  it('re-reads a file after forget()', async () => {
    const path = await fx.makeCbz(join(dir, 'forget.cbz'), { pages: 2 })
    expect(await reader.listPages(path)).toHaveLength(2)
    reader.dropCached(path)
    expect(await reader.listPages(path)).toHaveLength(2)
  })
})

describe('readEntry', () => {
  const xml = new TextEncoder().encode('<ComicInfo><Title>T</Title></ComicInfo>')
  const extras = [
    { name: 'ComicInfo.xml', data: xml },
    { name: 'meta/info.txt', data: new TextEncoder().encode('x'.repeat(2000)) },
  ]

  it.each(['store', 'deflate'] as const)(
    'reads a non-page entry of a %s zip',
    async (compression) => {
      const path = await fx.makeCbz(join(dir, `entry-${compression}.cbz`), {
        entries: extras,
        compression,
      })
      expect(await reader.readEntry(path, 'ComicInfo.xml', 1024)).toEqual(xml)
      expect((await reader.readEntry(path, 'meta\\info.txt', 4096))?.length).toBe(2000)
      const page = await reader.readEntry(path, '001.jpg', 1 << 20)
      expect(page).toEqual(await reader.readPage(path, '001.jpg'))
    },
  )

  it('reads a non-page entry of a tar', async () => {
    const path = await fx.makeTar(join(dir, 'entry.cbt'), { entries: extras })
    expect(await reader.readEntry(path, 'ComicInfo.xml', 1024)).toEqual(xml)
    expect(await reader.readEntry(path, 'meta', 1024)).toBeNull()
  })

  it('answers null for a missing entry and a folder', async () => {
    const path = await fx.makeCbz(join(dir, 'entry-missing.cbz'), {
      entries: [{ name: 'ch1/', data: new Uint8Array() }],
    })
    expect(await reader.readEntry(path, 'ComicInfo.xml', 1024)).toBeNull()
    expect(await reader.readEntry(path, 'comicinfo.XML', 1024)).toBeNull()
    expect(await reader.readEntry(path, 'ch1', 1024)).toBeNull()
  })

  it('refuses an entry larger than the cap, before reading it', async () => {
    const path = await fx.makeCbz(join(dir, 'entry-big.cbz'), {
      entries: extras,
      compression: 'deflate',
    })
    const err = await refusal(reader.readEntry(path, 'meta/info.txt', 1000))
    expect(err.code).toBe('unprocessable')
    expect(err.message).toContain('larger than 1000 bytes')
  })

  it.each(['../ComicInfo.xml', '/etc/passwd', 'C:\\x.xml', 'a\0.xml', '', 'ch1/'])(
    'answers bad_request for %j',
    async (name) => {
      const path = await fx.makeCbz(join(dir, 'entry-guard.cbz'), { entries: extras })
      const err = await refusal(reader.readEntry(path, name, 1024))
      expect(err.code).toBe('bad_request')
      expect(err.message).toContain('unsafe entry name')
    },
  )

  it('answers pages only for an extracted (RAR) archive', async () => {
    const path = await fx.makeRar4(join(dir, 'entry.cbr'), { entries: extras })
    expect(await reader.readEntry(path, 'ComicInfo.xml', 1024)).toBeNull()
    expect(await reader.readEntry(path, '001.jpg', 1 << 20)).toEqual(
      await reader.readPage(path, '001.jpg'),
    )
  })
})
