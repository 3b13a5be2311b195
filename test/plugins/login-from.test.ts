// `login_from` (issue 25, §4): a login plugin's session goes only to the hosts the login plugin
// itself declares, whatever other hosts the plugin naming it lists; an upload naming no installed
// login plugin is refused; listings show which plugins ride which login. Through the real server
// and sandbox, with two fake sites on two loopback addresses (127.0.0.1 and 127.0.0.2).
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'

import { seedArchive } from '../helpers/seed.ts'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { sideload } from '../helpers/plugins.ts'

const LOGIN = `export function pluginInfo() {
    return { name: 'Site login', version: '1', type: 'login', hosts: ['127.0.0.1'] }
  }
  export function execLogin() {
    return { cookies: [{ name: 'sid', value: 'S3CRET' }], headers: { 'X-Session': 'H3ADER' } }
  }`

/** Fetches every URL of its one-shot argument (space-separated). */
const rider = (loginFrom: string, hosts: string[]) => `export function pluginInfo() {
    return { name: 'Rider', version: '1', type: 'metadata', hosts: ${JSON.stringify(hosts)},
      login_from: '${loginFrom}' }
  }
  export async function execMetadata(ctx) {
    for (const url of ctx.oneshot.split(' ')) await fetch(url)
    return { tags: 'rode:yes' }
  }`

const PLUGINS: Record<string, string> = {
  'login/site.ts': LOGIN,
  'metadata/stranger.ts': rider('custom/login/site', ['127.0.0.1', '127.0.0.2']),
  'metadata/orphan.ts': rider('custom/login/missing', ['127.0.0.1']),
}

type Seen = { host: string; cookie: string | null; session: string | null }
const seen: Seen[] = []
const sites: ReturnType<typeof Bun.serve>[] = []
let app: TestServer
let cookie: string

const listen = (hostname: string) =>
  Bun.serve({
    port: 0,
    hostname,
    fetch(req) {
      seen.push({
        host: hostname,
        cookie: req.headers.get('cookie'),
        session: req.headers.get('x-session'),
      })
      return new Response('ok')
    },
  })

beforeAll(async () => {
  sites.push(listen('127.0.0.1'), listen('127.0.0.2'))
  app = await startTestServer({
    config: { fetchAllowPrivate: ['127.0.0.0/8'] },
    beforeStart: (contentDir) => sideload(contentDir, PLUGINS),
  })
  // Seeded rows have no file: the first scan must be over, or it hides them as vanished.
  await app.idle()
  cookie = await app.login()
})

afterAll(async () => {
  await app?.[Symbol.asyncDispose]()
  for (const site of sites) site.stop(true)
})

const urlOf = (site: ReturnType<typeof Bun.serve>) => `http://${site.hostname}:${site.port}/`

function upload(filename: string, source: string) {
  const form = new FormData()
  form.append('file', new File([source], filename))
  return app.json('/api/plugins/upload', { method: 'POST', body: form, cookie })
}

describe('a login session', () => {
  it("goes only to the login plugin's own hosts, not to the other hosts of its user", async () => {
    const row = seedArchive(app.deps, { title: 'ride' })
    seen.length = 0
    const arg = encodeURIComponent(`${urlOf(sites[0]!)} ${urlOf(sites[1]!)}`)
    const { body } = await app.json(
      `/api/plugins/use?plugin=custom/metadata/stranger&id=${row.id}&arg=${arg}`,
      { method: 'POST', cookie },
    )
    expect(body.success).toBe(1)
    expect(seen).toEqual([
      { host: '127.0.0.1', cookie: 'sid=S3CRET', session: 'H3ADER' },
      { host: '127.0.0.2', cookie: null, session: null },
    ])
  })
})

describe('login_from at install', () => {
  it('refuses an upload naming no installed login plugin, or a plugin that is not one', async () => {
    const unknown = await upload('ghost.ts', rider('custom/login/nope', ['127.0.0.1']))
    expect(unknown.status).toBe(400)
    expect(unknown.body).toMatchObject({
      operation: 'upload_plugin',
      success: 0,
      error:
        'Not installed: login_from names custom/login/nope, which is not an installed plugin. Install that login plugin first.',
    })
    const notLogin = await upload('wrong.ts', rider('custom/metadata/stranger', ['127.0.0.1']))
    expect(notLogin.status).toBe(400)
    expect(notLogin.body.error).toContain(
      'custom/metadata/stranger, which is a metadata plugin, not a login plugin',
    )
    const listed = (await app.json<Wire[]>('/api/plugins/metadata', { cookie })).body
    expect(listed.map((p) => p.namespace)).not.toContain('custom/metadata/ghost')
    const fine = await upload('fine.ts', rider('custom/login/site', ['127.0.0.1']))
    expect(fine.body).toMatchObject({ success: 1, namespace: 'custom/metadata/fine' })
  })

  it('lists which plugins use which login, and a sideloaded unknown one as not installed', async () => {
    const { body } = await app.json<Wire[]>('/api/plugins/all', { cookie })
    const byNs = new Map(body.map((p) => [p.namespace as string, p]))
    expect(byNs.get('custom/login/site')).toMatchObject({
      hosts: ['127.0.0.1'],
      login_from: null,
      login_from_installed: null,
      used_by: ['custom/metadata/fine', 'custom/metadata/stranger'],
    })
    expect(byNs.get('custom/metadata/stranger')).toMatchObject({
      login_from: 'custom/login/site',
      login_from_installed: true,
      hosts: ['127.0.0.1', '127.0.0.2'],
    })
    expect(byNs.get('custom/metadata/orphan')).toMatchObject({
      login_from: 'custom/login/missing',
      login_from_installed: false,
    })
    expect(byNs.get('login/ehentai')).toMatchObject({
      used_by: ['download/ehentai', 'metadata/ehentai'],
    })
    const row = seedArchive(app.deps, { title: 'orphan' })
    const run = await app.json(
      `/api/plugins/use?plugin=custom/metadata/orphan&id=${row.id}&arg=${encodeURIComponent(urlOf(sites[0]!))}`,
      { method: 'POST', cookie },
    )
    expect(run.body).toMatchObject({
      success: 0,
      error: 'Plugin custom/login/missing named in login_from is not installed.',
    })
  })
})
