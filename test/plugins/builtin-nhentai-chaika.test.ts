// The nHentai and Chaika built-ins (plugins/metadata/nhentai.ts, plugins/metadata/chaika.ts)
// against a fake site on 127.0.0.1 answering the shapes of nHentai's gallery and search API and
// Chaika's archive API and JSON search: through the sandbox alone, and through the server with
// copies of the plugins whose hosts name 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createSandboxHost, type PluginCtx } from '../../src/plugins/host.ts'
import { seedArchive } from '../helpers/seed.ts'
import { startTestServer, type TestServer } from '../helpers/server.ts'

const root = join(import.meta.dir, '../..')
const source = (path: string) => Bun.file(join(root, 'plugins', `${path}.ts`)).text()

const NH_GALLERY = {
  id: 177013,
  media_id: '987654',
  title: {
    english: '[Circle (Artist)] Tom and Jerry [English]',
    japanese: '[サークル (作家)] トムとジェリー',
    pretty: 'Tom and Jerry',
  },
  images: { pages: [], cover: { t: 'j', w: 350, h: 500 }, thumbnail: { t: 'j', w: 250, h: 350 } },
  scanlator: '',
  upload_date: 1600000000,
  tags: [
    { id: 1, type: 'artist', name: 'artist', url: '/artist/artist/', count: 10 },
    { id: 2, type: 'group', name: 'circle', url: '/group/circle/', count: 5 },
    { id: 3, type: 'parody', name: 'tom and jerry', url: '/parody/tom-and-jerry/', count: 3 },
    { id: 4, type: 'character', name: 'tom', url: '/character/tom/', count: 3 },
    { id: 5, type: 'language', name: 'english', url: '/language/english/', count: 99 },
    { id: 6, type: 'category', name: 'doujinshi', url: '/category/doujinshi/', count: 99 },
    { id: 7, type: 'tag', name: 'full color', url: '/tag/full-color/', count: 50 },
    { id: 8, type: 'tag', name: 'cat, girl', url: '/tag/cat-girl/', count: 50 },
  ],
  num_pages: 24,
  num_favorites: 100,
}

const CHAIKA_ARCHIVE = {
  id: 4242,
  title: '(C99) [Circle (Artist)] Tom and Jerry [English]',
  title_jpn: '(C99) [サークル (作家)] トムとジェリー',
  category: 'Doujinshi',
  tags: ['artist:some_artist', 'female:cat_girl', 'language:english', 'none:full_color'],
  filecount: 24,
  filesize: 12345678,
  posted: 1600000000,
  gallery: 1234,
}

type Seen = { path: string; query: string }
const seen: Seen[] = []
let site: ReturnType<typeof Bun.serve>
let base: string

beforeAll(() => {
  site = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(req) {
      const url = new URL(req.url)
      seen.push({ path: url.pathname, query: url.search })
      if (url.pathname === `/api/gallery/${NH_GALLERY.id}`) return Response.json(NH_GALLERY)
      if (url.pathname.startsWith('/api/gallery/'))
        return Response.json({ error: 'does not exist' }, { status: 404 })
      if (url.pathname === '/api/galleries/search') {
        const query = url.searchParams.get('query') ?? ''
        return Response.json({
          result: query.includes('Tom') ? [NH_GALLERY] : [],
          num_pages: 1,
          per_page: 25,
        })
      }
      if (url.pathname === '/api') {
        if (url.searchParams.get('archive') === String(CHAIKA_ARCHIVE.id))
          return Response.json(CHAIKA_ARCHIVE)
        return Response.json({ result: 'Archive does not exist.' }, { status: 404 })
      }
      if (url.pathname === '/jsearch') {
        const title = url.searchParams.get('title') ?? ''
        return Response.json(title.includes('Tom') ? [CHAIKA_ARCHIVE] : [])
      }
      return new Response('not found', { status: 404 })
    },
  })
  base = `http://127.0.0.1:${site.port}`
})

afterAll(() => site.stop(true))

describe('nhentai and chaika in the sandbox', () => {
  // The run's fetches go straight to the fake site; the server's rules are tested below.
  const host = createSandboxHost({
    async fetch(url, init) {
      const res = await fetch(url, { method: init.method, headers: init.headers, body: init.body })
      return { status: res.status, headers: res.headers, url: res.url, body: await res.bytes() }
    },
  })
  afterAll(() => host.close())

  async function run(
    plugin: string,
    title: string,
    oneshot: string | null,
    args: Record<string, unknown> = {},
  ) {
    const ctx: PluginCtx = {
      archive: {
        arcid: 'a'.repeat(40),
        title,
        tags: '',
        summary: '',
        filename: 'x.cbz',
        pagecount: 3,
      },
      args: { site_url: base, ...args },
      oneshot,
    }
    const out = await host.run({ source: await source(plugin), entry: 'execMetadata', ctx })
    return out.result as { tags?: string; title?: string; error?: string }
  }

  it('nhentai: looks the gallery up by URL or id, with namespaced tags and source', async () => {
    seen.length = 0
    const result = await run('metadata/nhentai', 'x', 'https://nhentai.net/g/177013/')
    expect(seen.map((s) => s.path)).toEqual(['/api/gallery/177013'])
    expect(result.tags!.split(', ')).toEqual([
      'artist:artist',
      'group:circle',
      'parody:tom and jerry',
      'character:tom',
      'language:english',
      'category:doujinshi',
      'full color',
      'cat  girl',
      'source:https://nhentai.net/g/177013/',
    ])
    expect(result.title).toBeUndefined()
    expect((await run('metadata/nhentai', 'x', '177013')).tags).toContain('group:circle')
  })

  it('nhentai: finds the gallery by title through the search API, with its titles', async () => {
    seen.length = 0
    const english = await run('metadata/nhentai', 'Tom and Jerry', null, { savetitle: true })
    expect(seen.map((s) => s.path)).toEqual(['/api/galleries/search'])
    expect(new URLSearchParams(seen[0]!.query).get('query')).toBe('"Tom and Jerry"')
    expect(english.title).toBe(NH_GALLERY.title.english)
    const japanese = await run('metadata/nhentai', 'Tom', null, { savetitle: true, jpntitle: true })
    expect(japanese.title).toBe(NH_GALLERY.title.japanese)
  })

  it('nhentai: answers an error for no result, an unknown gallery or a bad argument', async () => {
    expect((await run('metadata/nhentai', 'Nothing', null)).error).toBe(
      'No nHentai gallery found for "Nothing"',
    )
    expect((await run('metadata/nhentai', 'x', '1')).error).toContain('404')
    expect((await run('metadata/nhentai', 'x', 'https://example.com/')).error).toContain(
      'Not an nHentai gallery',
    )
  })

  it('chaika: reads the archive API by URL or id, underscores as spaces', async () => {
    seen.length = 0
    const result = await run('metadata/chaika', 'x', 'https://panda.chaika.moe/archive/4242/', {
      savetitle: true,
    })
    expect(seen).toEqual([{ path: '/api', query: '?archive=4242' }])
    expect(result.tags!.split(', ')).toEqual([
      'artist:some artist',
      'female:cat girl',
      'language:english',
      'full color',
      'category:doujinshi',
      'source:https://panda.chaika.moe/archive/4242/',
    ])
    expect(result.title).toBe(CHAIKA_ARCHIVE.title)
    expect((await run('metadata/chaika', 'x', '4242')).title).toBeUndefined()
  })

  it('chaika: finds the archive by title through the JSON search, else an error', async () => {
    seen.length = 0
    const result = await run('metadata/chaika', 'Tom and Jerry', null)
    expect(seen[0]!.path).toBe('/jsearch')
    expect(new URLSearchParams(seen[0]!.query).get('title')).toBe('Tom and Jerry')
    expect(result.tags).toContain('source:https://panda.chaika.moe/archive/4242/')
    expect((await run('metadata/chaika', 'Nothing', null)).error).toBe(
      'No Chaika archive found for "Nothing"',
    )
    expect((await run('metadata/chaika', 'x', '999')).error).toContain('404')
  })
})

describe('nhentai and chaika through the server', () => {
  let app: TestServer
  let cookie: string

  beforeAll(async () => {
    // Copies of the built-ins that may reach the fake site: 127.0.0.1 added to their hosts.
    const nhentai = (await source('metadata/nhentai')).replace(
      "hosts: ['nhentai.net']",
      "hosts: ['127.0.0.1', 'nhentai.net']",
    )
    const chaika = (await source('metadata/chaika')).replace(
      "hosts: ['panda.chaika.moe']",
      "hosts: ['127.0.0.1', 'panda.chaika.moe']",
    )
    expect(nhentai).toContain("'127.0.0.1'")
    expect(chaika).toContain("'127.0.0.1'")
    app = await startTestServer({
      config: { fetchAllowPrivate: ['127.0.0.1'] },
      beforeStart(contentDir) {
        const custom = join(contentDir, '..', 'data', 'plugins', 'custom', 'metadata')
        mkdirSync(custom, { recursive: true })
        writeFileSync(join(custom, 'nhentai.ts'), nhentai)
        writeFileSync(join(custom, 'chaika.ts'), chaika)
      },
    })
    // Seeded rows have no file: the first scan must be over, or it hides them as vanished.
    await app.idle()
    cookie = await app.login()
  })

  afterAll(() => app?.[Symbol.asyncDispose]())

  const put = (namespace: string, customargs: unknown[]) =>
    app.json(`/api/plugins/settings?namespace=${namespace}`, {
      method: 'PUT',
      cookie,
      json: { customargs },
    })
  const use = (plugin: string, id: string, arg = '') =>
    app.json(`/api/plugins/use?plugin=${plugin}&id=${id}&arg=${encodeURIComponent(arg)}`, {
      method: 'POST',
      cookie,
    })

  it('lists the built-ins', async () => {
    const { body } = await app.json('/api/plugins/metadata', { cookie })
    const namespaces = (body as { namespace: string }[]).map((p) => p.namespace)
    expect(namespaces).toContain('metadata/nhentai')
    expect(namespaces).toContain('metadata/chaika')
  })

  it('runs nhentai by title and chaika by id against the fake site', async () => {
    // savetitle, jpntitle, site_url
    expect((await put('custom/metadata/nhentai', [true, false, base])).status).toBe(200)
    // savetitle, site_url
    expect((await put('custom/metadata/chaika', [false, base])).status).toBe(200)
    const row = seedArchive(app.deps, { title: 'Tom and Jerry' })

    const nh = await use('custom/metadata/nhentai', row.id)
    expect(nh.status).toBe(200)
    expect(nh.body.data.new_tags).toContain('parody:tom and jerry')
    expect(nh.body.data.title).toBe(NH_GALLERY.title.english)

    const ch = await use('custom/metadata/chaika', row.id, '4242')
    expect(ch.status).toBe(200)
    expect(ch.body.data.new_tags).toContain('artist:some artist')
  })

  it('the unmodified built-in cannot reach the fake site', async () => {
    expect((await put('metadata/nhentai', [false, false, base])).status).toBe(200)
    const row = seedArchive(app.deps, { title: 'Tom and Jerry' })
    const { status, body } = await use('metadata/nhentai', row.id)
    expect(status).toBe(200)
    expect(body.success).toBe(0)
    expect(JSON.stringify(body)).toContain('host')
  })
})
