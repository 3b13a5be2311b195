// Plugin upload (sideloading through the API) and export as zip, through the real server and the
// real sandbox.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import yauzl from 'yauzl'
import { createApiToken } from '../../src/domain/auth/tokens.ts'
import { startTestServer, type TestServer } from '../helpers/server.ts'

const info = (fields: Record<string, unknown>) =>
  `export function pluginInfo() { return ${JSON.stringify({
    author: 'test',
    description: 'an uploaded plugin',
    version: '1.0',
    ...fields,
  })} }\n`

const HELLO =
  info({ name: 'Hello', type: 'script' }) +
  `export function runScript(ctx) { return { data: 'hello ' + (ctx.oneshot ?? 'world') } }\n`

let app: TestServer
let cookie: string
let guest: string

beforeAll(async () => {
  app = await startTestServer()
  cookie = await app.login()
  guest = createApiToken(app.deps, { name: 'g', role: 'guest' }).secret
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

const customDir = () => join(app.root, 'data', 'plugins', 'custom')

/** Every file under the sideload folder (temp files included), relative to it. */
function storedFiles(): string[] {
  if (!existsSync(customDir())) return []
  return readdirSync(customDir(), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(customDir().length + 1))
    .sort()
}

function upload(filename: string, source: string, auth: { cookie?: string; token?: string }) {
  const form = new FormData()
  form.append('file', new File([source], filename))
  return app.json('/api/plugins/upload', { method: 'POST', body: form, ...auth })
}

/** The entries of a zip: name -> text. */
async function unzip(bytes: Uint8Array): Promise<Map<string, string>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(Buffer.from(bytes), { lazyEntries: true }, (err, z) =>
      err ? reject(err) : resolve(z!),
    ),
  )
  const out = new Map<string, string>()
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject)
    zip.on('end', () => resolve())
    zip.on('entry', (entry: yauzl.Entry) =>
      zip.openReadStream(entry, async (err, stream) => {
        if (err) return reject(err)
        const chunks: Buffer[] = []
        for await (const chunk of stream!) chunks.push(chunk as Buffer)
        out.set(entry.fileName, Buffer.concat(chunks).toString('utf8'))
        zip.readEntry()
      }),
    )
    zip.readEntry()
  })
  return out
}

describe('POST /api/plugins/upload', () => {
  it('installs a plugin as custom/<type>/<stem>: listed as sideloaded and runnable', async () => {
    const { status, body } = await upload('hello.ts', HELLO, { cookie })
    expect(status).toBe(200)
    expect(body).toEqual({
      operation: 'upload_plugin',
      success: 1,
      namespace: 'custom/script/hello',
      version: '1.0',
      previous_version: null,
    })
    expect(storedFiles()).toContain(join('script', 'hello.ts'))

    const list = await app.json('/api/plugins/script', { cookie })
    const hello = (list.body as any[]).find((p) => p.namespace === 'custom/script/hello')
    expect(hello).toMatchObject({ name: 'Hello', type: 'script', origin: 'sideloaded' })

    const run = await app.json('/api/plugins/use?plugin=custom/script/hello&arg=you', {
      method: 'POST',
      cookie,
    })
    expect(run.status).toBe(200)
    expect(run.body).toMatchObject({ success: 1, type: 'script', data: 'hello you' })
  })

  it('replaces a plugin uploaded again under its name, answering both versions', async () => {
    const first = await upload('taken.ts', HELLO, { cookie })
    expect(first.body).toMatchObject({ version: '1.0', previous_version: null })
    await app.json('/api/plugins/settings?namespace=custom/script/taken', {
      method: 'PUT',
      json: { enabled: true },
      cookie,
    })
    const again = HELLO.replace("'hello '", "'changed '").replace('"1.0"', '"1.1"')
    const { status, body } = await upload('taken.ts', again, { cookie })
    expect(status).toBe(200)
    expect(body).toEqual({
      operation: 'upload_plugin',
      success: 1,
      namespace: 'custom/script/taken',
      version: '1.1',
      previous_version: '1.0',
    })
    expect(await Bun.file(join(customDir(), 'script', 'taken.ts')).text()).toBe(again)
    expect(storedFiles().filter((f) => f.includes('taken') || f.endsWith('.tmp'))).toEqual([
      join('script', 'taken.ts'),
    ])
    const list = (await app.json<any[]>('/api/plugins/script', { cookie })).body
    expect(list.find((p) => p.namespace === 'custom/script/taken')).toMatchObject({
      version: '1.1',
    })
    // The new code runs, and the settings stay.
    const run = await app.json('/api/plugins/use?plugin=custom/script/taken&arg=you', {
      method: 'POST',
      cookie,
    })
    expect(run.body).toMatchObject({ success: 1, data: 'changed you' })
    const settings = await app.json('/api/plugins/settings?namespace=custom/script/taken', {
      cookie,
    })
    expect(settings.body).toMatchObject({ enabled: true })
  })

  it('a replacement that is not a valid plugin is refused and keeps the installed file', async () => {
    await upload('kept.ts', HELLO, { cookie })
    const before = await Bun.file(join(customDir(), 'script', 'kept.ts')).text()
    const broken = await upload('kept.ts', 'export function pluginInfo() { return {} }', {
      cookie,
    })
    expect(broken.status).toBe(400)
    expect(await Bun.file(join(customDir(), 'script', 'kept.ts')).text()).toBe(before)
  })

  it('answers 400 Env for a file that is not .ts, and stores nothing', async () => {
    const before = storedFiles()
    for (const name of ['plugin.js', 'types.d.ts', 'bad name.ts']) {
      const { status, body } = await upload(name, HELLO, { cookie })
      expect(status).toBe(400)
      expect(body).toMatchObject({ operation: 'upload_plugin', success: 0 })
      expect(body.error).toContain(name)
    }
    expect(storedFiles()).toEqual(before)
  })

  it('answers 400 Env naming what is wrong with the manifest, and stores nothing', async () => {
    const before = storedFiles()
    const noVersion = `export function pluginInfo() { return { name: 'No version', type: 'metadata' } }`
    const bad = await upload('noversion.ts', noVersion, { cookie })
    expect(bad.status).toBe(400)
    expect(bad.body.error).toContain('version')

    const badType = await upload('badtype.ts', info({ name: 'X', type: 'nope' }), { cookie })
    expect(badType.status).toBe(400)
    expect(badType.body.error).toContain('type')

    const throws = await upload(
      'throws.ts',
      'export function pluginInfo() { throw new Error("boom") }',
      {
        cookie,
      },
    )
    expect(throws.status).toBe(400)
    expect(throws.body.error).toContain('boom')
    expect(storedFiles()).toEqual(before)
  })

  it('names the file, line and column of a syntax error, even one Bun calls "Parse error"', async () => {
    const source = HELLO + 'export const f = (a: number => a\n'
    const { status, body } = await upload('unparsed.ts', source, { cookie })
    expect(status).toBe(400)
    expect(body.error).toBe(
      'Not a valid plugin: unparsed.ts:3:29: SyntaxError: Expected ")" but found "=>"',
    )
    expect(storedFiles()).not.toContain(join('script', 'unparsed.ts'))
  })

  it('answers 400 without a file part and 413 past the size cap', async () => {
    const empty = await app.json('/api/plugins/upload', {
      method: 'POST',
      body: new FormData(),
      cookie,
    })
    expect(empty.status).toBe(400)
    const huge = await upload('huge.ts', `// ${'x'.repeat(1024 * 1024)}\n${HELLO}`, { cookie })
    expect(huge.status).toBe(413)
    expect(huge.body).toMatchObject({ operation: 'upload_plugin', success: 0 })
    expect(storedFiles()).not.toContain(join('script', 'huge.ts'))
  })

  it('is refused without credentials (401) and to a guest token (403)', async () => {
    const anonymous = await upload('anon.ts', HELLO, {})
    expect(anonymous.status).toBe(401)
    const asGuest = await upload('guest.ts', HELLO, { token: guest })
    expect(asGuest.status).toBe(403)
    expect(storedFiles()).not.toContain(join('script', 'anon.ts'))
    expect(storedFiles()).not.toContain(join('script', 'guest.ts'))
  })
})

describe('DELETE /api/plugins', () => {
  it('deletes an uploaded plugin: its file, its listing and its settings', async () => {
    await upload('gone.ts', HELLO, { cookie })
    await app.json('/api/plugins/settings?namespace=custom/script/gone', {
      method: 'PUT',
      json: { enabled: true },
      cookie,
    })
    const { status, body } = await app.json('/api/plugins?namespace=custom/script/gone', {
      method: 'DELETE',
      cookie,
    })
    expect(status).toBe(200)
    expect(body).toEqual({
      operation: 'delete_plugin',
      success: 1,
      namespace: 'custom/script/gone',
      version: '1.0',
    })
    expect(storedFiles()).not.toContain(join('script', 'gone.ts'))
    const list = (await app.json<any[]>('/api/plugins/script', { cookie })).body
    expect(list.map((p) => p.namespace)).not.toContain('custom/script/gone')
    const run = await app.json('/api/plugins/use?plugin=custom/script/gone', {
      method: 'POST',
      cookie,
    })
    expect(run.body).toMatchObject({ success: 0, error: 'Plugin not found on system.' })
    // Uploaded again, it starts from the defaults: the old settings went with it.
    await upload('gone.ts', HELLO, { cookie })
    const settings = await app.json('/api/plugins/settings?namespace=custom/script/gone', {
      cookie,
    })
    expect(settings.body).toMatchObject({ enabled: false })
  })

  it('refuses a built-in plugin (400 Env) and keeps it; an unknown one is a 400 Env', async () => {
    const builtin = await app.json('/api/plugins?namespace=metadata/comicinfo', {
      method: 'DELETE',
      cookie,
    })
    expect(builtin.status).toBe(400)
    expect(builtin.body).toMatchObject({ operation: 'delete_plugin', success: 0 })
    expect(builtin.body.error).toContain('built in')
    const list = (await app.json<any[]>('/api/plugins/metadata', { cookie })).body
    expect(list.map((p) => p.namespace)).toContain('metadata/comicinfo')
    const unknown = await app.json('/api/plugins?namespace=custom/script/nothing', {
      method: 'DELETE',
      cookie,
    })
    expect(unknown.status).toBe(400)
    expect(unknown.body).toMatchObject({ operation: 'delete_plugin', success: 0 })
  })

  it('is refused without credentials (401) and to a guest token (403)', async () => {
    await upload('stays.ts', HELLO, { cookie })
    const anonymous = await app.json('/api/plugins?namespace=custom/script/stays', {
      method: 'DELETE',
    })
    expect(anonymous.status).toBe(401)
    const asGuest = await app.json('/api/plugins?namespace=custom/script/stays', {
      method: 'DELETE',
      token: guest,
    })
    expect(asGuest.status).toBe(403)
    expect(storedFiles()).toContain(join('script', 'stays.ts'))
  })
})

describe('GET /api/plugins/export', () => {
  it('answers a zip named after the last namespace component, holding its source', async () => {
    await upload('exported.ts', HELLO, { cookie })
    const res = await app.req('/api/plugins/export?namespace=custom/script/exported', {
      token: guest,
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/zip')
    expect(res.headers.get('content-disposition')).toContain('filename="exported.zip"')
    const entries = await unzip(new Uint8Array(await res.arrayBuffer()))
    expect([...entries.keys()]).toEqual(['exported.ts'])
    expect(entries.get('exported.ts')).toBe(HELLO)
  })

  it('exports a built-in plugin and answers 400 Env for an unknown namespace', async () => {
    const res = await app.req('/api/plugins/export?namespace=metadata/comicinfo', { cookie })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-disposition')).toContain('filename="comicinfo.zip"')
    const entries = await unzip(new Uint8Array(await res.arrayBuffer()))
    expect(entries.get('comicinfo.ts')).toBe(
      await Bun.file(
        join(import.meta.dir, '..', '..', 'plugins', 'metadata', 'comicinfo.ts'),
      ).text(),
    )
    const unknown = await app.json('/api/plugins/export?namespace=custom/script/nope', { cookie })
    expect(unknown.status).toBe(400)
    expect(unknown.body).toMatchObject({ operation: 'export_plugin', success: 0 })
  })
})

describe('POST /api/plugins/export-batch', () => {
  it('packs each plugin under its full namespace path', async () => {
    await upload('batched.ts', HELLO, { cookie })
    const res = await app.req('/api/plugins/export-batch', {
      method: 'POST',
      json: {
        namespaces: ['custom/script/batched', 'metadata/comicinfo', 'custom/script/batched'],
      },
      cookie,
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-disposition')).toContain('filename="plugins.zip"')
    const entries = await unzip(new Uint8Array(await res.arrayBuffer()))
    expect([...entries.keys()]).toEqual(['custom/script/batched.ts', 'metadata/comicinfo.ts'])
    expect(entries.get('custom/script/batched.ts')).toBe(HELLO)
  })

  it('answers 400 Env for an unknown namespace or an empty list, 403 to a guest', async () => {
    const post = (json: unknown, auth: { cookie?: string; token?: string } = { cookie }) =>
      app.json('/api/plugins/export-batch', { method: 'POST', json, ...auth })
    const unknown = await post({ namespaces: ['metadata/comicinfo', 'custom/script/nope'] })
    expect(unknown.status).toBe(400)
    expect(unknown.body).toMatchObject({ operation: 'export_plugins', success: 0 })
    expect(unknown.body.error).toContain('custom/script/nope')
    expect((await post({ namespaces: [] })).status).toBe(400)
    expect((await post({})).status).toBe(400)
    expect((await post({ namespaces: ['metadata/comicinfo'] }, { token: guest })).status).toBe(403)
    expect((await post({ namespaces: ['metadata/comicinfo'] }, {})).status).toBe(401)
  })
})
