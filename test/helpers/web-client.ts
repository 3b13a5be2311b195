// The library a web-client contract test replays its calls against (test/http/client-*.test.ts):
// three CBZs (Alpha 3 pages, Beta 4, Gamma 2 in a sub-folder), CORS on for the client's origin as
// an admin sets it up, an admin API key to paste into the client, and each archive's tags with a
// distinct date_added (the clients' default sort) plus the client's own.
import { expect } from 'bun:test'
import { join } from 'node:path'
import { makeCbz } from './fixtures.ts'
import { startTestServer, type TestServer } from './server.ts'

export type WebClientWorld = {
  app: TestServer
  /** The admin's session cookie, for setting things up outside the client's calls. */
  cookie: string
  /** The API key (`tkb_…`) as the client stores it. */
  key: string
  /** Archive ids by title: Alpha, Beta, Gamma. */
  ids: Record<string, string>
}

const ADDED = { Alpha: 1_600_000_000, Beta: 1_700_000_000, Gamma: 1_650_000_000 }

export async function startWebClientWorld(
  origin: string,
  keyName: string,
  extraTags: (title: string) => string,
): Promise<WebClientWorld> {
  const app = await startTestServer({
    beforeStart: async (content) => {
      await makeCbz(join(content, 'Alpha.cbz'), { pages: 3 })
      await makeCbz(join(content, 'Beta.cbz'), { pages: 4 })
      await makeCbz(join(content, 'Gamma.cbz'), { names: ['sub/001.jpg', 'sub/002.jpg'] })
    },
  })
  await app.idle()
  const cookie = await app.login()
  const settings = await app.json('/api/settings', {
    method: 'PUT',
    cookie,
    json: { enable_cors: true, cors_origins: [origin] },
  })
  expect(settings.status).toBe(200)
  const created = await app.json('/api/tokens', {
    method: 'POST',
    cookie,
    json: { name: keyName, role: 'admin' },
  })
  expect(created.status).toBe(200)
  const ids = await app.idsByTitle(cookie)
  expect(Object.keys(ids).sort()).toEqual(['Alpha', 'Beta', 'Gamma'])
  for (const [title, added] of Object.entries(ADDED)) {
    const tags = `date_added:${added}, ${extraTags(title)}`
    const res = await app.json(
      `/api/archives/${ids[title]}/metadata?${new URLSearchParams({ tags })}`,
      { method: 'PUT', cookie },
    )
    expect(res.status).toBe(200)
  }
  return { app, cookie, key: created.body.data.token, ids }
}

/**
 * The browser's preflight before each call (the client's Authorization header causes one):
 * answered 204 without credentials, allowing the origin, the method and the header.
 */
export async function expectPreflights(
  app: TestServer,
  origin: string,
  calls: readonly (readonly [path: string, method: string])[],
): Promise<void> {
  for (const [path, method] of calls) {
    const res = await app.req(path, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': method,
        'access-control-request-headers': 'authorization,content-type',
      },
    })
    expect({ path, status: res.status }).toEqual({ path, status: 204 })
    expect(res.headers.get('access-control-allow-origin')).toBe(origin)
    expect(res.headers.get('access-control-allow-methods')).toContain(method)
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain(
      'authorization',
    )
  }
}
