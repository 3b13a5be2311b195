// The two seams the language model fills, through the real server with a fake provider on
// 127.0.0.1: subfolders-to-tankoubons naming (best effort: any failure keeps the folder name) and
// split suggestions regrouped by the model (any failure keeps the folder suggestion).
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { makeCbz } from '../helpers/fixtures.ts'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { startFakeProvider, userPrompt, type FakeProvider, type Reply } from './fake-provider.ts'

const KEY = 'sk-scripts-test-secret-5150'
const SLOW: Reply = { delayMs: 1500, then: { json: {} } }

let provider: FakeProvider
let app: TestServer
let cookie: string
let omnibus: string

beforeAll(async () => {
  provider = startFakeProvider()
  app = await startTestServer({
    config: {
      llmBaseUrl: provider.baseUrl,
      llmApiKey: KEY,
      llmModel: 'fake-model',
      llmTimeoutMs: 300,
    },
    beforeStart: async (dir) => {
      mkdirSync(join(dir, '[Ann] Blue Sky (Digital)'))
      await makeCbz(join(dir, '[Ann] Blue Sky (Digital)', 'Blue Sky v01.cbz'))
      await makeCbz(join(dir, '[Ann] Blue Sky (Digital)', 'Blue Sky v02.cbz'))
      await makeCbz(join(dir, 'Omnibus.cbz'), {
        names: ['Vol 1/001.jpg', 'Vol 1/002.jpg', 'Vol 1/extras/001.jpg', 'Vol 2/001.jpg'],
      })
    },
  })
  cookie = await app.login()
  await app.idle()
  const list = await app.json<Wire[]>('/api/archives', { cookie })
  omnibus = list.body.find((a) => a.filename === 'Omnibus')!.arcid
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
  await provider[Symbol.asyncDispose]()
})

async function subfolders(reply: Reply): Promise<Wire> {
  provider.requests.length = 0
  provider.reply = reply
  const res = await app.req('/api/database/scripts/subfolders-to-tankoubons', {
    method: 'POST',
    cookie,
  })
  const text = await res.text()
  expect(res.status).toBe(200)
  expect(text).not.toContain(KEY)
  const body = JSON.parse(text) as Wire
  expect(body.created).toBe(1)
  return body.tankoubons[0]
}

describe('subfolders-to-tankoubons with a provider', () => {
  it('names the Tankoubon and tags its author from the model', async () => {
    const made = await subfolders({ json: { name: 'Blue Sky', author_tag: 'artist:ann' } })
    expect(made).toMatchObject({ name: 'Blue Sky', tags: 'artist:ann', archives: 2 })
    const prompt = userPrompt(provider.requests[0]!)
    expect(prompt).toContain('[Ann] Blue Sky (Digital)')
    expect(prompt).toContain('Blue Sky v02.cbz')
    const stored = await app.json(`/api/tankoubons/${made.id}`, { cookie })
    expect(stored.body).toMatchObject({ name: 'Blue Sky', tags: 'artist:ann' })
  })

  it('keeps the name without a tag when the model is unsure (author_tag null)', async () => {
    const made = await subfolders({ json: { name: 'Blue Sky', author_tag: null } })
    expect(made).toMatchObject({ name: 'Blue Sky', tags: '' })
  })

  it('falls back to the folder name and no tag on a malformed answer', async () => {
    for (const reply of [
      { content: 'Blue Sky by Ann' },
      { json: { name: 'Blue Sky', author_tag: 'author:ann' } },
      { json: { title: 'Blue Sky' } },
      { status: 400 },
    ] satisfies Reply[]) {
      const made = await subfolders(reply)
      expect(made).toMatchObject({ name: '[Ann] Blue Sky (Digital)', tags: '' })
    }
  })

  it('falls back to the folder name when the provider is too slow', async () => {
    const made = await subfolders(SLOW)
    expect(made).toMatchObject({ name: '[Ann] Blue Sky (Digital)', tags: '' })
  })
})

describe('split suggestions with a provider', () => {
  const FOLDERS = [
    { name: 'Omnibus - Vol 1', pages: ['Vol 1/001.jpg', 'Vol 1/002.jpg'] },
    { name: 'Omnibus - extras', pages: ['Vol 1/extras/001.jpg'] },
    { name: 'Omnibus - Vol 2', pages: ['Vol 2/001.jpg'] },
  ]

  async function analyze(reply: Reply): Promise<Wire> {
    provider.requests.length = 0
    provider.reply = reply
    const res = await app.json(`/api/archives/${omnibus}/split-suggestion`, {
      method: 'POST',
      cookie,
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ operation: 'analyze_split', success: 1 })
    return res.body
  }

  it('the model regroups the folder outputs and names them', async () => {
    const body = await analyze({
      json: {
        outputs: [
          { name: 'Omnibus - Volume 1', groups: [0, 1] },
          { name: 'Omnibus - Volume 2', groups: [2] },
        ],
      },
    })
    expect(body.method).toBe('model')
    expect(body.outputs).toEqual([
      {
        name: 'Omnibus - Volume 1',
        pages: ['Vol 1/001.jpg', 'Vol 1/002.jpg', 'Vol 1/extras/001.jpg'],
      },
      { name: 'Omnibus - Volume 2', pages: ['Vol 2/001.jpg'] },
    ])
    const prompt = userPrompt(provider.requests[0]!)
    expect(prompt).toContain('1. "Omnibus - extras"')
    // GET answers what was stored.
    const stored = await app.json(`/api/archives/${omnibus}/split-suggestion`, { cookie })
    expect(stored.body).toMatchObject({ method: 'model', outputs: body.outputs })
  })

  it('keeps the folder suggestion when the plan is malformed', async () => {
    for (const reply of [
      { content: 'split it in two' },
      { json: { outputs: [{ name: 'All', groups: [0, 1] }] } },
      { json: { outputs: [{ name: 'A', groups: [0, 1, 2, 2] }] } },
      { json: { outputs: [{ name: 'A', groups: [0, 1, 2, 3] }] } },
      {
        json: {
          outputs: [
            { name: 'A', groups: [0] },
            { name: 'A', groups: [1, 2] },
          ],
        },
      },
      { json: { outputs: [] } },
    ] satisfies Reply[]) {
      const body = await analyze(reply)
      expect(body.method).toBe('folders')
      expect(body.outputs).toEqual(FOLDERS)
    }
  })

  it('keeps the folder suggestion when the provider is too slow', async () => {
    const body = await analyze(SLOW)
    expect(body).toMatchObject({ method: 'folders', outputs: FOLDERS })
  })
})
