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
      mkdirSync(join(dir, 'Red Moon'))
      await makeCbz(join(dir, 'Red Moon', 'Red Moon 01.cbz'))
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

/** Runs the script; the Tankoubons it made by their archive count (Blue Sky 2, Red Moon 1). */
async function subfolders(reply: FakeProvider['reply']): Promise<{ blue: Wire; red: Wire }> {
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
  expect(body.created).toBe(2)
  const byCount = (n: number) => (body.tankoubons as Wire[]).find((t) => t.archives === n)!
  return { blue: byCount(2), red: byCount(1) }
}

describe('subfolders-to-tankoubons with a provider', () => {
  it('names each Tankoubon and tags its author from the model', async () => {
    const { blue, red } = await subfolders((body) =>
      JSON.stringify(body.messages).includes('Blue Sky v02.cbz')
        ? { json: { name: 'Blue Sky', author_tag: 'artist:ann' } }
        : { json: { name: 'Red Moon', author_tag: 'circle:moon works' } },
    )
    expect(blue).toMatchObject({ name: 'Blue Sky', tags: 'artist:ann', archives: 2 })
    expect(red).toMatchObject({ name: 'Red Moon', tags: 'circle:moon works', archives: 1 })
    expect(provider.requests).toHaveLength(2)
    const stored = await app.json(`/api/tankoubons/${blue.id}`, { cookie })
    expect(stored.body).toMatchObject({ name: 'Blue Sky', tags: 'artist:ann' })
  })

  it('keeps the name without a tag when the model is unsure (author_tag null)', async () => {
    const { blue } = await subfolders({ json: { name: 'Blue Sky', author_tag: null } })
    expect(blue).toMatchObject({ name: 'Blue Sky', tags: '' })
  })

  it('falls back to the folder name and no tag on a malformed answer, folder by folder', async () => {
    for (const reply of [
      { content: 'Blue Sky by Ann' },
      { json: { name: 'Blue Sky', author_tag: 'author:ann' } },
      { json: { title: 'Blue Sky' } },
    ] satisfies Reply[]) {
      const { blue, red } = await subfolders(reply)
      expect(blue).toMatchObject({ name: '[Ann] Blue Sky (Digital)', tags: '' })
      expect(red).toMatchObject({ name: 'Red Moon', tags: '' })
      // An invalid answer for one folder does not stop the model being asked for the next.
      expect(provider.requests).toHaveLength(2)
    }
  })

  it('falls back to folder names when the provider fails or is too slow, asking it once', async () => {
    for (const reply of [SLOW, { status: 401 }] satisfies Reply[]) {
      const { blue, red } = await subfolders(reply)
      expect(blue).toMatchObject({ name: '[Ann] Blue Sky (Digital)', tags: '' })
      expect(red).toMatchObject({ name: 'Red Moon', tags: '' })
      expect(provider.requests).toHaveLength(1)
    }
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
