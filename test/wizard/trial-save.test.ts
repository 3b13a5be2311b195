// POST /api/plugin-wizard/trial-run and /save, through the real server and the real sandbox:
// neither needs a language-model key. A fake site on 127.0.0.1 (allowed by fetchAllowPrivate).
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { createApiToken } from '../../src/domain/auth/tokens.ts'
import { makeCbz } from '../helpers/fixtures.ts'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { startFakeSite, type FakeSite } from './fake-site.ts'

const metadataPlugin = (hosts: string[], namespace = 'bookjson') => `
export function pluginInfo() {
  return {
    name: 'Book JSON', namespace: '${namespace}', author: 'wizard', description: 'tags from JSON',
    version: '1.0', type: 'metadata', hosts: ${JSON.stringify(hosts)},
    parameters: [{ name: 'lang', type: 'string', desc: 'language', default_value: 'english' }],
  }
}
export async function execMetadata(ctx) {
  const response = await fetch(ctx.oneshot)
  const book = await response.json()
  console.log('read', book.title, 'lang', ctx.args.lang)
  return { tags: book.tags.join(', '), title: book.title }
}
`

let app: TestServer
let site: FakeSite
let cookie: string
let adminToken: string

beforeAll(async () => {
  site = startFakeSite()
  app = await startTestServer({
    config: { fetchAllowPrivate: ['127.0.0.1'] },
    beforeStart: async (contentDir) => {
      const info = new TextEncoder().encode(JSON.stringify({ artist: 'someone' }))
      await makeCbz(join(contentDir, 'Some Book.cbz'), {
        entries: [{ name: 'info.json', data: info }],
      })
    },
  })
  await app.idle()
  cookie = await app.login()
  adminToken = createApiToken(app.deps, { name: 'a', role: 'admin' }).secret
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
  await site[Symbol.asyncDispose]()
})

const post = (
  path: string,
  json: unknown,
  auth: { cookie?: string; token?: string } = { cookie },
) => app.json(`/api/plugin-wizard/${path}`, { method: 'POST', json, ...auth })

describe('POST /api/plugin-wizard/trial-run', () => {
  it('runs the source in the sandbox and answers its result, log and fetches', async () => {
    const url = `${site.url}/api/book.json`
    const { status, body } = await post('trial-run', {
      source: metadataPlugin([site.host]),
      oneshot: url,
    })
    expect(status).toBe(200)
    expect(body).toMatchObject({ operation: 'wizard_trial_run', success: 1 })
    expect(body.result).toEqual({
      tags: 'artist:someone, language:english',
      title: 'A Fine Book',
    })
    expect(body.error).toBeUndefined()
    // The parameter's default_value reached ctx.args.
    expect(body.log).toEqual([{ level: 'log', message: 'read A Fine Book lang english' }])
    expect(body.fetches).toEqual([{ method: 'GET', url, status: 200 }])
  })

  it('passes the given args over the defaults', async () => {
    const { body } = await post('trial-run', {
      source: metadataPlugin([site.host]),
      oneshot: `${site.url}/api/book.json`,
      args: { lang: 'french' },
    })
    expect(body.log[0].message).toBe('read A Fine Book lang french')
  })

  it('keeps the plugin to its own hosts: an undeclared host is refused, reported as the error', async () => {
    const { status, body } = await post('trial-run', {
      source: metadataPlugin(['example.com']),
      oneshot: `${site.url}/api/book.json`,
    })
    expect(status).toBe(200)
    expect(body.result).toBeNull()
    expect(body.error).toMatch(/host/i)
    expect(body.fetches).toHaveLength(1)
    expect(body.fetches[0].status).toBeUndefined()
  })

  it('reports an {error} answer as the error, with the result kept', async () => {
    const source = `export function pluginInfo() { return { name: 'E', version: '1', type: 'download' } }
export function execDownload(ctx) { return { error: 'no link on ' + ctx.url } }`
    const { body } = await post('trial-run', { source, url: 'https://example.com/g/1' })
    expect(body.error).toBe('no link on https://example.com/g/1')
    expect(body.result).toEqual({ error: 'no link on https://example.com/g/1' })
  })

  it('runs against an archive: ctx.archive and ctx.entry(name) read it', async () => {
    const listed = await app.json('/api/archives', { cookie })
    const archive = (listed.body as Wire[]).find((a) => a.title === 'Some Book')!
    const source = `export function pluginInfo() {
  return { name: 'Info', version: '1', type: 'metadata' }
}
export async function execMetadata(ctx) {
  const info = JSON.parse(new TextDecoder().decode(await ctx.entry('info.json')))
  return { tags: 'artist:' + info.artist, title: ctx.archive.title + '!' }
}`
    const { status, body } = await post('trial-run', { source, archive_id: archive.arcid })
    expect(status).toBe(200)
    expect(body.result).toEqual({ tags: 'artist:someone', title: 'Some Book!' })
    // Nothing was written to the archive.
    const after = await app.json(`/api/archives/${archive.arcid}`, { cookie })
    expect(after.body.title).toBe('Some Book')
    expect(after.body.tags).not.toContain('artist:someone')
  })

  it('answers 400 for an unknown archive id', async () => {
    const { status, body } = await post('trial-run', {
      source: metadataPlugin([site.host]),
      archive_id: 'a'.repeat(40),
    })
    expect(status).toBe(400)
    expect(body.error).toBe("This ID doesn't exist on the server.")
  })

  it('answers 400 for a source whose pluginInfo() is not a valid manifest', async () => {
    const { status, body } = await post('trial-run', {
      source: `export function pluginInfo() { return { name: 'x', type: 'metadata' } }`,
    })
    expect(status).toBe(400)
    expect(body).toMatchObject({ operation: 'wizard_trial_run', success: 0 })
    expect(body.error).toMatch(/^Not a valid plugin: version/)
  })

  it('answers 400 for a body without a source', async () => {
    const { status, body } = await post('trial-run', { url: 'https://example.com' })
    expect(status).toBe(400)
    expect(body.success).toBe(0)
  })

  it('installs nothing', () => {
    expect(existsSync(join(app.root, 'data', 'plugins', 'custom', 'metadata'))).toBe(false)
  })

  it('is refused to an API token (403), session only', async () => {
    const { status, body } = await post(
      'trial-run',
      { source: metadataPlugin([site.host]) },
      { token: adminToken },
    )
    expect(status).toBe(403)
    expect(body).toMatchObject({ operation: 'wizard_trial_run', success: 0 })
  })
})

describe('POST /api/plugin-wizard/save', () => {
  it('installs the source as a sideloaded plugin named after its namespace; it is listed', async () => {
    const { status, body } = await post('save', { source: metadataPlugin([site.host]) })
    expect(status).toBe(200)
    expect(body).toEqual({
      operation: 'wizard_save',
      success: 1,
      namespace: 'custom/metadata/bookjson',
    })
    const listed = await app.json('/api/plugins/all', { cookie })
    const plugin = (listed.body as Wire[]).find((p) => p.namespace === 'custom/metadata/bookjson')
    expect(plugin).toMatchObject({ name: 'Book JSON', type: 'metadata' })
    expect(existsSync(join(app.root, 'data', 'plugins', 'custom', 'metadata', 'bookjson.ts'))).toBe(
      true,
    )
  })

  it('answers 409 when the namespace is taken, and changes nothing', async () => {
    const { status, body } = await post('save', { source: metadataPlugin(['example.com']) })
    expect(status).toBe(409)
    expect(body).toMatchObject({ operation: 'wizard_save', success: 0 })
    expect(body.error).toContain('custom/metadata/bookjson')
    const stored = await Bun.file(
      join(app.root, 'data', 'plugins', 'custom', 'metadata', 'bookjson.ts'),
    ).text()
    expect(stored).toContain(site.host)
  })

  it('takes a filename for the stem', async () => {
    const { status, body } = await post('save', {
      source: metadataPlugin([site.host]),
      filename: 'other-name.ts',
    })
    expect(status).toBe(200)
    expect(body.namespace).toBe('custom/metadata/other-name')
  })

  it('answers 400 for a bad filename, before running anything', async () => {
    const { status, body } = await post('save', {
      source: metadataPlugin([site.host]),
      filename: 'a book.ts',
    })
    expect(status).toBe(400)
    expect(body.error).toMatch(/must be letters, digits/)
    const path = await post('save', { source: metadataPlugin([site.host]), filename: '../x.ts' })
    expect(path.status).toBe(400)
    expect(path.body.error).toMatch(/must not hold a path/)
  })

  it('never installs a source that fails the checks (no hook of its type)', async () => {
    const source = `export function pluginInfo() { return { name: 'No hook', version: '1', type: 'login' } }`
    const { status, body } = await post('save', { source })
    expect(status).toBe(400)
    expect(body.error).toContain('must export execLogin(ctx)')
    expect(existsSync(join(app.root, 'data', 'plugins', 'custom', 'login'))).toBe(false)
  })

  it('is refused to an API token (403)', async () => {
    const { status } = await post(
      'save',
      { source: metadataPlugin([site.host], 'tokenmade') },
      { token: adminToken },
    )
    expect(status).toBe(403)
  })

  it('is refused without credentials (401)', async () => {
    const { status } = await post('save', { source: metadataPlugin([site.host]) }, {})
    expect(status).toBe(401)
  })
})
