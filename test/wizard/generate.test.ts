// POST /api/plugin-wizard/generate/start and GET .../generate/stream/{id}: a plugin written by a
// fake language-model provider on 127.0.0.1, read with a real client (the fetch body reader), on
// good, malformed and slow answers, and without a key.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { createApiToken } from '../../src/domain/auth/tokens.ts'
import { startTestServer, type TestServer } from '../helpers/server.ts'
import { startFakeProvider, type FakeProvider } from './fake-provider.ts'

const PLUGIN = `/// <reference path="sdk.d.ts" />

export function pluginInfo(): PluginInfo {
  return {
    name: 'Example downloader',
    author: 'wizard',
    description: 'Archives of example.com galleries',
    version: '1.0',
    type: 'download',
    url_regex: '^https://example\\\\.com/g/\\\\d+',
    hosts: ['example.com'],
  }
}

export async function execDownload(ctx: PluginContext): Promise<DownloadResult | PluginError> {
  const page = await fetch(ctx.url!)
  const link = html.selectOne(await page.text(), 'a.download[href]')
  if (!link) return { error: 'No download link' }
  return { downloads: [{ url: new URL(link.attr('href')!, ctx.url).href }] }
}
`
const ANSWER = `Here is the plugin:\n\n\`\`\`ts\n${PLUGIN}\`\`\`\n\nSave it as example.ts.`

type SseEvent = { event: string; data: any }

/** Reads a whole event stream with the fetch body reader, event by event. */
async function readEvents(response: Response): Promise<SseEvent[]> {
  const events: SseEvent[] = []
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ''
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    buffer += value
    let end: number
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      const event = /^event: (.*)$/m.exec(block)?.[1]
      const data = /^data: (.*)$/m.exec(block)?.[1]
      if (event && data !== undefined) events.push({ event, data: JSON.parse(data) })
    }
  }
  return events
}

let provider: FakeProvider
let app: TestServer
let cookie: string

beforeAll(async () => {
  provider = startFakeProvider()
  app = await startTestServer({
    config: { llmBaseUrl: provider.baseUrl, llmApiKey: 'test-key', llmModel: 'fake-model' },
  })
  cookie = await app.login()
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
  await provider[Symbol.asyncDispose]()
})

async function start(body: unknown = { type: 'download', description: 'example.com galleries' }) {
  return app.json('/api/plugin-wizard/generate/start', { method: 'POST', json: body, cookie })
}

async function generate(body?: unknown): Promise<SseEvent[]> {
  const started = await start(body)
  expect(started.status).toBe(200)
  const response = await app.req(
    `/api/plugin-wizard/generate/stream/${started.body.generation_id}`,
    { cookie },
  )
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toStartWith('text/event-stream')
  return readEvents(response)
}

describe('generate/start and generate/stream/{id}', () => {
  it('streams the code as the model writes it, checks it, and ends with done and end', async () => {
    provider.answer({ kind: 'good', content: ANSWER })
    const events = await generate()
    const names = events.map((e) => e.event)
    expect(names.slice(0, 2)).toEqual(['status', 'status'])
    expect(names.slice(-2)).toEqual(['done', 'end'])
    const deltas = events.filter((e) => e.event === 'delta')
    expect(deltas.length).toBeGreaterThan(1)
    expect(deltas.map((e) => e.data.text).join('')).toBe(ANSWER)
    const done = events.at(-2)!.data
    // The fences and the prose around them are gone; the checks ran in the sandbox.
    expect(done.source).toBe(PLUGIN)
    expect(done).toMatchObject({
      namespace: 'custom/download/example-downloader',
      filename: 'example-downloader.ts',
      type: 'download',
      check: { ok: true, errors: [] },
    })
    // Nothing is installed by a generation.
    expect(existsSync(join(app.root, 'data', 'plugins', 'custom', 'download'))).toBe(false)
  })

  it('gives the model the contract and the request as sent', async () => {
    provider.answer({ kind: 'good', content: ANSWER })
    await generate({ type: 'download', description: 'gallery zips', notes: 'needs a login' })
    const asked = provider.requests.at(-1)!
    expect(asked.stream).toBe(true)
    expect(asked.authorization).toBe('Bearer test-key')
    const system = asked.messages.find((m) => m.role === 'system')!.content
    expect(system).toContain('declare function fetch')
    expect(system).toContain('execDownload')
    const user = asked.messages.find((m) => m.role === 'user')!.content
    expect(user).toContain('"notes": "needs a login"')
  })

  it('is single use: a second open yields generation_not_found, then end', async () => {
    provider.answer({ kind: 'good', content: ANSWER })
    const started = await start()
    const id = started.body.generation_id
    await readEvents(await app.req(`/api/plugin-wizard/generate/stream/${id}`, { cookie }))
    const again = await app.req(`/api/plugin-wizard/generate/stream/${id}`, { cookie })
    expect(again.status).toBe(200)
    const events = await readEvents(again)
    expect(events.map((e) => e.event)).toEqual(['error', 'end'])
    expect(events[0]!.data.code).toBe('generation_not_found')
  })

  it('yields generation_not_found for an unknown id', async () => {
    const response = await app.req('/api/plugin-wizard/generate/stream/nope', { cookie })
    const events = await readEvents(response)
    expect(events.map((e) => [e.event, e.data.code])).toEqual([
      ['error', 'generation_not_found'],
      ['end', undefined],
    ])
  })

  it('answers done with the failed checks when the code is not a valid plugin', async () => {
    provider.answer({
      kind: 'good',
      content:
        "```ts\nexport function pluginInfo() { return { name: 'x', type: 'download' } }\n```",
    })
    const events = await generate()
    const done = events.find((e) => e.event === 'done')!.data
    expect(done.check.ok).toBe(false)
    expect(done.check.errors[0]).toMatch(/^Not a valid plugin: version/)
    expect(done.namespace).toBeNull()
  })

  it('answers done with the failed checks when the answer is not code at all', async () => {
    provider.answer({ kind: 'good', content: 'I cannot write that plugin {{{' })
    const events = await generate()
    const done = events.find((e) => e.event === 'done')!.data
    expect(done.source).toBe('I cannot write that plugin {{{\n')
    expect(done.check.ok).toBe(false)
    expect(done.check.errors[0]).toMatch(/^Not a valid plugin: pluginInfo\(\) failed: /)
  })

  it('ends a malformed provider stream with an error event, then end', async () => {
    provider.answer({ kind: 'malformed' })
    const events = await generate()
    expect(events.map((e) => e.event).slice(-2)).toEqual(['error', 'end'])
    expect(events.at(-2)!.data.code).toBe('model_failed')
    expect(events.some((e) => e.event === 'done')).toBe(false)
  })

  it('relays a slow answer as it comes, to the end', async () => {
    provider.answer({ kind: 'slow', content: ANSWER, pauseMs: 150 })
    const events = await generate()
    expect(events.filter((e) => e.event === 'delta').length).toBeGreaterThan(1)
    expect(events.at(-2)!.data.check.ok).toBe(true)
  })

  it('stops asking the model when the client goes away', async () => {
    provider.answer({ kind: 'slow', content: ANSWER, pauseMs: 300 })
    const started = await start()
    const controller = new AbortController()
    const response = await app.req(
      `/api/plugin-wizard/generate/stream/${started.body.generation_id}`,
      { cookie, signal: controller.signal },
    )
    const reader = response.body!.getReader()
    // Wait for the first delta, then hang up.
    let text = ''
    while (!text.includes('event: delta')) {
      const { value } = await reader.read()
      text += new TextDecoder().decode(value)
    }
    controller.abort()
    await provider.cutOff
  })

  it('answers 400 for a start body that is not a JSON object', async () => {
    const { status, body } = await start([1, 2])
    expect(status).toBe(400)
    expect(body).toMatchObject({ operation: 'wizard_generate_start', success: 0 })
  })

  it('answers 413 for a start body past the store cap', async () => {
    const { status, body } = await start({ description: 'x'.repeat(70 * 1024) })
    expect(status).toBe(413)
    expect(body.success).toBe(0)
  })

  it('refuses an API token (403) on start and stream', async () => {
    const token = createApiToken(app.deps, { name: 'a', role: 'admin' }).secret
    const started = await app.json('/api/plugin-wizard/generate/start', {
      method: 'POST',
      json: { type: 'metadata' },
      token,
    })
    expect(started.status).toBe(403)
    const stream = await app.json('/api/plugin-wizard/generate/stream/x', { token })
    expect(stream.status).toBe(403)
    expect(stream.body).toMatchObject({ operation: 'wizard_generate_stream', success: 0 })
  })
})

describe('generate without a provider key', () => {
  it('answers 400 on start and stores nothing', async () => {
    await using bare = await startTestServer()
    const session = await bare.login()
    const { status, body } = await bare.json('/api/plugin-wizard/generate/start', {
      method: 'POST',
      json: { type: 'metadata', description: 'x' },
      cookie: session,
    })
    expect(status).toBe(400)
    expect(body).toEqual({
      operation: 'wizard_generate_start',
      success: 0,
      error: 'No language-model provider key is configured.',
    })
    expect(bare.deps.wizard.generations.size).toBe(0)
  })
})
