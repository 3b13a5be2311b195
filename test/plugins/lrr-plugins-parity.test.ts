// LANraragi parity for plugins: what aio-lanraragi's plugin tests (test_plugins.py, the plugin
// listing of test_simple.py, the non-registry parts of registry/test_plugin_*.py) and the
// lanraragi Python client's models expect of real LANraragi, asserted against Tankobun over HTTP.
// Their Perl test plugins become TypeScript ones with the same behaviour; requests are sent as
// that client sends them: an API key as Bearer base64, a run's params in a form body.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'

import { join } from 'node:path'
import { createApiToken } from '../../src/domain/auth/tokens.ts'
import { buildZip, makeJpeg } from '../helpers/fixtures.ts'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { sideload } from '../helpers/plugins.ts'

const info = (fields: Record<string, unknown>) =>
  `export function pluginInfo() { return ${JSON.stringify({
    author: 'LANraragi Integration Tests',
    version: '1.0',
    ...fields,
  })} }\n`

const PLUGINS: Record<string, string> = {
  // PrependAnnotatedToTitle.pm: no tags, the title with "annotated " in front.
  'metadata/annotate.ts':
    info({
      name: 'PrependAnnotatedToTitle',
      type: 'metadata',
      description: "Prepends 'annotated ' to archive title.",
      parameters: [],
    }) +
    `export function execMetadata(ctx) { return { tags: '', title: 'annotated ' + ctx.archive.title } }`,
  // InvalidPluginType.pm: a type LANraragi does not know is not a plugin it lists.
  'metadata/invalid-type.ts':
    info({ name: 'InvalidPluginType', type: 'metadata-custom', parameters: [] }) +
    `export function execMetadata() { return {} }`,
  // Tags in LANraragi's loose shape: spaces around them, one twice, some the archive already has.
  'metadata/tagger.ts':
    info({
      name: 'Tagger',
      type: 'metadata',
      parameters: [
        { name: 'strict', type: 'bool', desc: 'strict matching', default_value: false },
        { name: 'lang', type: 'string', desc: 'language', default_value: 'en' },
        { name: 'note', type: 'string' },
      ],
    }) +
    `export function execMetadata(ctx) {
      return {
        tags: ' ARTIST:kept , artist:new,artist:new,  plain ,plugin:TEST, strict:' + ctx.args.strict + ', lang:' + ctx.args.lang,
        title: '  Spaced title  ',
        summary: 'From the tagger',
      }
    }`,
  // The registry's sample-script: answers its one-shot argument as `result`.
  'script/echo.ts':
    info({ name: 'Echo', type: 'script', oneshot_arg: 'anything' }) +
    `export function runScript(ctx) { return { data: { result: ctx.oneshot } } }`,
}

let app: TestServer
let auth: Record<string, string>
let page: Uint8Array

beforeAll(async () => {
  page = await makeJpeg(16, 24, 5)
  app = await startTestServer({
    beforeStart: (contentDir) => sideload(contentDir, PLUGINS),
  })
  await app.idle()
  // The lanraragi client sends its API key base64-encoded, as LANraragi expects.
  const { secret } = createApiToken(app.deps, { name: 'aio', role: 'admin' })
  auth = { authorization: `Bearer ${btoa(secret)}` }
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

const get = (path: string) => app.json(path, { headers: auth })

/** POST with the params as a urlencoded form, as the Python client's FormData sends them. */
const postForm = (path: string, fields: Record<string, string>) =>
  app.json(path, { method: 'POST', headers: auth, body: new URLSearchParams(fields) })

/** An archive uploaded with a title and tags, as test_plugins.py does; its id. */
async function upload(marker: string, title: string, tags: string): Promise<string> {
  const zip = buildZip([
    { name: '001.jpg', data: page },
    { name: 'marker.txt', data: new TextEncoder().encode(marker) },
  ])
  const form = new FormData()
  form.set('file', new File([zip], `${marker}.zip`))
  form.set('title', title)
  form.set('tags', tags)
  const { status, body } = await app.json('/api/archives/upload', {
    method: 'PUT',
    headers: auth,
    body: form,
  })
  expect(status).toBe(200)
  return body.id as string
}

const metadataOf = async (id: string) => (await get(`/api/archives/${id}/metadata`)).body

/** An archive's tags without the date_added tag every new archive gets. */
const ownTags = async (id: string) =>
  ((await metadataOf(id)).tags as string)
    .split(', ')
    .filter((tag) => !tag.startsWith('date_added:'))
    .join(', ')

async function waitForJob(job: number): Promise<Wire> {
  await app.deps.jobs.waitFor(job)
  const { status, body } = await get(`/api/minion/${job}/detail`)
  expect(status).toBe(200)
  return body
}

describe('GET /api/plugins/:type (the client model of a plugin)', () => {
  it('lists every plugin with string fields and string-only parameters', async () => {
    for (const type of ['all', 'metadata', 'script', 'download', 'login']) {
      const { status, body } = await get(`/api/plugins/${type}`)
      expect(status).toBe(200)
      expect(Array.isArray(body)).toBe(true)
      for (const plugin of body as unknown as Wire[]) {
        for (const key of ['name', 'namespace', 'author', 'version'])
          expect([plugin.namespace, key, typeof plugin[key]]).toEqual([
            plugin.namespace,
            key,
            'string',
          ])
        expect(['download', 'login', 'metadata', 'script']).toContain(plugin.type)
        for (const key of ['description', 'oneshot_arg'])
          expect(plugin[key] === null || typeof plugin[key] === 'string').toBe(true)
        // SPEC: a base64 image as a data URI (clients put it in an img element).
        expect(plugin.icon).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/)
        // The Python client reads each parameter as a map of strings: a built-in's boolean
        // default_value must not break the whole listing.
        expect(Array.isArray(plugin.parameters)).toBe(true)
        for (const param of plugin.parameters as Wire[])
          for (const value of Object.values(param))
            expect([plugin.namespace, typeof value]).toEqual([plugin.namespace, 'string'])
      }
    }
  })

  it('shows a default_value as its text, desc always, and keeps the typed value for settings', async () => {
    const { body } = await get('/api/plugins/metadata')
    const tagger = (body as unknown as Wire[]).find((p) => p.namespace === 'custom/metadata/tagger')
    expect(tagger?.parameters).toEqual([
      { name: 'strict', type: 'bool', desc: 'strict matching', default_value: 'false' },
      { name: 'lang', type: 'string', desc: 'language', default_value: 'en' },
      { name: 'note', type: 'string', desc: '' },
    ])
    const settings = await get('/api/plugins/settings?namespace=custom/metadata/tagger')
    expect(settings.body.customargs).toEqual([false, 'en', ''])
  })

  it('lists the test plugin under metadata, and not a plugin of an unknown type', async () => {
    const metadata = ((await get('/api/plugins/metadata')).body as unknown as Wire[]).map(
      (p) => p.namespace,
    )
    expect(metadata).toContain('custom/metadata/annotate')
    const all = ((await get('/api/plugins/all')).body as unknown as Wire[]).map((p) => p.namespace)
    expect(all).not.toContain('custom/metadata/invalid-type')
    expect(metadata).not.toContain('custom/metadata/invalid-type')
  })
})

describe('POST /api/plugins/use', () => {
  it('runs the annotate plugin from a form body and proposes the title without writing it', async () => {
    const id = await upload('annotate', 'plugin title', 'plugin:test')
    expect((await metadataOf(id)).title).toBe('plugin title')
    const { status, body } = await postForm('/api/plugins/use', {
      plugin: 'custom/metadata/annotate',
      id,
    })
    expect(status).toBe(200)
    expect(body).toEqual({
      operation: 'use_plugin',
      success: 1,
      type: 'metadata',
      data: { new_tags: '', title: 'annotated plugin title' },
    })
    expect((await metadataOf(id)).title).toBe('plugin title')
    expect(await ownTags(id)).toBe('plugin:test')
    // A multipart form and the query string are read the same way.
    const multipart = new FormData()
    multipart.set('plugin', 'custom/metadata/annotate')
    multipart.set('id', id)
    const fromMultipart = await app.json('/api/plugins/use', {
      method: 'POST',
      headers: auth,
      body: multipart,
    })
    expect(fromMultipart.body).toEqual(body)
    const fromQuery = await app.json(`/api/plugins/use?plugin=custom/metadata/annotate&id=${id}`, {
      method: 'POST',
      headers: auth,
    })
    expect(fromQuery.body).toEqual(body)
  })

  it('answers an unknown plugin with 200 and "Plugin not found on system."', async () => {
    const id = await upload('unknown', 'plugin title', 'plugin:test')
    const asked: Record<string, string>[] = [{ plugin: 'does-not-exist', id }, { id }]
    for (const fields of asked) {
      const { status, body } = await postForm('/api/plugins/use', fields)
      expect(status).toBe(200)
      expect(body).toEqual({
        operation: 'use_plugin',
        success: 0,
        type: null,
        error: 'Plugin not found on system.',
        data: { error: 'Plugin not found on system.' },
      })
    }
  })

  it('answers a metadata run without an archive id with LANraragi error, at 200', async () => {
    const { status, body } = await postForm('/api/plugins/use', {
      plugin: 'custom/metadata/annotate',
    })
    expect(status).toBe(200)
    expect(body).toEqual({
      operation: 'use_plugin',
      success: 0,
      type: 'metadata',
      error: 'Tried to call a metadata plugin without providing an id.',
      data: { error: 'Tried to call a metadata plugin without providing an id.' },
    })
  })

  it('proposes as new_tags only the trimmed tags the archive lacks, and a trimmed title', async () => {
    const id = await upload('tagger-use', 'Tagged', 'plugin:test, artist:Kept')
    const { body } = await postForm('/api/plugins/use', { plugin: 'custom/metadata/tagger', id })
    expect(body).toMatchObject({ success: 1, type: 'metadata' })
    expect(body.data).toEqual({
      new_tags: 'artist:new, plain, strict:false, lang:en',
      title: 'Spaced title',
      summary: 'From the tagger',
    })
    expect(await ownTags(id)).toBe('plugin:test, artist:Kept')
  })

  it("answers a script plugin's own result as data, with its one-shot argument", async () => {
    const { status, body } = await postForm('/api/plugins/use', {
      plugin: 'custom/script/echo',
      arg: 'ping-1',
    })
    expect(status).toBe(200)
    expect(body).toEqual({
      operation: 'use_plugin',
      success: 1,
      type: 'script',
      data: { result: 'ping-1' },
    })
  })
})

describe('POST /api/plugins/queue and the job', () => {
  it('queues from a form body; the job reports type, success and data, and merges the tags', async () => {
    const id = await upload('tagger-queue', 'Queued', 'plugin:test, artist:Kept')
    const { status, body } = await postForm('/api/plugins/queue', {
      plugin: 'custom/metadata/tagger',
      id,
    })
    expect(status).toBe(200)
    expect(body).toEqual({ operation: 'queue_plugin_exec', success: 1, job: expect.any(Number) })
    const detail = await waitForJob(body.job)
    expect(detail).toMatchObject({
      id: body.job,
      task: 'plugin_exec',
      state: 'finished',
      result: {
        type: 'metadata',
        success: 1,
        data: {
          new_tags: 'artist:new, plain, strict:false, lang:en',
          title: 'Spaced title',
          summary: 'From the tagger',
        },
      },
    })
    // The fields of Minion's job info that the Python client's detail model requires.
    expect(detail).toMatchObject({
      args: expect.any(Array),
      attempts: expect.any(Number),
      children: [],
      parents: [],
      created: expect.stringMatching(/^\d+$/),
      delayed: expect.stringMatching(/^\d+$/),
      finished: expect.stringMatching(/^\d+$/),
      started: expect.stringMatching(/^\d+$/),
      notes: expect.any(Object),
      priority: 0,
      queue: 'default',
      retries: 0,
      worker: expect.any(Number),
    })
    const status2 = await get(`/api/minion/${body.job}`)
    expect(status2.body).toMatchObject({ state: 'finished', task: 'plugin_exec', notes: {} })
    // The new tags are appended after the archive's own, which stay as they were.
    expect(await metadataOf(id)).toMatchObject({
      title: 'Spaced title',
      summary: 'From the tagger',
    })
    expect(await ownTags(id)).toBe(
      'plugin:test, artist:Kept, artist:new, plain, strict:false, lang:en',
    )
  })

  it('takes the priority from the form body as well', async () => {
    const id = await upload('tagger-priority', 'Prioritised', '')
    const { body } = await postForm('/api/plugins/queue', {
      plugin: 'custom/metadata/annotate',
      id,
      priority: '5',
    })
    expect(app.deps.jobs.get(body.job)?.priority).toBe(5)
    expect((await waitForJob(body.job)).priority).toBe(5)
  })
})

describe('plugin settings round trip', () => {
  const path = '/api/plugins/settings?namespace=custom/metadata/tagger'

  it('answers a PUT as the next GET, and the run reads the saved arguments by name', async () => {
    const put = await app.json(path, {
      method: 'PUT',
      headers: auth,
      json: { customargs: [true, 'fr', 'kept'], enabled: false },
    })
    expect(put.status).toBe(200)
    expect(put.body).toEqual({
      operation: 'update_plugin_settings',
      success: 1,
      customargs: [true, 'fr', 'kept'],
      enabled: false,
    })
    const got = await get(path)
    expect(got.body).toEqual({ ...put.body, operation: 'get_plugin_settings' })
    const id = await upload('tagger-settings', 'Configured', '')
    const { body } = await postForm('/api/plugins/use', { plugin: 'custom/metadata/tagger', id })
    expect(body.data.new_tags).toContain('strict:true, lang:fr')
    // The listing still shows the declared default, not the saved value.
    const list = (await get('/api/plugins/metadata')).body as unknown as Wire[]
    const tagger = list.find((p) => p.namespace === 'custom/metadata/tagger')
    expect(tagger?.parameters[0].default_value).toBe('false')
  })
})
