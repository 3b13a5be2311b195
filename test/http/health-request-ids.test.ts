// GET /api/health, X-Request-Id on every answer and in the log lines of its request, and a
// graceful stop (jobs stopped, the database closed).
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { setLogLevel, setLogSink, type LogLevel } from '../../src/log.ts'
import { seedArchive } from '../helpers/seed.ts'
import { makeCbz } from '../helpers/fixtures.ts'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'

let app: TestServer
let cookie: string

let gone: string

beforeAll(async () => {
  app = await startTestServer({
    beforeStart: (content) => makeCbz(join(content, 'Gone.cbz'), { pages: 2 }).then(() => {}),
  })
  await app.idle()
  cookie = await app.login()
  const list = (await (await app.req('/api/archives', { cookie })).json()) as Wire[]
  gone = list[0]!.arcid
  // Read failures are logged (at warn) while the request is handled.
  await rm(join(app.contentDir, 'Gone.cbz'))
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

const requestLine = (id: string) => (line: Wire) => line.msg === 'request' && line.request_id === id
const isOurs = requestLine('trace-me-1')

async function capture<T>(
  run: () => Promise<T>,
  level: LogLevel = 'debug',
  done: (line: Wire) => boolean = isOurs,
): Promise<{ lines: Wire[]; value: T }> {
  const lines: Wire[] = []
  setLogSink((line) => lines.push(JSON.parse(line) as Wire))
  setLogLevel(level)
  try {
    const value = await run()
    // The request line is written once the answer has gone out.
    for (let i = 0; i < 100 && !lines.some(done); i++) await Bun.sleep(5)
    return { lines, value }
  } finally {
    setLogLevel('silent')
    setLogSink((line) => process.stderr.write(line + '\n'))
  }
}

describe('GET /api/health', () => {
  it('is open and answers the quick checks', async () => {
    const res = await app.req('/api/health')
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    const body = (await res.json()) as Wire
    expect(body).toEqual({
      status: 'ok',
      db: true,
      search_ready: expect.any(Boolean),
      sandbox: expect.stringMatching(/^(installed|missing)$/),
    })
  })
})

describe('X-Request-Id', () => {
  it('keeps a sane incoming id and generates one otherwise', async () => {
    const kept = await app.req('/api/info', { headers: { 'x-request-id': 'proxy-42.abc' } })
    expect(kept.headers.get('x-request-id')).toBe('proxy-42.abc')
    await kept.text()
    for (const bad of ['has space', 'x'.repeat(129), 'semi;colon']) {
      const res = await app.req('/api/info', { headers: { 'x-request-id': bad } })
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
      await res.text()
    }
    const a = await app.req('/api/info')
    const b = await app.req('/api/info')
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'))
    await a.text()
    await b.text()
  })

  it('is on Env failures and byte answers too', async () => {
    const refused = await app.req('/api/archives')
    expect(refused.status).toBe(401)
    expect(refused.headers.get('x-request-id')).toBeTruthy()
    await refused.text()
    const missing = await app.req('/api/nothing-here', { cookie })
    expect(missing.status).toBe(404)
    expect(missing.headers.get('x-request-id')).toBeTruthy()
    await missing.text()
  })

  it('is in the log lines written while the request is handled', async () => {
    const { lines, value } = await capture(async () => {
      const res = await app.req(`/api/archives/${gone}/page?path=001.jpg`, {
        cookie,
        headers: { 'x-request-id': 'trace-me-1' },
      })
      await res.text()
      return res.status
    })
    expect(value).toBe(400)
    const request = lines.find(isOurs)!
    expect(request).toMatchObject({
      level: 'debug',
      request_id: 'trace-me-1',
      method: 'GET',
      path: `/api/archives/${gone}/page`,
      status: 400,
    })
    // Every line of this request carries its id (a line of an earlier request may arrive late).
    const ours = lines.filter((l) => l.request_id === 'trace-me-1')
    expect(ours.length).toBeGreaterThanOrEqual(2)
    expect(ours.some((l) => l.msg !== 'request')).toBe(true)
  })
})

describe('log levels', () => {
  it('writes no request line at info for answers below 500', async () => {
    const { lines, value } = await capture(
      async () => {
        const res = await app.req('/api/info', { headers: { 'x-request-id': 'quiet-1' } })
        await res.text()
        const refused = await app.req('/api/archives', { headers: { 'x-request-id': 'quiet-2' } })
        await refused.text()
        // A later request line at debug would have been written by now (the sink is synchronous).
        await Bun.sleep(50)
        return [res.status, refused.status]
      },
      'info',
      () => false,
    )
    expect(value).toEqual([200, 401])
    expect(lines.filter((l) => l.msg === 'request')).toEqual([])
  })

  it('writes a 5xx at warn with its request id, beside the error line naming the same id', async () => {
    const id = seedArchive(app.deps, { title: 'Refuses writes' }).id
    // A failing write on the real database, for this one archive only.
    app.deps.db.$client.run(
      `CREATE TRIGGER refuse_isnew BEFORE UPDATE OF isnew ON archives
       WHEN OLD.id = '${id}' BEGIN SELECT RAISE(ABORT, 'refused'); END`,
    )
    const { lines, value } = await capture(
      async () => {
        const res = await app.req(`/api/archives/${id}/isnew`, {
          method: 'DELETE',
          cookie,
          headers: { 'x-request-id': 'fails-1' },
        })
        return { status: res.status, body: (await res.json()) as Wire }
      },
      'warn',
      requestLine('fails-1'),
    )
    expect(value.status).toBe(500)
    expect(value.body.error).toBe('internal error (request fails-1)')
    expect(lines.find(requestLine('fails-1'))).toMatchObject({
      level: 'warn',
      method: 'DELETE',
      status: 500,
    })
    expect(lines.find((l) => l.msg === 'unhandled error')).toMatchObject({
      level: 'error',
      request_id: 'fails-1',
    })
  })
})

describe('stop', () => {
  it('stops the jobs and closes the database', async () => {
    const other = await startTestServer()
    const job = other.deps.jobs.enqueue('regen_thumbs', { force: false })
    expect(job).toBeGreaterThan(0)
    await other.stop()
    expect(() => other.deps.db.$client.query('SELECT 1').get()).toThrow()
    const refused = await fetch(other.url + '/api/health').then(
      () => 'answered',
      () => 'refused',
    )
    expect(refused).toBe('refused')
    await other[Symbol.asyncDispose]().catch(() => undefined)
  })
})
