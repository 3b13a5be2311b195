// The E-Hentai download built-in (plugins/download/ehentai.ts) against a fake site on 127.0.0.1
// answering the shapes of E-Hentai's archiver page, its form's answer and the gallery API: the
// link it answers, the refusals it names, the versions it reports; through the sandbox, and
// through the server with the login plugin's cookies on its fetches.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'

import { join } from 'node:path'
import { createSandboxHost } from '../../src/plugins/host.ts'
import { startTestServer, type TestServer } from '../helpers/server.ts'
import { sideload } from '../helpers/plugins.ts'

const root = join(import.meta.dir, '../..')
const source = () => Bun.file(join(root, 'plugins/download/ehentai.ts')).text()

const GID = 2000001
const TOKEN = 'abc123def0'
const NEWER = { gid: 2000999, token: 'fedcba9876' }

/** What the fake site answers, per gallery id; the test flips these. */
const archiver = { funds: true, loggedIn: true }
type Seen = { method: string; path: string; form: string | null; cookie: string | null }
const seen: Seen[] = []
let site: ReturnType<typeof Bun.serve>
let base: string

beforeAll(() => {
  site = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const url = new URL(req.url)
      const body = req.method === 'POST' ? await req.text() : null
      seen.push({
        method: req.method,
        path: url.pathname,
        form: body,
        cookie: req.headers.get('cookie'),
      })
      if (url.pathname === '/api.php') {
        const [[gid, token]] = JSON.parse(body!).gidlist as [[number, string]]
        if (gid === GID && token === TOKEN)
          return Response.json({
            gmetadata: [
              {
                gid: GID,
                token: TOKEN,
                title: 'Tom &amp; Jerry / Part 1',
                posted: '1600000000',
                current_gid: String(NEWER.gid),
                current_key: NEWER.token,
              },
            ],
          })
        if (gid === NEWER.gid && token === NEWER.token)
          return Response.json({ gmetadata: [{ gid, token, title: 'New', posted: '1700000000' }] })
        return Response.json({
          gmetadata: [{ gid, error: 'Key missing, or incorrect key provided.' }],
        })
      }
      if (url.pathname === '/archiver.php') {
        const gid = Number(url.searchParams.get('gid'))
        const html = (text: string) =>
          new Response(text, { headers: { 'content-type': 'text/html' } })
        if (gid !== GID) return html('<p>Invalid archiver key</p>')
        if (!archiver.loggedIn) return html('<p>This page requires you to log on.</p>')
        if (req.method === 'GET') return html('<form method="post"><input name="dltype"></form>')
        if (!archiver.funds) return html('<p>Insufficient funds.</p>')
        return html(
          `<script type="text/javascript">document.location = "${base}/archive/${GID}/${TOKEN}/x/2?autostart=1";</script>`,
        )
      }
      return new Response('not found', { status: 404 })
    },
  })
  base = `http://127.0.0.1:${site.port}`
})

afterAll(() => site.stop(true))

type Answer = {
  downloads?: { url: string; filename_hint?: string }[]
  version_history?: { source: string; posted_at: string }[]
  error?: string
}

describe('download/ehentai in the sandbox', () => {
  const host = createSandboxHost({
    async fetch(url, init) {
      const res = await fetch(url, { method: init.method, headers: init.headers, body: init.body })
      return { status: res.status, headers: res.headers, url: res.url, body: await res.bytes() }
    },
  })
  afterAll(() => host.close())

  const run = async (url: string, args: Record<string, unknown> = {}) =>
    (
      await host.run({
        source: await source(),
        entry: 'execDownload',
        ctx: { args: { site_url: base, api_url: `${base}/api.php`, ...args }, oneshot: null, url },
      })
    ).result as Answer

  it('takes E-Hentai and ExHentai gallery URLs only', async () => {
    const info = (
      await host.run({
        source: await source(),
        entry: 'pluginInfo',
        ctx: { args: {}, oneshot: null },
      })
    ).result as { url_regex: string; login_from: string; type: string }
    expect(info).toMatchObject({ type: 'download', login_from: 'login/ehentai' })
    const regex = new RegExp(info.url_regex)
    expect(regex.test(`https://e-hentai.org/g/${GID}/${TOKEN}/`)).toBe(true)
    expect(regex.test(`https://exhentai.org/g/${GID}/${TOKEN}`)).toBe(true)
    expect(regex.test('https://e-hentai.org/s/abc/1-1')).toBe(false)
    expect(regex.test('https://example.org/g/1/abc/')).toBe(false)
  })

  it('posts the archiver form for the original and answers its link with start=1, a name and the versions', async () => {
    archiver.funds = true
    seen.length = 0
    const answer = await run(`https://e-hentai.org/g/${GID}/${TOKEN}/`)
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual([
      'GET /archiver.php',
      'POST /archiver.php',
      'POST /api.php',
      'POST /api.php',
    ])
    expect(new URLSearchParams(seen[1]!.form!).get('dltype')).toBe('org')
    expect(answer.downloads).toEqual([
      {
        url: `${base}/archive/${GID}/${TOKEN}/x/2?start=1`,
        filename_hint: 'Tom & Jerry _ Part 1.zip',
      },
    ])
    expect(answer.version_history).toEqual([
      { source: `https://e-hentai.org/g/${GID}/${TOKEN}/`, posted_at: '2020-09-13T12:26:40.000Z' },
      {
        source: `https://e-hentai.org/g/${NEWER.gid}/${NEWER.token}/`,
        posted_at: '2023-11-14T22:13:20.000Z',
      },
    ])
  })

  it('asks for the resampled archive when set', async () => {
    seen.length = 0
    await run(`https://e-hentai.org/g/${GID}/${TOKEN}/`, { resampled: true })
    expect(new URLSearchParams(seen[1]!.form!).get('dltype')).toBe('res')
  })

  it('names a bad key, a missing login, too little GP and a URL that is no gallery', async () => {
    expect((await run(`https://e-hentai.org/g/5/${TOKEN}/`)).error).toContain(
      'Invalid archiver key',
    )
    archiver.loggedIn = false
    expect((await run(`https://e-hentai.org/g/${GID}/${TOKEN}/`)).error).toContain('login')
    archiver.loggedIn = true
    archiver.funds = false
    seen.length = 0
    expect((await run(`https://e-hentai.org/g/${GID}/${TOKEN}/`)).error).toContain('Not enough GP')
    expect(seen).toHaveLength(2)
    archiver.funds = true
    expect((await run('https://e-hentai.org/tag/x')).error).toContain('Not an E-Hentai gallery URL')
  })
})

describe('download/ehentai through the server', () => {
  let app: TestServer
  let cookie: string

  beforeAll(async () => {
    const download = (await source())
      .replace("hosts: ['e-hentai.org',", "hosts: ['127.0.0.1', 'e-hentai.org',")
      .replace("login_from: 'login/ehentai'", "login_from: 'custom/login/ehentai'")
    const login = (await Bun.file(join(root, 'plugins/login/ehentai.ts')).text())
      .replace(
        "const DOMAINS = ['.e-hentai.org', '.exhentai.org']",
        "const DOMAINS = ['127.0.0.1']",
      )
      .replace("hosts: ['e-hentai.org',", "hosts: ['127.0.0.1', 'e-hentai.org',")
    expect(download).toContain("'127.0.0.1'")
    app = await startTestServer({
      config: { fetchAllowPrivate: ['127.0.0.1'] },
      beforeStart: (contentDir) =>
        sideload(contentDir, { 'download/ehentai.ts': download, 'login/ehentai.ts': login }),
    })
    cookie = await app.login()
  })

  afterAll(() => app?.[Symbol.asyncDispose]())

  it('is listed with its url_regex and runs with the member cookies on every fetch', async () => {
    const { body: listed } = await app.json('/api/plugins/download', { cookie })
    expect((listed as { namespace: string }[]).map((p) => p.namespace)).toContain(
      'download/ehentai',
    )
    const put = (namespace: string, customargs: unknown[]) =>
      app.json(`/api/plugins/settings?namespace=${namespace}`, {
        method: 'PUT',
        cookie,
        json: { customargs },
      })
    expect((await put('custom/login/ehentai', ['42', 'hash', ''])).status).toBe(200)
    expect((await put('custom/download/ehentai', [false, base, `${base}/api.php`])).status).toBe(
      200,
    )
    seen.length = 0
    const url = `https://exhentai.org/g/${GID}/${TOKEN}/`
    const { status, body } = await app.json(
      `/api/plugins/use?plugin=custom/download/ehentai&arg=${encodeURIComponent(url)}`,
      { method: 'POST', cookie },
    )
    expect(status).toBe(200)
    expect(body).toMatchObject({
      success: 1,
      type: 'download',
      data: { downloads: [{ url: `${base}/archive/${GID}/${TOKEN}/x/2?start=1` }] },
    })
    expect(body.data.version_history[0].source).toBe(`https://exhentai.org/g/${GID}/${TOKEN}/`)
    expect(new Set(seen.map((s) => s.cookie))).toEqual(
      new Set(['ipb_member_id=42; ipb_pass_hash=hash; nw=1']),
    )
  })
})
