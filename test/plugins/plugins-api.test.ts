// The plugin endpoints through the real server and the real sandbox: plugins are sideloaded into
// the data folder before start, a fake remote site answers the one that fetches.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createApiToken } from '../../src/domain/auth/tokens.ts'
import { buildZip } from '../helpers/fixtures.ts'
import { TYPE_ICONS } from '../../src/plugins/icons.ts'
import { seedArchive } from '../helpers/seed.ts'
import { startTestServer, type TestServer } from '../helpers/server.ts'
import { sideload, pluginInfoSource } from '../helpers/plugins.ts'

const info = pluginInfoSource

/** A 1x1 GIF as a data URI: a plugin's own icon, listed as it is. */
const OWN_ICON = 'data:image/gif;base64,R0lGODlhAQABAAAAACw='

const PLUGINS: Record<string, string> = {
  'metadata/tagger.ts':
    info({
      name: 'Tagger',
      type: 'metadata',
      oneshot_arg: 'a summary to propose',
      parameters: [
        { name: 'lang', type: 'string', desc: 'language', default_value: 'en' },
        { name: 'strict', type: 'bool', desc: 'strict matching' },
      ],
    }) +
    `export function execMetadata(ctx) {
      return { tags: ['language:' + ctx.args.lang, 'from:' + ctx.archive.title], summary: ctx.oneshot ?? undefined }
    }`,
  'metadata/broken.ts':
    info({ name: 'Broken', type: 'metadata', icon: OWN_ICON }) +
    `export function execMetadata() { throw new Error('site is down') }`,
  'metadata/refuses.ts':
    info({ name: 'Refuses', type: 'metadata', icon: 'https://tracker.example/pixel.png' }) +
    `export function execMetadata() { return { error: 'no gallery matches' } }`,
  'metadata/fetcher.ts':
    info({ name: 'Fetcher', type: 'metadata', hosts: ['127.0.0.1'] }) +
    `export async function execMetadata(ctx) {
      const res = await fetch(ctx.oneshot)
      const body = await res.json()
      return { tags: body.tags.join(', '), title: body.title }
    }`,
  'metadata/nohosts.ts':
    info({ name: 'No hosts', type: 'metadata' }) +
    `export async function execMetadata(ctx) { await fetch(ctx.oneshot); return { tags: 'x' } }`,
  'metadata/entry-reader.ts':
    info({ name: 'Entry reader', type: 'metadata' }) +
    `export async function execMetadata(ctx) {
      const xml = await ctx.entry('ComicInfo.xml')
      return { tags: 'missing:' + (await ctx.entry('nope.txt')), title: new TextDecoder().decode(xml) }
    }`,
  'metadata/slow.ts':
    info({ name: 'Slow', type: 'metadata' }) +
    `export async function execMetadata() { await sleep(1200); return { tags: 'slow:done' } }`,
  'metadata/bad-manifest.ts': `export function pluginInfo() { return { name: 'No version', type: 'metadata' } }`,
  'script/mistyped.ts': info({ name: 'Mistyped', type: 'metadata' }),
  'login/site.ts':
    info({ name: 'Site login', type: 'login' }) +
    `export function execLogin() { return { cookies: [{ name: 'sid', value: '1', domain: 'example.com' }] } }`,
}

let app: TestServer
let cookie: string
let guest: string
let remote: ReturnType<typeof Bun.serve>

beforeAll(async () => {
  remote = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: () => Response.json({ tags: ['artist:remote', 'parody:fake'], title: 'Remote title' }),
  })
  app = await startTestServer({
    config: { fetchAllowPrivate: ['127.0.0.1'] },
    beforeStart: (contentDir) => sideload(contentDir, PLUGINS),
  })
  // Seeded rows have no file: the first scan must be over, or it hides them as vanished.
  await app.idle()
  cookie = await app.login()
  guest = createApiToken(app.deps, { name: 'g', role: 'guest' }).secret
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
  remote.stop(true)
})

/** Sideloaded namespaces only: the repo's built-ins are listed too. */
const namespaces = (list: Record<string, unknown>[]) =>
  list.map((p) => String(p.namespace)).filter((ns) => ns.startsWith('custom/'))

describe('GET /api/plugins/:type', () => {
  it('lists the plugins of a type with their PluginInfo; bad manifests are skipped', async () => {
    const { status, body } = await app.json('/api/plugins/metadata', { cookie })
    expect(status).toBe(200)
    expect(namespaces(body as any).sort()).toEqual([
      'custom/metadata/broken',
      'custom/metadata/entry-reader',
      'custom/metadata/fetcher',
      'custom/metadata/nohosts',
      'custom/metadata/refuses',
      'custom/metadata/slow',
      'custom/metadata/tagger',
    ])
    const tagger = (body as any[]).find((p) => p.namespace === 'custom/metadata/tagger')
    expect(tagger).toMatchObject({
      name: 'Tagger',
      type: 'metadata',
      version: '1.0',
      origin: 'sideloaded',
      registry: null,
      login_from: null,
      oneshot_arg: 'a summary to propose',
      url_regex: null,
      icon: TYPE_ICONS.metadata,
      parameters: [
        { name: 'lang', type: 'string', desc: 'language', default_value: 'en' },
        { name: 'strict', type: 'bool', desc: 'strict matching' },
      ],
    })
    expect(tagger.sha256).toMatch(/^[0-9a-f]{64}$/)
  })

  it('lists a data URI icon as it is, and its type icon for a plugin with none or another kind', async () => {
    const { body } = await app.json('/api/plugins/metadata', { cookie })
    const icon = (namespace: string) => (body as any[]).find((p) => p.namespace === namespace).icon
    expect(icon('custom/metadata/broken')).toBe(OWN_ICON)
    expect(icon('custom/metadata/refuses')).toBe(TYPE_ICONS.metadata)
    const logins = await app.json('/api/plugins/login', { cookie })
    for (const plugin of logins.body as any[])
      expect(plugin.icon).toMatch(/^data:image\/(png|gif|jpeg|webp|svg\+xml);base64,/)
    expect((logins.body as any[]).find((p) => p.namespace === 'custom/login/site').icon).toBe(
      TYPE_ICONS.login,
    )
  })

  it('lists every type under all, and refuses an unknown type', async () => {
    const all = await app.json('/api/plugins/all', { cookie })
    expect(namespaces(all.body as any)).toContain('custom/login/site')
    expect(namespaces(all.body as any)).not.toContain('custom/script/mistyped')
    const bad = await app.json('/api/plugins/nonsense', { cookie })
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({ operation: 'list_plugins', success: 0 })
  })

  it('answers 401 without credentials', async () => {
    const { status, body } = await app.json('/api/plugins/all')
    expect(status).toBe(401)
    expect(body).toMatchObject({ success: 0 })
  })
})

describe('PUT /api/plugins/priority', () => {
  it('orders listings by position and skips a namespace of another type', async () => {
    const order = [
      'custom/metadata/tagger',
      'custom/login/site',
      'custom/metadata/refuses',
      'custom/metadata/nohosts',
      'custom/metadata/fetcher',
      'custom/metadata/entry-reader',
      'custom/metadata/broken',
      'custom/metadata/slow',
    ]
    const res = await app.json('/api/plugins/priority', {
      method: 'PUT',
      cookie,
      json: { type: 'metadata', namespaces: order },
    })
    expect(res.body).toEqual({ operation: 'set_plugin_priority', success: 1 })
    const { body } = await app.json('/api/plugins/metadata', { cookie })
    expect(namespaces(body as any)).toEqual(order.filter((ns) => ns !== 'custom/login/site'))
    const login = await app.json('/api/plugins/login', { cookie })
    expect((login.body as any[])[0].priority).toBe(0)
  })

  it('is refused to a guest token (403)', async () => {
    const res = await app.json('/api/plugins/priority', {
      method: 'PUT',
      token: guest,
      json: { type: 'metadata', namespaces: [] },
    })
    expect(res.status).toBe(403)
  })
})

describe('plugin settings', () => {
  const path = '/api/plugins/settings?namespace=custom/metadata/tagger'

  it('pads never-set arguments with the declared defaults; enabled is false', async () => {
    const { status, body } = await app.json(path, { cookie })
    expect(status).toBe(200)
    expect(body).toEqual({
      operation: 'get_plugin_settings',
      success: 1,
      customargs: ['en', ''],
      enabled: false,
    })
  })

  it('truncates a longer array to the declared parameters and pads a shorter one', async () => {
    const long = await app.json(path, {
      method: 'PUT',
      cookie,
      json: { customargs: ['fr', true, 'stale', 4], enabled: true },
    })
    expect(long.body).toMatchObject({ success: 1, customargs: ['fr', true], enabled: true })
    const short = await app.json(path, { method: 'PUT', cookie, json: { customargs: ['de'] } })
    expect(short.body).toMatchObject({ customargs: ['de', ''], enabled: true })
    expect((await app.json(path, { cookie })).body).toMatchObject({ customargs: ['de', ''] })
    // Off again: the tests below seed archives, and an enabled plugin runs on every new archive.
    await app.json(path, { method: 'PUT', cookie, json: { enabled: false } })
  })

  it('answers 400 for an unknown namespace and 403 to a guest writing', async () => {
    const unknown = await app.json('/api/plugins/settings?namespace=custom/metadata/nope', {
      cookie,
    })
    expect(unknown.status).toBe(400)
    const guestPut = await app.json(path, { method: 'PUT', token: guest, json: { enabled: true } })
    expect(guestPut.status).toBe(403)
  })
})

describe('plugin options', () => {
  const path = '/api/plugins/options?namespace=custom/metadata/fetcher'
  const rules = [{ pattern: '*.example.com', max_concurrency: 2 }]

  it('updates only the fields sent, and DELETE restores the defaults', async () => {
    expect((await app.json(path, { cookie })).body).toMatchObject({
      options: { domain_rules: [], bundle_as_archive: false },
    })
    await app.json(path, { method: 'PUT', cookie, json: { domain_rules: rules } })
    const partial = await app.json(path, {
      method: 'PUT',
      cookie,
      json: { bundle_as_archive: true },
    })
    expect(partial.body).toMatchObject({
      success: 1,
      options: { domain_rules: rules, bundle_as_archive: true },
    })
    expect(app.deps.outbound.ruleFor('https://img.example.com/a')?.pattern).toBe('*.example.com')
    const reset = await app.json(path, { method: 'DELETE', cookie })
    expect(reset.body).toMatchObject({ options: { domain_rules: [], bundle_as_archive: false } })
    expect(app.deps.outbound.ruleFor('https://img.example.com/a')).toBeUndefined()
  })

  it('refuses bad domain rules with 400 and keeps what was stored', async () => {
    const bad = await app.json(path, {
      method: 'PUT',
      cookie,
      json: { domain_rules: [{ pattern: 'a b', max_concurrency: -1 }] },
    })
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({ operation: 'update_plugin_options', success: 0 })
    expect((await app.json(path, { cookie })).body).toMatchObject({ options: { domain_rules: [] } })
  })

  it('refuses an unknown key or a wrong type with 400 and saves nothing of the body', async () => {
    for (const json of [
      { bundle_as_archive: true, domain_rulez: rules },
      { bundle_as_archive: 'yes' },
      { domain_rules: 'all' },
      [true],
    ]) {
      const bad = await app.json(path, { method: 'PUT', cookie, json })
      expect(bad.status).toBe(400)
      expect(bad.body).toMatchObject({ operation: 'update_plugin_options', success: 0 })
    }
    const unknown = await app.json(path, { method: 'PUT', cookie, json: { domain_rulez: [] } })
    expect(unknown.body.error).toContain('domain_rulez')
    expect((await app.json(path, { cookie })).body).toMatchObject({
      options: { domain_rules: [], bundle_as_archive: false },
    })
  })
})

describe('plugin option timeout_ms', () => {
  const options = '/api/plugins/options?namespace=custom/metadata/slow'

  it("bounds the plugin's runs by its own budget, and null restores the server setting", async () => {
    const { id } = seedArchive(app.deps, { title: 'Waited for' })
    const use = () =>
      app.json(`/api/plugins/use?plugin=custom/metadata/slow&id=${id}`, { method: 'POST', cookie })
    expect((await app.json(options, { cookie })).body.options.timeout_ms).toBeNull()
    const set = await app.json(options, { method: 'PUT', cookie, json: { timeout_ms: 300 } })
    expect(set.body).toMatchObject({ success: 1, options: { timeout_ms: 300 } })
    const cut = await use()
    expect(cut.body.success).toBe(0)
    expect(cut.body.error).toMatch(/timed out after 300 ms/)
    await app.json(options, { method: 'PUT', cookie, json: { timeout_ms: null } })
    expect((await use()).body).toMatchObject({ success: 1, data: { new_tags: 'slow:done' } })
  })

  it('refuses a budget outside 100 ms to 10 minutes and keeps the stored one', async () => {
    for (const timeout_ms of [50, 600_001, 1.5, 'soon']) {
      const bad = await app.json(options, { method: 'PUT', cookie, json: { timeout_ms } })
      expect(bad.status).toBe(400)
    }
    expect((await app.json(options, { cookie })).body.options.timeout_ms).toBeNull()
  })
})

describe('POST /api/plugins/use', () => {
  it('runs a metadata plugin and proposes tags without modifying the archive', async () => {
    const archive = seedArchive(app.deps, { title: 'Some book', tags: 'artist:kept' })
    await app.json('/api/plugins/settings?namespace=custom/metadata/tagger', {
      method: 'PUT',
      cookie,
      json: { customargs: ['ja'] },
    })
    const { status, body } = await app.json(
      `/api/plugins/use?plugin=custom/metadata/tagger&id=${archive.id}&arg=proposed`,
      { method: 'POST', cookie },
    )
    expect(status).toBe(200)
    expect(body).toEqual({
      operation: 'use_plugin',
      success: 1,
      type: 'metadata',
      data: { new_tags: 'language:ja, from:Some book', summary: 'proposed' },
    })
    const after = await app.json(`/api/archives/${archive.id}/metadata`, { cookie })
    expect(after.body).toMatchObject({ tags: 'artist:kept', summary: '' })
  })

  it("reads entries of the archive's file through ctx.entry", async () => {
    const archive = seedArchive(app.deps)
    const file = join(app.contentDir, archive.path)
    mkdirSync(join(file, '..'), { recursive: true })
    const text = (data: string) => new TextEncoder().encode(data)
    writeFileSync(
      file,
      buildZip([
        { name: 'p001.jpg', data: text('not really a jpeg') },
        { name: 'ComicInfo.xml', data: text('<Title>From the file</Title>') },
      ]),
    )
    const { body } = await app.json(
      `/api/plugins/use?plugin=custom/metadata/entry-reader&id=${archive.id}`,
      { method: 'POST', cookie },
    )
    expect(body).toMatchObject({
      success: 1,
      data: { new_tags: 'missing:null', title: '<Title>From the file</Title>' },
    })
  })

  it('fetches a remote site listed in the plugin hosts', async () => {
    const archive = seedArchive(app.deps)
    const url = encodeURIComponent(`http://127.0.0.1:${remote.port}/gallery`)
    const { status, body } = await app.json(
      `/api/plugins/use?plugin=custom/metadata/fetcher&id=${archive.id}&arg=${url}`,
      { method: 'POST', cookie },
    )
    expect(status).toBe(200)
    expect(body).toMatchObject({
      success: 1,
      data: { new_tags: 'artist:remote, parody:fake', title: 'Remote title' },
    })
  })

  it('answers success 0 when the plugin throws, returns an error, or fetches outside its hosts', async () => {
    const archive = seedArchive(app.deps)
    const use = (plugin: string, arg = '') =>
      app.json(`/api/plugins/use?plugin=${plugin}&id=${archive.id}&arg=${arg}`, {
        method: 'POST',
        cookie,
      })
    // A failed run is still a 200, as LANraragi answers it: `success` tells.
    const thrown = await use('custom/metadata/broken')
    expect(thrown.status).toBe(200)
    // The error names the plugin's file and the line of its throw.
    expect(thrown.body).toMatchObject({
      operation: 'use_plugin',
      success: 0,
      error: 'custom/metadata/broken.ts:2: Error: site is down',
    })
    const refused = await use('custom/metadata/refuses')
    expect(refused.status).toBe(200)
    expect(refused.body).toMatchObject({
      operation: 'use_plugin',
      success: 0,
      error: 'no gallery matches',
    })
    const outside = await use(
      'custom/metadata/nohosts',
      encodeURIComponent(`http://127.0.0.1:${remote.port}/`),
    )
    expect(outside.body.success).toBe(0)
    expect(outside.body.error).toContain('not among the allowed hosts')
  })

  it('answers success 0 for an unknown plugin or a metadata run without an archive id', async () => {
    const unknown = await app.json('/api/plugins/use?plugin=custom/metadata/nope', {
      method: 'POST',
      cookie,
    })
    expect(unknown.body).toMatchObject({ success: 0 })
    const noId = await app.json('/api/plugins/use?plugin=custom/metadata/tagger', {
      method: 'POST',
      cookie,
    })
    expect(noId.body).toMatchObject({ success: 0 })
  })

  it('runs a login plugin and answers the names of what it set, never the values', async () => {
    const { body } = await app.json('/api/plugins/use?plugin=custom/login/site', {
      method: 'POST',
      cookie,
    })
    expect(body).toEqual({
      operation: 'use_plugin',
      success: 1,
      type: 'login',
      data: { cookies: [{ name: 'sid', domain: 'example.com' }], headers: [] },
    })
  })

  it('is refused without credentials (401) and to a guest token (403)', async () => {
    const anonymous = await app.json('/api/plugins/use?plugin=custom/login/site', {
      method: 'POST',
    })
    expect(anonymous.status).toBe(401)
    const asGuest = await app.json('/api/plugins/use?plugin=custom/login/site', {
      method: 'POST',
      token: guest,
    })
    expect(asGuest.status).toBe(403)
  })
})
