// Every archive format through HTTP, and hostile or broken files next to them: the readable ones
// are listed and served page by page, the others are reported with a reason and never served.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { readdir } from 'node:fs/promises'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import * as fx from '../helpers/fixtures.ts'

type Made = {
  options: fx.PagesOptions
  make: (path: string, options: fx.PagesOptions) => Promise<string>
}

/** File name -> how it was made; readable ones are served, page for page. */
const READABLE: Record<string, Made> = {
  'Stored.cbz': { options: { pages: 3 }, make: (p, o) => fx.makeCbz(p, o) },
  'Deflated.zip': {
    options: { pages: 2 },
    make: (p, o) => fx.makeCbz(p, { ...o, compression: 'deflate' }),
  },
  'Plain.cbt': {
    options: { names: ['b/2.jpg', 'b/10.jpg', 'a/1.jpg'] },
    make: (p, o) => fx.makeTar(p, o),
  },
  'Gzipped.tar.gz': { options: { pages: 2 }, make: (p, o) => fx.makeTarGz(p, o) },
  'Solid.cb7': { options: { pages: 3 }, make: (p, o) => fx.make7z(p, o) },
  'Loose.7z': {
    options: { pages: 2 },
    make: (p, o) => fx.make7z(p, { ...o, solid: false }),
  },
  'Stored.cbr': {
    options: { names: ['x/p1.jpg', 'x/p2.jpg'] },
    make: (p, o) => fx.makeRar4(p, o),
  },
  'Bzip2.cbz': {
    options: { pages: 2 },
    make: (p, o) => fx.makeZipWith7z(p, { ...o, method: 'BZip2' }),
  },
}

/** File name -> a word the logged reason must contain. */
const REFUSED: Record<string, string> = {
  'Encrypted.cbz': 'encrypted',
  'Encrypted.cb7': 'encrypted',
  'Traversal.cbz': 'unsafe entry name',
  'Traversal.cbr': 'unsafe entry name',
  'Ratio bomb.cbz': 'compression ratio',
  'Declared bomb.cbz': 'exceeds',
  'Solid bomb.cb7': 'compression ratio',
  'Truncated.cbz': 'zip',
  'Truncated.cbr': 'corrupt',
  'Truncated.cbt': 'tar',
  'Garbage.cbz': 'signature',
}

let app: TestServer
let cookie: string
let byFile: Record<string, Wire>
let scan: Wire

async function json(res: Response): Promise<Wire> {
  return (await res.json()) as Wire
}

beforeAll(async () => {
  app = await startTestServer({
    beforeStart: async (content) => {
      for (const [name, { options, make }] of Object.entries(READABLE))
        await make(join(content, name), options)
      await fx.makeZipBomb(join(content, 'Lying bomb.cbz'), 'lying')
      await fx.makeEncryptedZip(join(content, 'Encrypted.cbz'))
      await fx.make7z(join(content, 'Encrypted.cb7'), { pages: 1, password: 'secret' })
      await fx.makeTraversalZip(join(content, 'Traversal.cbz'))
      await fx.makeRar4(join(content, 'Traversal.cbr'), { names: ['001.jpg', '../../escaped.jpg'] })
      await fx.makeZipBomb(join(content, 'Ratio bomb.cbz'), 'ratio')
      await fx.makeZipBomb(join(content, 'Declared bomb.cbz'), 'declared')
      // 9 MiB of zeros in a solid 7z: a ratio near 6000:1, with no per-entry packed size to check.
      const zeros = { name: '001.jpg', data: new Uint8Array(9 * 1024 * 1024) }
      await fx.make7z(join(content, 'Solid bomb.cb7'), { entries: [zeros], names: [] })
      await fx.makeCorrupt(join(content, 'Truncated.cbz'), 'truncated-zip')
      await fx.makeCorrupt(join(content, 'Truncated.cbr'), 'truncated-rar')
      await fx.makeCorrupt(join(content, 'Truncated.cbt'), 'truncated-tar')
      await fx.makeCorrupt(join(content, 'Garbage.cbz'), 'garbage')
    },
  })
  await app.idle()
  cookie = await app.login()
  const list = (await json(await app.req('/api/archives', { cookie }))) as unknown as Wire[]
  byFile = Object.fromEntries(list.map((a) => [`${a.filename}.${a.extension}`, a]))
  const jobs = (await json(await app.req('/api/jobs', { cookie }))).jobs as Wire[]
  scan = jobs.find((j) => j.name === 'rescan')!.result
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

describe('archive formats over HTTP', () => {
  it('catalogues every readable format with its page count and extension', () => {
    for (const [name, { options }] of Object.entries(READABLE)) {
      const pages = options.names?.length ?? options.pages!
      expect(byFile[name]).toMatchObject({ pagecount: pages, isnew: 'true' })
    }
    expect(byFile['Gzipped.tar.gz']!.extension).toBe('tar.gz')
    expect(byFile['Solid.cb7']!.extension).toBe('cb7')
  })

  it.each(Object.keys(READABLE))('serves every page of %s byte for byte', async (name) => {
    const { options } = READABLE[name]!
    const id = byFile[name]!.arcid
    const files = await json(await app.req(`/api/archives/${id}/files`, { cookie }))
    // Every format gets a job id (LANraragi clients poll it); for ZIP and TAR it only opens.
    expect(files.job).toEqual(expect.any(Number))
    const done = await app.deps.jobs.waitFor(files.job)
    expect(done.state).toBe('finished')
    const expected = await fx.makePages(join(app.contentDir, name), options)
    const natural = [...expected].sort((a, b) =>
      a.name.localeCompare(b.name, undefined, { numeric: true }),
    )
    expect(files.pages).toHaveLength(expected.length)
    for (const [i, url] of (files.pages as string[]).entries()) {
      expect(url).toStartWith(`/api/archives/${id}/page?path=`)
      const res = await app.req(url, { cookie })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('image/jpeg')
      expect(res.headers.get('etag')).toMatch(/^"[^"]+"$/)
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(new Uint8Array(natural[i]!.data))
    }
  })

  it('measures pages of an extracted format in the worker pool', async () => {
    const id = byFile['Solid.cb7']!.arcid
    const res = await json(await app.req(`/api/archives/${id}/page-dimensions`, { cookie }))
    expect(res).toMatchObject({ operation: 'page_dimensions', success: 1 })
    expect(res.dimensions).toEqual(
      [1, 2, 3].map((page) => ({ page, path: `00${page}.jpg`, width: 16, height: 24 })),
    )
  })
})

describe('hostile and broken files', () => {
  it('reports each one with its reason in the rescan result and catalogues none of them', () => {
    const reasons = Object.fromEntries(
      (scan.unreadable as Wire[]).map((u) => [u.path, u.reason as string]),
    )
    for (const [name, word] of Object.entries(REFUSED)) {
      expect(byFile[name]).toBeUndefined()
      expect(reasons[name]).toContain(word)
    }
  })

  it('answers 400 Env for a page that inflates past its declared size, and keeps serving', async () => {
    const id = byFile['Lying bomb.cbz']!.arcid
    const page = await app.req(`/api/archives/${id}/page?path=page.jpg`, { cookie })
    // The spec gives page reads 200/400; 422 is for uploads.
    expect(page.status).toBe(400)
    expect(await json(page)).toMatchObject({
      operation: 'serve_page',
      success: 0,
      error: expect.stringMatching(
        /^Reading the page failed: (corrupt zip|entry inflates past its declared size)\.$/,
      ),
    })
    const info = await app.req('/api/info')
    expect(info.status).toBe(200)
  })

  it('fails the job of a thumbnail that cannot be made, so a polling client stops', async () => {
    const id = byFile['Lying bomb.cbz']!.arcid
    const res = await app.req(`/api/archives/${id}/thumbnail?no_fallback=true`, { cookie })
    expect(res.status).toBe(202)
    const { job } = await json(res)
    await app.deps.jobs.waitFor(job)
    const status = await json(await app.req(`/api/minion/${job}`, { cookie }))
    expect(status).toMatchObject({ state: 'failed', task: 'thumbnails', error: expect.any(String) })
    const fallback = await app.req(`/api/archives/${id}/thumbnail`, { cookie })
    expect(fallback.status).toBe(200)
    expect(fallback.headers.get('content-type')).toBe('image/png')
  })

  it('refuses hostile uploads with 422, leaving nothing behind', async () => {
    const before = (await readdir(app.contentDir)).sort()
    for (const [name, status] of [
      ['Encrypted.cbz', 422],
      ['Traversal.cbr', 422],
      ['Ratio bomb.cbz', 422],
      ['Solid bomb.cb7', 422],
      ['Truncated.cbt', 422],
      ['Garbage.cbz', 422],
    ] as const) {
      const form = new FormData()
      form.set(
        'file',
        new File([await Bun.file(join(app.contentDir, name)).bytes()], `Upload ${name}`),
      )
      const res = await app.req('/api/archives/upload', { method: 'PUT', body: form, cookie })
      expect(res.status).toBe(status)
      expect(await json(res)).toMatchObject({
        operation: 'upload',
        success: 0,
        error: expect.any(String),
      })
    }
    expect((await readdir(app.contentDir)).sort()).toEqual(before)
  })
})
