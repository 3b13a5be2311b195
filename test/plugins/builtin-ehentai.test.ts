// The E-Hentai built-ins (plugins/metadata/ehentai.ts, plugins/login/ehentai.ts) against a fake
// site on 127.0.0.1 that answers the shapes of E-Hentai's search page and gallery API: through
// the sandbox alone, and through the server with the login plugin's cookies on the fetches.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'

import { join } from 'node:path'
import { createSandboxHost, type PluginCtx } from '../../src/plugins/host.ts'
import { seedArchive } from '../helpers/seed.ts'
import { startTestServer, type TestServer } from '../helpers/server.ts'
import { sideload } from '../helpers/plugins.ts'

const root = join(import.meta.dir, '../..')
const source = (path: string) => Bun.file(join(root, 'plugins', `${path}.ts`)).text()

const GID = 1234567
const TOKEN = 'abcdef0123'
const GALLERY = {
  gid: GID,
  token: TOKEN,
  archiver_key: 'x',
  title: '(C99) [Circle (Artist)] Tom &amp; Jerry [English]',
  title_jpn: '(C99) [サークル (作家)] トムとジェリー [英訳]',
  category: 'Doujinshi',
  thumb: 'https://ehgt.org/t/00/00/thumb.jpg',
  uploader: 'someone',
  posted: '1600000000',
  filecount: '24',
  filesize: 12345678,
  expunged: false,
  rating: '4.52',
  torrentcount: '0',
  tags: [
    'language:english',
    'parody:tom and jerry',
    'artist:artist',
    'female:cat, girl',
    'other:full color',
  ],
}

/** Search results: one gallery link per row, as the site's table of results. */
const searchPage = (links: string[]) =>
  `<!DOCTYPE html><html><body><table class="itg gltc">${links
    .map(
      (href) =>
        `<tr><td class="gl3c glname"><a href="${href}"><div class="glink">x</div></a></td></tr>`,
    )
    .join('')}</table></body></html>`

type Seen = { path: string; search: string | null; body: unknown; cookie: string | null }
const seen: Seen[] = []
let site: ReturnType<typeof Bun.serve>
let base: string

beforeAll(() => {
  site = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const url = new URL(req.url)
      const body = req.method === 'POST' ? await req.json() : null
      seen.push({
        path: url.pathname,
        search: url.searchParams.get('f_search'),
        body,
        cookie: req.headers.get('cookie'),
      })
      if (url.pathname === '/api.php') {
        const [[gid, token]] = (body as { gidlist: [[number, string]] }).gidlist
        if (gid !== GID || token !== TOKEN)
          return Response.json({
            gmetadata: [{ gid, error: 'Key missing, or incorrect key provided.' }],
          })
        return Response.json({ gmetadata: [GALLERY] })
      }
      if (url.pathname === '/') {
        const query = url.searchParams.get('f_search') ?? ''
        const links = query.includes('Tom')
          ? [`https://e-hentai.org/g/${GID}/${TOKEN}/`, 'https://e-hentai.org/g/1/ffff/']
          : []
        return new Response(searchPage(links), { headers: { 'content-type': 'text/html' } })
      }
      return new Response('not found', { status: 404 })
    },
  })
  base = `http://127.0.0.1:${site.port}`
})

afterAll(() => site.stop(true))

describe('metadata/ehentai in the sandbox', () => {
  // The run's fetches go straight to the fake site; the server's rules are tested below.
  const host = createSandboxHost({
    async fetch(url, init) {
      const res = await fetch(url, {
        method: init.method,
        headers: init.headers,
        body: init.body,
      })
      return { status: res.status, headers: res.headers, url: res.url, body: await res.bytes() }
    },
  })
  afterAll(() => host.close())

  async function run(title: string, oneshot: string | null, args: Record<string, unknown> = {}) {
    const ctx: PluginCtx = {
      archive: {
        arcid: 'a'.repeat(40),
        title,
        tags: '',
        summary: '',
        filename: 'x.cbz',
        pagecount: 3,
      },
      args: { site_url: base, api_url: `${base}/api.php`, ...args },
      oneshot,
    }
    const out = await host.run({
      source: await source('metadata/ehentai'),
      entry: 'execMetadata',
      ctx,
    })
    return out.result as { tags?: string; title?: string; error?: string }
  }

  it('looks the gallery up by the URL in the one-shot argument, with namespaced tags', async () => {
    seen.length = 0
    const result = await run('whatever', `https://exhentai.org/g/${GID}/${TOKEN}/?p=1`)
    expect(seen.map((s) => s.path)).toEqual(['/api.php'])
    expect(seen[0]!.body).toEqual({ method: 'gdata', gidlist: [[GID, TOKEN]], namespace: 1 })
    expect(result.tags!.split(', ')).toEqual([
      'language:english',
      'parody:tom and jerry',
      'artist:artist',
      'female:cat  girl',
      'other:full color',
      'category:doujinshi',
      'uploader:someone',
      'timestamp:1600000000',
      `source:https://e-hentai.org/g/${GID}/${TOKEN}/`,
    ])
    expect(result.title).toBeUndefined()
  })

  it('finds the gallery by the archive title through the search page', async () => {
    seen.length = 0
    const result = await run('Tom & Jerry', null, {
      lang: 'english',
      savetitle: true,
      additionaltags: false,
    })
    expect(seen.map((s) => s.path)).toEqual(['/', '/api.php'])
    expect(seen[0]!.search).toBe('Tom & Jerry language:english')
    expect(result.title).toBe('(C99) [Circle (Artist)] Tom & Jerry [English]')
    expect(result.tags).not.toContain('uploader:')
    expect(result.tags).toContain('category:doujinshi')
  })

  it('saves the Japanese title with jpntitle', async () => {
    const result = await run('x', `https://e-hentai.org/g/${GID}/${TOKEN}/`, {
      savetitle: true,
      jpntitle: true,
    })
    expect(result.title).toBe(GALLERY.title_jpn)
  })

  it('answers an error when the search finds nothing or the API refuses the gallery', async () => {
    // The sandbox hands the {error} answer back as is; the server turns it into the run's failure.
    expect((await run('Nothing Here', null)).error).toBe(
      'No E-Hentai gallery found for "Nothing Here"',
    )
    expect((await run('x', `https://e-hentai.org/g/99/ffff/`)).error).toContain(
      'E-Hentai API: Key missing',
    )
    expect((await run('x', 'not a url')).error).toContain('Not an E-Hentai gallery URL')
  })
})

describe('login/ehentai in the sandbox', () => {
  const host = createSandboxHost({ fetch: () => Promise.reject(new Error('no fetch')) })
  afterAll(() => host.close())
  const login = async (args: Record<string, unknown>) =>
    (
      await host.run({
        source: await source('login/ehentai'),
        entry: 'execLogin',
        ctx: { args, oneshot: null },
      })
    ).result as { cookies: { name: string; value: string; domain: string }[]; error?: string }

  it('answers the member cookies for both sites, and none without credentials', async () => {
    const { cookies } = await login({ ipb_member_id: '42', ipb_pass_hash: 'hash', star: '1-x' })
    expect(
      cookies.filter((c) => c.domain === '.exhentai.org').map((c) => `${c.name}=${c.value}`),
    ).toEqual(['ipb_member_id=42', 'ipb_pass_hash=hash', 'star=1-x', 'nw=1'])
    expect(cookies.filter((c) => c.domain === '.e-hentai.org')).toHaveLength(4)
    expect((await login({})).cookies).toEqual([])
    expect((await login({ ipb_member_id: '42' })).error).toContain(
      'Both ipb_member_id and ipb_pass_hash',
    )
  })
})

describe('E-Hentai through the server', () => {
  let app: TestServer
  let cookie: string

  beforeAll(async () => {
    // Copies of the built-ins that may reach the fake site: 127.0.0.1 in hosts and as the cookie
    // domain, and the metadata copy names the login copy.
    const metadata = (await source('metadata/ehentai'))
      .replace("hosts: ['e-hentai.org',", "hosts: ['127.0.0.1', 'e-hentai.org',")
      .replace("login_from: 'login/ehentai'", "login_from: 'custom/login/ehentai'")
    const login = (await source('login/ehentai'))
      .replace(
        "const DOMAINS = ['.e-hentai.org', '.exhentai.org']",
        "const DOMAINS = ['127.0.0.1']",
      )
      .replace("hosts: ['e-hentai.org',", "hosts: ['127.0.0.1', 'e-hentai.org',")
    expect(metadata).toContain("'127.0.0.1'")
    expect(login).toContain("['127.0.0.1']")
    app = await startTestServer({
      config: { fetchAllowPrivate: ['127.0.0.1'] },
      beforeStart: (contentDir) =>
        sideload(contentDir, { 'metadata/ehentai.ts': metadata, 'login/ehentai.ts': login }),
    })
    // Seeded rows have no file: the first scan must be over, or it hides them as vanished.
    await app.idle()
    cookie = await app.login()
  })

  afterAll(() => app?.[Symbol.asyncDispose]())

  it('lists the built-ins with their login_from and hosts', async () => {
    const { body } = await app.json('/api/plugins/all', { cookie })
    const builtin = (body as { namespace: string; login_from?: string }[]).find(
      (p) => p.namespace === 'metadata/ehentai',
    )
    expect(builtin).toMatchObject({ login_from: 'login/ehentai', type: 'metadata' })
    expect((body as { namespace: string }[]).some((p) => p.namespace === 'login/ehentai')).toBe(
      true,
    )
  })

  it('runs with the login cookies reaching the fake site', async () => {
    const put = (namespace: string, customargs: unknown[]) =>
      app.json(`/api/plugins/settings?namespace=${namespace}`, {
        method: 'PUT',
        cookie,
        json: { customargs },
      })
    expect((await put('custom/login/ehentai', ['42', 'hash', ''])).status).toBe(200)
    // lang, savetitle, jpntitle, additionaltags, exhentai, site_url, api_url
    const args = ['', true, false, true, false, base, `${base}/api.php`]
    expect((await put('custom/metadata/ehentai', args)).status).toBe(200)

    const row = seedArchive(app.deps, { title: 'Tom & Jerry' })
    seen.length = 0
    const { status, body } = await app.json(
      `/api/plugins/use?plugin=custom/metadata/ehentai&id=${row.id}`,
      { method: 'POST', cookie },
    )
    expect(status).toBe(200)
    expect(body.data.new_tags).toContain('artist:artist')
    expect(body.data.title).toBe('(C99) [Circle (Artist)] Tom & Jerry [English]')
    expect(seen.map((s) => [s.path, s.cookie])).toEqual([
      ['/', 'ipb_member_id=42; ipb_pass_hash=hash; nw=1'],
      ['/api.php', 'ipb_member_id=42; ipb_pass_hash=hash; nw=1'],
    ])
  })

  it('fails the run with the plugin error when nothing matches', async () => {
    const row = seedArchive(app.deps, { title: 'Nothing Here' })
    const { status, body } = await app.json(
      `/api/plugins/use?plugin=custom/metadata/ehentai&id=${row.id}`,
      { method: 'POST', cookie },
    )
    expect(status).toBe(200)
    expect(body.success).toBe(0)
    expect(JSON.stringify(body)).toContain('No E-Hentai gallery found')
  })
})
