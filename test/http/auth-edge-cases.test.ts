// Auth, access and settings edge cases, as the spec and LANraragi define them: progress access, Authorization headers that are not a live token, keys in query
// strings, login body forms, settings keys, and CORS for callers without an Origin.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { createApiToken } from '../../src/domain/auth/tokens.ts'
import { startTestServer, TEST_PASSWORD, withSettings, type TestServer } from '../helpers/server.ts'

type Wire = Record<string, unknown>

const ARCHIVE_PROGRESS = `/api/archives/${'a'.repeat(40)}/progress/1`
const TANK_PROGRESS = '/api/tankoubons/TANK_0000000001/progress/1'

let app: TestServer
let cookie: string
let guest: string
let admin: string

beforeAll(async () => {
  app = await startTestServer()
  cookie = await app.login()
  guest = createApiToken(app.deps, { name: 'g', role: 'guest' }).secret
  admin = createApiToken(app.deps, { name: 'a', role: 'admin' }).secret
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

describe('progress updates (SPEC: admin, plus the authprogress rule)', () => {
  const put = (path: string, init: { token?: string } = {}) =>
    app.req(path, { method: 'PUT', ...init })

  it('refuses a guest token with 403 Env, whatever the settings', async () => {
    for (const patch of [{}, { nofun_mode: false }, { nofun_mode: false, guest_mode: true }]) {
      await withSettings(app, patch, async () => {
        for (const path of [ARCHIVE_PROGRESS, TANK_PROGRESS]) {
          const res = await put(path, { token: guest })
          expect({ path, patch, status: res.status }).toEqual({ path, patch, status: 403 })
          expect(await res.json()).toMatchObject({ success: 0 })
        }
      })
    }
  })

  it('lets an admin token through (the handler then judges the dummy id)', async () => {
    const res = await put(ARCHIVE_PROGRESS, { token: admin })
    expect([401, 403]).not.toContain(res.status)
  })

  it('refuses anonymous callers by default and guest-mode visitors (read-only)', async () => {
    for (const patch of [{}, { guest_mode: true }, { nofun_mode: false, guest_mode: true }]) {
      await withSettings(app, patch, async () => {
        const res = await put(ARCHIVE_PROGRESS)
        expect({ patch, status: res.status }).toEqual({ patch, status: 401 })
        expect(await res.json()).toMatchObject({ operation: 'update_progress', success: 0 })
      })
    }
  })

  it('accepts anonymous updates with nofun_mode off unless authprogress is on', async () => {
    await withSettings(app, { nofun_mode: false }, async () => {
      expect([401, 403]).not.toContain((await put(ARCHIVE_PROGRESS)).status)
    })
    await withSettings(app, { nofun_mode: false, authenticated_progress: true }, async () => {
      expect((await put(ARCHIVE_PROGRESS)).status).toBe(401)
    })
  })
})

describe('Authorization header', () => {
  it('ignores another scheme (a proxy’s Basic auth) and keeps the session cookie', async () => {
    const headers = { authorization: 'Basic dXNlcjpwYXNz' }
    expect((await app.req('/api/settings', { cookie, headers })).status).toBe(200)
    expect((await app.req('/api/tokens', { cookie, headers })).status).toBe(200)
    const alone = await app.req('/api/settings', { headers })
    expect(alone.status).toBe(401)
    expect(await alone.json()).toMatchObject({ operation: 'get_settings', success: 0 })
  })

  it('treats a malformed or unknown Bearer value as no credentials, not as a refusal', async () => {
    for (const authorization of ['Bearer', 'Bearer nope', `Bearer tkb_${'0'.repeat(64)}`]) {
      const headers = { authorization }
      const withCookie = await app.req('/api/settings', { cookie, headers })
      expect({ authorization, status: withCookie.status }).toEqual({ authorization, status: 200 })
      const alone = await app.req('/api/settings', { headers })
      expect({ authorization, status: alone.status }).toEqual({ authorization, status: 401 })
    }
  })

  it('judges a live token alone: admin token + cookie is 403 on session routes', async () => {
    const res = await app.req('/api/tokens', { cookie, token: admin })
    expect(res.status).toBe(403)
  })

  it('accepts the LANraragi form (base64 of the key, scheme in any case)', async () => {
    const encoded = Buffer.from(admin).toString('base64')
    for (const authorization of [`Bearer ${encoded}`, `bearer ${admin}`, `BEARER ${encoded}`]) {
      const res = await app.req('/api/settings', { headers: { authorization } })
      expect({ authorization, status: res.status }).toEqual({ authorization, status: 200 })
    }
  })

  it('never takes an API key from the query string', async () => {
    for (const name of ['key', 'token', 'api_key', 'apikey']) {
      const res = await app.req(`/api/settings?${name}=${admin}`)
      expect({ name, status: res.status }).toEqual({ name, status: 401 })
      const dash = await app.req(`/api/archives?${name}=${admin}`)
      expect({ name, status: dash.status }).toEqual({ name, status: 401 })
    }
  })
})

describe('POST /api/login body forms', () => {
  it('accepts multipart form data, and refuses a wrong multipart password', async () => {
    await using app = await startTestServer()
    const form = (password: string) => {
      const body = new FormData()
      body.set('password', password)
      return body
    }
    const good = await app.req('/api/login', { method: 'POST', body: form(TEST_PASSWORD) })
    expect(good.status).toBe(200)
    expect(await good.json()).toEqual({ operation: 'login', success: 1 })
    expect(good.headers.getSetCookie()).toHaveLength(2)
    const bad = await app.req('/api/login', { method: 'POST', body: form('wrong') })
    expect(bad.status).toBe(401)
    expect(await bad.json()).toMatchObject({ operation: 'login', success: 0 })
  })
})

describe('PUT /api/settings', () => {
  it('answers 400 Env "Unknown setting" for keys inherited from Object.prototype', async () => {
    for (const key of ['toString', 'constructor', 'hasOwnProperty', 'valueOf']) {
      const res = await app.req('/api/settings', { method: 'PUT', cookie, json: { [key]: {} } })
      expect({ key, status: res.status }).toEqual({ key, status: 400 })
      const body = (await res.json()) as Wire
      expect(body).toMatchObject({ operation: 'update_settings', success: 0 })
      expect(String(body.error)).toContain('Unknown setting')
    }
  })

  it('refuses internal keys (password hash, signing key) as unknown', async () => {
    for (const key of ['internal.password_hash', 'internal.jwt_key', 'password']) {
      const res = await app.req('/api/settings', { method: 'PUT', cookie, json: { [key]: 'x' } })
      expect({ key, status: res.status }).toEqual({ key, status: 400 })
    }
    expect((await app.req('/api/settings', { cookie })).status).toBe(200)
  })
})

describe('CORS for callers without an Origin header', () => {
  it('answers a preflight before routing and sends * when any origin is allowed', async () => {
    await using app = await startTestServer()
    app.deps.settings.update({ enable_cors: true, cors_origins: ['*'] })
    const pre = await app.req('/api/settings', { method: 'OPTIONS' })
    expect(pre.status).toBe(204)
    expect(pre.headers.get('access-control-allow-origin')).toBe('*')
    expect(pre.headers.get('access-control-allow-methods')).toBe(
      'GET, POST, PUT, PATCH, DELETE, OPTIONS',
    )
    expect(pre.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type')
    const res = await app.req('/api/info')
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('access-control-allow-credentials')).toBeNull()
    const refused = await app.req('/api/settings')
    expect(refused.status).toBe(401)
    expect(refused.headers.get('access-control-allow-origin')).toBe('*')
  })

  it('sends no wildcard when only named origins are configured', async () => {
    await using app = await startTestServer()
    app.deps.settings.update({ enable_cors: true, cors_origins: ['https://reader.example'] })
    const res = await app.req('/api/info')
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
    const pre = await app.req('/api/info', { method: 'OPTIONS' })
    expect(pre.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('keeps CORS headers on unknown routes and on the login throttle', async () => {
    await using app = await startTestServer()
    const origin = 'https://reader.example'
    app.deps.settings.update({ enable_cors: true, cors_origins: [origin] })
    const missing = await app.req('/api/no-such-route', { headers: { origin } })
    expect(missing.status).toBe(404)
    expect(missing.headers.get('access-control-allow-origin')).toBe(origin)
    let last: Response | null = null
    for (let i = 0; i < 7; i++) {
      last = await app.req('/api/login', {
        method: 'POST',
        headers: { origin },
        json: { password: 'wrong' },
      })
    }
    expect(last!.status).toBe(429)
    expect(last!.headers.get('access-control-allow-origin')).toBe(origin)
  })
})
