// GET /api/download_queue/stream under many readers: 200 streams over 11,010 items raised RSS by
// 940 MB (each built and held its own `full` list), with a guest token. The `full` event is now
// built once and shared, and a credential may keep MAX_QUEUE_STREAMS_PER_CREDENTIAL open.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { readFileSync, writeFileSync } from 'node:fs'
import { MAX_QUEUE_STREAMS_PER_CREDENTIAL } from '../../src/http/download-queue-stream.ts'
import type { TestServer } from '../helpers/server.ts'
import { PLUGIN, startDownloadServer } from './fake-site.ts'

const ITEMS = 10_000
const END = new TextEncoder().encode('\n\n')

let app: TestServer
let cookie: string

async function token(role: 'admin' | 'guest'): Promise<string> {
  const { status, body } = await app.json('/api/tokens', {
    method: 'POST',
    cookie,
    json: { name: `t-${crypto.randomUUID()}`, role },
  })
  expect(status).toBe(200)
  return body.data.token
}

type Stream = { res: Response; abort: AbortController }

async function open(auth: { token?: string; cookie?: string }): Promise<Stream> {
  const abort = new AbortController()
  const res = await app.req('/api/download_queue/stream', { ...auth, signal: abort.signal })
  return { res, abort }
}

/** Reads up to the end of the `full` event without decoding it; answers its size in bytes. */
async function readFull(stream: Stream): Promise<number> {
  const chunks = stream.res.body!.getReader()
  let size = 0
  let tail = new Uint8Array(0)
  let seenFull = false
  for (;;) {
    const { done, value } = await chunks.read()
    if (done) throw new Error('stream ended')
    size += value.length
    // `retry:` comes first, in its own chunk; `full` is the event after it.
    const joined = new Uint8Array(tail.length + value.length)
    joined.set(tail)
    joined.set(value, tail.length)
    if (!seenFull) seenFull = new TextDecoder().decode(joined.subarray(0, 200)).includes('full')
    const last = joined.subarray(-2)
    if (seenFull && last[0] === END[0] && last[1] === END[1]) return size
    tail = joined.subarray(-2).slice()
  }
}

/** Opens `perToken` streams per token, reads each to the end of `full`, prints their sizes. */
const READERS = `
const [url, perToken, ...tokens] = process.argv.slice(1)
const sizes = await Promise.all(tokens.flatMap((token) =>
  Array.from({ length: Number(perToken) }, async () => {
    const abort = new AbortController()
    const res = await fetch(url + '/api/download_queue/stream', {
      headers: { authorization: 'Bearer ' + token }, signal: abort.signal })
    const chunks = res.body.getReader()
    let size = 0, events = 0, last = 0
    for (;;) {
      const { value } = await chunks.read()
      size += value.length
      for (const byte of value) {
        if (byte === 10 && last === 10) events++
        last = byte
      }
      // Two events: the retry hint, then full.
      if (events === 2) break
    }
    abort.abort()
    return size
  })))
console.log(JSON.stringify(sizes))
`

const statusBytes = (field: string) =>
  Number(
    readFileSync('/proc/self/status', 'utf8').match(new RegExp(`^${field}:\\s+(\\d+)`, 'm'))![1],
  ) * 1024

beforeAll(async () => {
  app = await startDownloadServer()
  cookie = await app.login()
  for (let at = 0; at < ITEMS; at += 1000) {
    const items = Array.from({ length: 1000 }, (_, i) => ({
      url: `http://127.0.0.1:9/gallery/${at + i}/a-title-long-enough-to-look-like-a-real-one`,
      plugin_namespace: PLUGIN,
    }))
    const { status, body } = await app.json('/api/download_queue', {
      method: 'POST',
      cookie,
      json: { items },
    })
    expect(status).toBe(200)
    expect(body.added).toHaveLength(1000)
  }
}, 120_000)

afterAll(() => app[Symbol.asyncDispose]())

describe('GET /api/download_queue/stream', () => {
  it(`refuses a credential's stream past ${MAX_QUEUE_STREAMS_PER_CREDENTIAL} with a 429 Env`, async () => {
    const guest = await token('guest')
    const streams = []
    for (let i = 0; i < MAX_QUEUE_STREAMS_PER_CREDENTIAL; i++) {
      const stream = await open({ token: guest })
      expect(stream.res.status).toBe(200)
      streams.push(stream)
    }
    const refused = await open({ token: guest })
    expect(refused.res.status).toBe(429)
    expect(await refused.res.json()).toEqual({
      operation: 'download_queue_stream',
      success: 0,
      error: `Too many open download queue streams for this credential (${MAX_QUEUE_STREAMS_PER_CREDENTIAL}); close one first.`,
    })
    // Another credential is counted apart.
    const other = await open({ cookie })
    expect(other.res.status).toBe(200)
    other.abort.abort()
    // A closed stream frees its place.
    streams.pop()!.abort.abort()
    let again = await open({ token: guest })
    for (let i = 0; again.res.status === 429 && i < 100; i++) {
      await Bun.sleep(20)
      again = await open({ token: guest })
    }
    expect(again.res.status).toBe(200)
    for (const stream of [...streams, again]) stream.abort.abort()
  })

  it('shares one `full` snapshot between streams: 40 of them cost about one copy', async () => {
    const tokens = await Promise.all(Array.from({ length: 5 }, () => token('guest')))
    const first = await open({ cookie })
    const fullBytes = await readFull(first)
    first.abort.abort()
    expect(fullBytes).toBeGreaterThan(1_500_000)
    Bun.gc(true)
    writeFileSync('/proc/self/clear_refs', '5')
    const base = statusBytes('VmRSS')
    // The readers run in their own process: only the server's memory is measured here.
    const readers = Bun.spawn(
      [
        process.execPath,
        '-e',
        READERS,
        app.url,
        String(MAX_QUEUE_STREAMS_PER_CREDENTIAL),
        ...tokens,
      ],
      { stdout: 'pipe' },
    )
    const sizes = JSON.parse(await new Response(readers.stdout).text()) as number[]
    await readers.exited
    const growth = statusBytes('VmHWM') - base
    expect(sizes).toEqual(Array(tokens.length * MAX_QUEUE_STREAMS_PER_CREDENTIAL).fill(fullBytes))
    // Each stream building its own: ~215-236 MB here (some 70 copies at their peak); shared: ~0.
    expect(growth).toBeLessThan(10 * fullBytes)
  }, 60_000)
})
