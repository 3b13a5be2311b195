// Without a provider key the model routes answer 400 Env and everything else works (the scripts
// and split suggestions without the model, the ignore list); a key set in the settings turns the
// features on, and the key is never in an answer nor in the log.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { setLogLevel, setLogSink } from '../../src/log.ts'
import { groupKey } from '../../src/domain/collections/group-suggestions.ts'
import { expectAppError } from '../helpers/expect.ts'
import { makeCbz } from '../helpers/fixtures.ts'
import { seedArchive, seedTankoubon } from '../helpers/seed.ts'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { startFakeProvider, type FakeProvider } from './fake-provider.ts'

const KEY = 'sk-settings-secret-9090'
const NO_KEY = 'No language-model provider key is configured.'

let provider: FakeProvider
let app: TestServer
let cookie: string
let tank: string
let archives: string[]
let split: string

beforeAll(async () => {
  provider = startFakeProvider()
  // A base URL and model, but no key: still not configured.
  app = await startTestServer({
    config: { llmBaseUrl: provider.baseUrl, llmModel: 'fake-model', llmTimeoutMs: 300 },
    beforeStart: async (dir) => {
      mkdirSync(join(dir, 'Folder'))
      await makeCbz(join(dir, 'Folder', 'One.cbz'))
      await makeCbz(join(dir, 'Split.cbz'), { names: ['A/001.jpg', 'B/001.jpg'] })
    },
  })
  cookie = await app.login()
  await app.idle()
  split = (await app.json<Wire[]>('/api/archives', { cookie })).body.find(
    (a) => a.filename === 'Split',
  )!.arcid
  archives = ['Night Walk Vol. 1', 'Night Walk Vol. 2'].map(
    (title) => seedArchive(app.deps, { title }).id,
  )
  tank = seedTankoubon(app.deps, { name: 'walks', members: [seedArchive(app.deps).id] })
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
  await provider[Symbol.asyncDispose]()
})

const post = (path: string, json?: unknown) => app.json(path, { method: 'POST', cookie, json })

describe('without a provider key', () => {
  it('key-status says so', async () => {
    expect((await app.json('/api/llm/key-status', { cookie })).body).toEqual({ configured: false })
  })

  it('the three model routes answer 400 Env, and the provider is never called', async () => {
    provider.requests.length = 0
    for (const [path, json, operation] of [
      [`/api/tankoubons/${tank}/ai/rename-suggestions`, undefined, 'ai_rename_suggestions'],
      [`/api/tankoubons/${tank}/ai/rename-chapter`, { archive_index: 0 }, 'ai_rename_chapter'],
      ['/api/tankoubons/ai-group-suggestions', undefined, 'ai_group_suggestions'],
    ] as const) {
      const error = await expectAppError(await post(path, json), 400, operation)
      expect(error).toBe(NO_KEY)
    }
    expect(provider.requests).toHaveLength(0)
  })

  it('subfolders-to-tankoubons uses the folder name, split suggestions the folders', async () => {
    const script = await post('/api/database/scripts/subfolders-to-tankoubons')
    expect(script.status).toBe(200)
    expect(script.body.tankoubons).toMatchObject([{ name: 'Folder', tags: '' }])
    const analysed = await post(`/api/archives/${split}/split-suggestion`)
    expect(analysed.status).toBe(200)
    expect(analysed.body.method).toBe('folders')
    expect(provider.requests).toHaveLength(0)
  })

  it('ignoring suggestions works without a key', async () => {
    const res = await post('/api/tankoubons/ai-group-suggestions/ignore', { archives })
    expect(res.body).toMatchObject({ success: 1, key: groupKey(archives) })
    const list = await app.json('/api/tankoubons/ai-group-suggestions/ignored', { cookie })
    expect(list.body.ignored.map((e: Wire) => e.key)).toEqual([groupKey(archives)])
  })
})

describe('a key set in the settings', () => {
  it('turns the features on; GET /api/settings and the log never show the key', async () => {
    const lines: string[] = []
    setLogSink((line) => lines.push(line))
    setLogLevel('debug')
    try {
      const put = await app.req('/api/settings', {
        method: 'PUT',
        cookie,
        json: { llm_api_key: KEY },
      })
      expect(put.status).toBe(200)
      expect(await put.text()).not.toContain(KEY)
      expect((await app.json('/api/llm/key-status', { cookie })).body).toEqual({ configured: true })

      provider.requests.length = 0
      provider.reply = { json: { name: 'Walks', chapters: ['Walk 1'] } }
      const renamed = await post(`/api/tankoubons/${tank}/ai/rename-suggestions`)
      expect(renamed.body).toMatchObject({ success: 1, name: 'Walks' })
      expect(provider.requests[0]!.authorization).toBe(`Bearer ${KEY}`)

      // A provider that refuses the key and repeats it back: logged, but never the key.
      provider.reply = {
        status: 401,
        body: JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY}` } }),
      }
      const refused = await app.req(`/api/tankoubons/${tank}/ai/rename-suggestions`, {
        method: 'POST',
        cookie,
      })
      expect(refused.status).toBe(502)
      expect(await refused.text()).not.toContain(KEY)

      const settings = await app.req('/api/settings', { cookie })
      const text = await settings.text()
      expect(text).not.toContain(KEY)
      expect(JSON.parse(text)).toMatchObject({
        llm_api_key_set: true,
        llm_base_url: null,
        llm_model: null,
      })
      expect(lines.some((l) => l.includes('language-model provider error'))).toBe(true)
      expect(lines.filter((l) => l.includes(KEY))).toEqual([])
    } finally {
      setLogSink((line) => process.stderr.write(line + '\n'))
      setLogLevel('silent')
    }
  })

  it('base URL and model from the settings win over the environment', async () => {
    const other = startFakeProvider()
    try {
      other.reply = { json: { name: 'From settings', chapters: ['x'] } }
      const put = await app.json('/api/settings', {
        method: 'PUT',
        cookie,
        json: { llm_base_url: other.baseUrl, llm_model: 'settings-model' },
      })
      expect(put.body).toMatchObject({ llm_base_url: other.baseUrl, llm_model: 'settings-model' })
      const renamed = await post(`/api/tankoubons/${tank}/ai/rename-suggestions`)
      expect(renamed.body.name).toBe('From settings')
      expect(other.requests[0]!.body.model).toBe('settings-model')
      // Cleared again: back to the environment's.
      await app.json('/api/settings', {
        method: 'PUT',
        cookie,
        json: { llm_api_key: null, llm_base_url: null, llm_model: null },
      })
      expect((await app.json('/api/llm/key-status', { cookie })).body).toEqual({
        configured: false,
      })
    } finally {
      await other[Symbol.asyncDispose]()
    }
  })
})

describe('POST /api/database/drop', () => {
  it('forgets the ignored group suggestions (their ids come back with the rescan)', async () => {
    const before = await app.json('/api/tankoubons/ai-group-suggestions/ignored', { cookie })
    expect(before.body.ignored.length).toBeGreaterThan(0)
    expect((await post('/api/database/drop')).status).toBe(200)
    cookie = await app.login()
    const after = await app.json('/api/tankoubons/ai-group-suggestions/ignored', { cookie })
    expect(after.body.ignored).toEqual([])
  })
})
