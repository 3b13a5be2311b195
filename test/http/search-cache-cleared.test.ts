// /api/info's cache_last_cleared: when the search cache was last invalidated (a purge or any
// index change), so clients know when to refresh what they cached.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { seedArchive } from '../helpers/seed.ts'

let app: TestServer
let cookie: string

async function cacheLastCleared(): Promise<number> {
  const body = (await (await app.req('/api/info')).json()) as Wire
  return body.cache_last_cleared
}

/** cache_last_cleared counts seconds: wait past the current one so a change can show. */
async function nextSecond() {
  const now = Date.now()
  await Bun.sleep(1000 - (now % 1000) + 20)
}

beforeAll(async () => {
  app = await startTestServer()
  await app.idle()
  cookie = await app.login()
})

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
    await nextSecond()
    const res = await app.req('/api/search/cache', { method: 'DELETE', cookie })
    expect(res.status).toBe(200)
    expect(await cacheLastCleared()).toBeGreaterThan(before)
  })

  it('moves forward on an archive write', async () => {
    const before = await cacheLastCleared()
    await nextSecond()
    seedArchive(app.deps, { title: 'New arrival' })
    expect(await cacheLastCleared()).toBeGreaterThan(before)
  })
})
