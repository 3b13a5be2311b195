// Cross-origin writes with the browser's ambient credentials are refused (CSRF, same-origin.ts):
// Sec-Fetch-Site first, else Origin against the server's own origin (proxy headers honoured);
// token callers, reads and the admin's credentialed CORS origins are not affected. The browser
// side of it is test/ui/cross-origin.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { startTestServer, withSettings, type TestServer, type Wire } from '../helpers/server.ts'

let app: TestServer
let cookie: string
let token: string

beforeAll(async () => {
  app = await startTestServer()
  cookie = await app.login()
  const created = await app.json('/api/tokens', {
    method: 'POST',
    cookie,
    json: { name: 'client', role: 'admin' },
  })
  token = created.body.data.token
})
afterAll(() => app[Symbol.asyncDispose]())

/** A token creation (a session-only write) with the given browser headers. */
const createToken = (headers: Record<string, string>, auth: { cookie?: string; token?: string }) =>
  app.json('/api/tokens', {
    method: 'POST',
    headers,
    json: { name: 'from a page', role: 'admin' },
    ...auth,
  })

const REFUSED = {
  operation: 'create_token',
  success: 0,
  error:
    'Cross-origin request refused: this change must come from the server’s own pages or carry an API token.',
}

const tokenNames = async () =>
  (await app.json<Wire[]>('/api/tokens', { cookie })).body.map((t) => t.name)

describe('cookie-authenticated writes from another origin', () => {
  it('refuses Sec-Fetch-Site cross-site and same-site (another port) with a 403 Env', async () => {
    for (const site of ['cross-site', 'same-site']) {
      const { status, body } = await createToken({ 'sec-fetch-site': site }, { cookie })
      expect({ site, status, body }).toEqual({ site, status: 403, body: REFUSED })
    }
    expect(await tokenNames()).toEqual(['client'])
  })

  it('refuses an Origin that is not the server’s own when Sec-Fetch-Site is absent', async () => {
    const other = new URL(app.url)
    other.port = String(Number(other.port) === 1 ? 2 : 1)
    for (const origin of [other.origin, 'http://localhost', 'null', 'https://evil.example']) {
      const { status, body } = await createToken({ origin }, { cookie })
      expect({ origin, status, body }).toEqual({ origin, status: 403, body: REFUSED })
    }
    expect(await tokenNames()).toEqual(['client'])
  })

  it('lets the server’s own pages write: same-origin, none, or its own Origin', async () => {
    const own = new URL(app.url).origin
    const cases: Record<string, string>[] = [
      { 'sec-fetch-site': 'same-origin', origin: own },
      { 'sec-fetch-site': 'none' },
      { origin: own },
      {},
    ]
    for (const headers of cases) {
      const { status } = await createToken(headers, { cookie })
      expect({ headers, status }).toEqual({ headers, status: 200 })
    }
  })

  it('decides by Sec-Fetch-Site when both are sent', async () => {
    const own = new URL(app.url).origin
    const { status } = await createToken({ 'sec-fetch-site': 'same-site', origin: own }, { cookie })
    expect(status).toBe(403)
  })

  it('refuses before reading the body (a malformed body is not even parsed)', async () => {
    const res = await app.json('/api/tokens', {
      method: 'POST',
      cookie,
      headers: { 'sec-fetch-site': 'same-site', 'content-type': 'application/json' },
      body: '{not json',
    })
    expect(res.status).toBe(403)
    expect(res.body).toEqual(REFUSED)
  })

  it('honours the proxy’s X-Forwarded-Host and X-Forwarded-Proto for the own origin', async () => {
    const proxied = { 'x-forwarded-host': 'comics.example', 'x-forwarded-proto': 'https' }
    const through = await createToken({ ...proxied, origin: 'https://comics.example' }, { cookie })
    expect(through.status).toBe(200)
    const plainHttp = await createToken({ ...proxied, origin: 'http://comics.example' }, { cookie })
    expect(plainHttp.status).toBe(403)
    const sibling = await createToken(
      { ...proxied, origin: 'https://comics.example:8443' },
      { cookie },
    )
    expect(sibling.status).toBe(403)
  })

  it('leaves reads alone', async () => {
    const res = await app.json('/api/tokens', {
      cookie,
      headers: { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
    })
    expect(res.status).toBe(200)
  })

  it('checks every write method, the drop and a plugin upload among them', async () => {
    const headers = { 'sec-fetch-site': 'same-site' }
    const drop = await app.json('/api/database/drop', { method: 'POST', cookie, headers })
    expect(drop).toMatchObject({ status: 403, body: { operation: 'drop_database', success: 0 } })
    const form = new FormData()
    form.append('file', new File(['export function pluginInfo() {}'], 'evil.ts'))
    const upload = await app.json('/api/plugins/upload', {
      method: 'POST',
      cookie,
      headers,
      body: form,
    })
    expect(upload).toMatchObject({ status: 403, body: { operation: 'upload_plugin', success: 0 } })
    const settings = await app.json('/api/settings', {
      method: 'PUT',
      cookie,
      headers,
      json: { guest_mode: true },
    })
    expect(settings.status).toBe(403)
    const del = await app.json('/api/tokens/none', { method: 'DELETE', cookie, headers })
    expect(del.status).toBe(403)
  })
})

describe('login and logout', () => {
  it('refuses a login from another origin (login CSRF) and lets the own page log in', async () => {
    const login = (headers: Record<string, string>) =>
      app.json('/api/login', {
        method: 'POST',
        headers,
        json: { password: 'test-password' },
      })
    const foreign = await login({ 'sec-fetch-site': 'same-site' })
    expect(foreign).toMatchObject({ status: 403, body: { operation: 'login', success: 0 } })
    expect(foreign.headers.getSetCookie()).toEqual([])
    const byOrigin = await login({ origin: 'http://localhost:1' })
    expect(byOrigin.status).toBe(403)
    expect((await login({ 'sec-fetch-site': 'same-origin' })).status).toBe(200)
  })

  it('refuses a logout from another origin: the session stays live', async () => {
    const session = await app.login()
    const foreign = await app.json('/api/logout', {
      method: 'POST',
      cookie: session,
      headers: { 'sec-fetch-site': 'cross-site' },
    })
    expect(foreign.status).toBe(403)
    expect((await app.json('/api/tokens', { cookie: session })).status).toBe(200)
  })
})

describe('what the check leaves alone', () => {
  it('token callers (Bearer, LANraragi’s base64 key, Basic with the token) from anywhere', async () => {
    const foreign = { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' }
    for (const authorization of [
      `Bearer ${token}`,
      `Bearer ${Buffer.from(token).toString('base64')}`,
      `Basic ${btoa(`reader:${token}`)}`,
    ]) {
      const res = await app.json('/api/database/isnew', {
        method: 'DELETE',
        cookie,
        headers: { ...foreign, authorization },
      })
      expect({ authorization, status: res.status }).toEqual({ authorization, status: 200 })
    }
  })

  it('not a proxy’s Basic credentials: the browser sends those by itself', async () => {
    const res = await app.json('/api/database/isnew', {
      method: 'DELETE',
      cookie,
      headers: { 'sec-fetch-site': 'same-site', authorization: `Basic ${btoa('user:pass')}` },
    })
    expect(res.status).toBe(403)
  })

  it('origins the admin lent the session to (credentialed CORS)', async () => {
    const origin = 'https://reader.example'
    await withSettings(app, { enable_cors: true, cors_origins: [origin] }, async () => {
      const listed = await createToken({ origin, 'sec-fetch-site': 'cross-site' }, { cookie })
      expect(listed.status).toBe(200)
      const other = await createToken(
        { origin: 'https://other.example', 'sec-fetch-site': 'cross-site' },
        { cookie },
      )
      expect(other.status).toBe(403)
    })
    // Listed while CORS is off lends nothing.
    await withSettings(app, { enable_cors: false, cors_origins: [origin] }, async () => {
      const off = await createToken({ origin, 'sec-fetch-site': 'cross-site' }, { cookie })
      expect(off.status).toBe(403)
    })
  })
})

describe('password protection off', () => {
  it('still refuses foreign pages: everyone is admin, so any page could act', async () => {
    await using open = await startTestServer({ password: '' })
    const headers = { 'sec-fetch-site': 'same-site' }
    const refused = await open.json('/api/database/isnew', { method: 'DELETE', headers })
    expect(refused).toMatchObject({ status: 403, body: { operation: 'clear_new_all' } })
    const own = await open.json('/api/database/isnew', {
      method: 'DELETE',
      headers: { 'sec-fetch-site': 'same-origin' },
    })
    expect(own.status).toBe(200)
    // A script-set Bearer header needed a preflight this server approved.
    const client = await open.json('/api/database/isnew', {
      method: 'DELETE',
      headers: { ...headers, authorization: 'Bearer anything' },
    })
    expect(client.status).toBe(200)
  })
})
