// The language-model client against a fake provider on 127.0.0.1: JSON answers checked against a
// schema, streaming, timeouts, bounded retries, and the key kept out of every error.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { Type } from '@sinclair/typebox'
import { AppError } from '../../src/errors.ts'
import { setLogLevel } from '../../src/log.ts'
import { createLlmClient, type LlmClient } from '../../src/llm/client.ts'
import { startFakeProvider, type FakeProvider } from './fake-provider.ts'

const KEY = 'sk-client-test-secret-4242'
const Shape = Type.Object({ name: Type.String({ minLength: 1 }) })
const ask = [{ role: 'user' as const, content: 'name it' }]

let provider: FakeProvider
let client: LlmClient

beforeAll(() => {
  setLogLevel('silent')
  provider = startFakeProvider()
  client = createLlmClient({
    provider: () => ({ apiKey: KEY, baseUrl: provider.baseUrl, model: 'fake-model' }),
    timeoutMs: 300,
    retries: 2,
    backoffMs: 5,
  })
})

afterAll(async () => {
  await provider[Symbol.asyncDispose]()
})

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(AppError)
  expect((error as AppError).message).not.toContain(KEY)
  return error as AppError
}

async function collect(stream: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = []
  for await (const delta of stream) out.push(delta)
  return out
}

describe('json', () => {
  it('sends the model, the key as a bearer token and the schema, and returns the checked answer', async () => {
    provider.requests.length = 0
    provider.reply = { json: { name: 'Series' } }
    expect(await client.json(ask, Shape)).toEqual({ name: 'Series' })
    const [request] = provider.requests
    expect(request!.path).toBe('/v1/chat/completions')
    expect(request!.authorization).toBe(`Bearer ${KEY}`)
    expect(request!.body).toMatchObject({ model: 'fake-model', stream: false })
    expect(request!.body.messages[0].content).toContain('"minLength":1')
  })

  it('reads JSON a model fenced in ``` anyway', async () => {
    provider.reply = { content: '```json\n{"name": "Fenced"}\n```' }
    expect(await client.json(ask, Shape)).toEqual({ name: 'Fenced' })
  })

  it('refuses content that is not JSON, or JSON of another shape, without retrying', async () => {
    for (const content of ['Sure! The name is Series.', '{"name": ""}', '{"title": "x"}', '[1]']) {
      provider.requests.length = 0
      provider.reply = { content }
      const error = await failure(client.json(ask, Shape))
      expect(error.code).toBe('bad_gateway')
      expect(error.status).toBe(502)
      expect(error.extra?.reason).toBe('invalid_answer')
      expect(provider.requests).toHaveLength(1)
    }
  })

  it('refuses a body that is not a chat completion', async () => {
    provider.reply = { raw: '<html>gateway</html>' }
    expect((await failure(client.json(ask, Shape))).extra?.reason).toBe('invalid_answer')
    provider.reply = { raw: '{"choices": []}' }
    expect((await failure(client.json(ask, Shape))).extra?.reason).toBe('invalid_answer')
  })

  it('retries a 5xx and a 429 (Retry-After read), at most twice', async () => {
    provider.requests.length = 0
    provider.reply = (_body, n) =>
      n === 1
        ? { status: 503 }
        : n === 2
          ? { status: 429, headers: { 'retry-after': '0' } }
          : { json: { name: 'Third time' } }
    expect(await client.json(ask, Shape)).toEqual({ name: 'Third time' })
    expect(provider.requests).toHaveLength(3)

    provider.requests.length = 0
    provider.reply = { status: 500, body: '{"error": {"message": "overloaded"}}' }
    const error = await failure(client.json(ask, Shape))
    expect(provider.requests).toHaveLength(3)
    expect(error.extra).toMatchObject({ reason: 'provider_status', provider_status: 500 })
    expect(error.message).toContain('overloaded')
  })

  it('never retries another 4xx, and never passes on a key the provider echoes', async () => {
    provider.requests.length = 0
    provider.reply = {
      status: 401,
      body: JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY}` } }),
    }
    const error = await failure(client.json(ask, Shape))
    expect(provider.requests).toHaveLength(1)
    expect(error.message).toContain('Incorrect API key provided: [key]')
  })

  it('gives up on a slow provider after the timeout, without retrying', async () => {
    provider.requests.length = 0
    provider.reply = { delayMs: 2000, then: { json: { name: 'Too late' } } }
    const error = await failure(client.json(ask, Shape))
    expect(error.extra?.reason).toBe('timeout')
    expect(provider.requests).toHaveLength(1)
    // A longer budget for one call waits for it.
    provider.reply = { delayMs: 50, then: { json: { name: 'In time' } } }
    expect(await client.json(ask, Shape, { timeoutMs: 5000 })).toEqual({ name: 'In time' })
  })

  it('does not follow a redirect (the key would go with it)', async () => {
    provider.requests.length = 0
    provider.reply = { status: 307, headers: { location: 'http://127.0.0.1:9/steal' } }
    const error = await failure(client.json(ask, Shape))
    expect(error.extra).toMatchObject({ provider_status: 307 })
    expect(provider.requests).toHaveLength(1)
  })

  it('a network failure is retried, then a 502', async () => {
    const down = createLlmClient({
      provider: () => ({ apiKey: KEY, baseUrl: 'http://127.0.0.1:9/v1', model: 'm' }),
      backoffMs: 1,
    })
    const error = await failure(down.json(ask, Shape))
    expect(error.extra?.reason).toBe('network')
  })
})

describe('stream', () => {
  it('yields the content deltas until [DONE]', async () => {
    provider.requests.length = 0
    provider.reply = { stream: ['export ', 'default ', '{}'] }
    expect(await collect(client.stream(ask))).toEqual(['export ', 'default ', '{}'])
    expect(provider.requests[0]!.body).toMatchObject({ stream: true, model: 'fake-model' })
  })

  it('fails on an event that is not JSON, and on an error event', async () => {
    provider.reply = { stream: ['a'], events: ['{not json'] }
    expect((await failure(collect(client.stream(ask)))).extra?.reason).toBe('invalid_answer')
    provider.reply = { stream: [], events: [JSON.stringify({ error: { message: `bad ${KEY}` } })] }
    const error = await failure(collect(client.stream(ask)))
    expect(error.extra?.reason).toBe('provider_status')
  })

  it('times out when no delta arrives within the budget (the stream stalls)', async () => {
    provider.reply = { stream: ['first'], stallMs: 2000 }
    const seen: string[] = []
    const error = await failure(
      (async () => {
        for await (const delta of client.stream(ask)) seen.push(delta)
      })(),
    )
    expect(seen).toEqual(['first'])
    expect(error.extra?.reason).toBe('timeout')
  })

  it('retries a 5xx before the stream starts', async () => {
    provider.requests.length = 0
    provider.reply = (_body, n) => (n === 1 ? { status: 502 } : { stream: ['ok'] })
    expect(await collect(client.stream(ask))).toEqual(['ok'])
    expect(provider.requests).toHaveLength(2)
    // A Retry-After longer than the budget: the next attempt still gets its whole budget.
    provider.requests.length = 0
    provider.reply = (_body, n) =>
      n === 1 ? { status: 429, headers: { 'retry-after': '1' } } : { stream: ['later'] }
    expect(await collect(client.stream(ask))).toEqual(['later'])
    expect(provider.requests).toHaveLength(2)
  })
})

describe('not configured', () => {
  it('json and stream answer 400 without calling anything', async () => {
    for (const missing of [{ apiKey: undefined }, { baseUrl: undefined }, { model: undefined }]) {
      const partial = createLlmClient({
        provider: () => ({ apiKey: KEY, baseUrl: provider.baseUrl, model: 'm', ...missing }),
      })
      expect(partial.configured()).toBe(false)
      const error = await failure(partial.json(ask, Shape))
      expect({ code: error.code, message: error.message }).toEqual({
        code: 'bad_request',
        message: 'No language-model provider key is configured.',
      })
      expect((await failure(collect(partial.stream(ask)))).code).toBe('bad_request')
    }
    expect(client.configured()).toBe(true)
  })
})
