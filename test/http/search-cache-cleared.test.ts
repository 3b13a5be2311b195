// /api/info's cache_last_cleared: when the search cache was last invalidated (a purge or any
// index change), so clients know when to refresh what they cached.
import { afterAll, afterEach, beforeAll, describe, expect, it, setSystemTime } from 'bun:test'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { seedArchive } from '../helpers/seed.ts'

let app: TestServer
let cookie: string

async function cacheLastCleared(): Promise<number> {
  const body = (await (await app.req('/api/info')).json()) as Wire
  return body.cache_last_cleared
}

/**
 * cache_last_cleared counts seconds: the clock the server reads (bun:test's, in this process) is
 * set past the second last reported, so a change can show; afterEach gives the real clock back.
 */
function nextSecond(after: number) {
  setSystemTime(Math.max(Date.now(), (after + 1) * 1000))
}

beforeAll(async () => {
  app = await startTestServer()
  await app.idle()
  cookie = await app.login()
})

afterEach(() => setSystemTime())

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

describe('GET /api/info cache_last_cleared', () => {
  it('is a Unix time in seconds, not after now', async () => {
    const value = await cacheLastCleared()
    expect(Number.isInteger(value)).toBe(true)
    expect(value).toBeLessThanOrEqual(Math.floor(Date.now() / 1000))
    expect(value).toBeGreaterThan(1_600_000_000)
  })

  it('moves forward on DELETE /api/search/cache', async () => {
    const before = await cacheLastCleared()
    nextSecond(before)
    const res = await app.req('/api/search/cache', { method: 'DELETE', cookie })
    expect(res.status).toBe(200)
    expect(await cacheLastCleared()).toBeGreaterThan(before)
  })

  it('moves forward on an archive write', async () => {
    const before = await cacheLastCleared()
    nextSecond(before)
    seedArchive(app.deps, { title: 'New arrival' })
    expect(await cacheLastCleared()).toBeGreaterThan(before)
  })
})
