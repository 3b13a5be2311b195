// enable_cors / cors_origins: credentialed CORS headers for configured origins only, preflights
// answered before routing and without credentials.
import { describe, expect, it } from 'bun:test'
import { startTestServer, type TestServer } from '../helpers/server.ts'

const ORIGIN = 'https://reader.example:8443'
const ARCHIVE_METADATA = `/api/archives/${'a'.repeat(40)}/metadata`

function corsHeaders(res: Response) {
  return {
    origin: res.headers.get('access-control-allow-origin'),
    credentials: res.headers.get('access-control-allow-credentials'),
  }
}

const preflight = (app: TestServer, path: string, origin: string) =>
  app.req(path, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'PUT',
      'access-control-request-headers': 'authorization, content-type',
    },
  })

describe('CORS', () => {
  it('adds no CORS headers and answers no preflight while disabled (the default)', async () => {
    await using app = await startTestServer({})
    app.deps.settings.update({ cors_origins: [ORIGIN] })
    const res = await app.req('/api/info', { headers: { origin: ORIGIN } })
    expect(res.status).toBe(200)
    expect(corsHeaders(res)).toEqual({ origin: null, credentials: null })
    const pre = await preflight(app, ARCHIVE_METADATA, ORIGIN)
    expect(pre.status).not.toBe(204)
    expect(pre.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('echoes a configured origin with credentials, on success and on refusal', async () => {
    await using app = await startTestServer()
    app.deps.settings.update({ enable_cors: true, cors_origins: [ORIGIN] })
    const ok = await app.req('/api/info', { headers: { origin: ORIGIN } })
    expect(corsHeaders(ok)).toEqual({ origin: ORIGIN, credentials: 'true' })
    expect(ok.headers.get('vary')).toContain('Origin')
    // A 401 must be readable cross-origin too: the client refreshes on it.
    const refused = await app.req('/api/jobs', { headers: { origin: ORIGIN } })
    expect(refused.status).toBe(401)
    expect(corsHeaders(refused)).toEqual({ origin: ORIGIN, credentials: 'true' })
  })

  it('keeps the headers on refusals made before the body is read, and on 400s', async () => {
    await using app = await startTestServer()
    app.deps.settings.update({ enable_cors: true, cors_origins: [ORIGIN] })
    const headers = { origin: ORIGIN, 'content-type': 'application/json' }
    const early = await app.req('/api/settings', { method: 'PUT', headers, body: '{"motd":' })
    expect(early.status).toBe(401)
    expect(corsHeaders(early)).toEqual({ origin: ORIGIN, credentials: 'true' })
    const cookie = await app.login()
    const bad = await app.req('/api/settings', { method: 'PUT', cookie, headers, body: '{"x":' })
    expect(bad.status).toBe(400)
    expect(corsHeaders(bad)).toEqual({ origin: ORIGIN, credentials: 'true' })
    const other = await app.req('/api/settings', {
      method: 'PUT',
      headers: { ...headers, origin: 'https://evil.example' },
      body: '{}',
    })
    expect(other.status).toBe(401)
    expect(corsHeaders(other)).toEqual({ origin: null, credentials: null })
  })

  it('answers a preflight for any /api path with 204, without credentials', async () => {
    await using app = await startTestServer()
    app.deps.settings.update({ enable_cors: true, cors_origins: [ORIGIN] })
    for (const path of [ARCHIVE_METADATA, '/api/settings', '/api/tokens/123']) {
      const res = await preflight(app, path, ORIGIN)
      expect({ path, status: res.status }).toEqual({ path, status: 204 })
      expect(corsHeaders(res)).toEqual({ origin: ORIGIN, credentials: 'true' })
      expect(res.headers.get('access-control-allow-methods')).toBe(
        'GET, POST, PUT, PATCH, DELETE, OPTIONS',
      )
      expect(res.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type')
    }
  })

  it('gives other origins nothing', async () => {
    await using app = await startTestServer()
    app.deps.settings.update({ enable_cors: true, cors_origins: [ORIGIN] })
    for (const origin of ['https://evil.example', 'https://reader.example', 'null']) {
      const res = await app.req('/api/info', { headers: { origin } })
      expect(corsHeaders(res)).toEqual({ origin: null, credentials: null })
      const pre = await preflight(app, ARCHIVE_METADATA, origin)
      expect(pre.headers.get('access-control-allow-origin')).toBeNull()
      expect(pre.headers.get('access-control-allow-methods')).toBeNull()
    }
  })

  it('with * answers the plain wildcard without credentials, never for the opaque null origin', async () => {
    await using app = await startTestServer()
    app.deps.settings.update({ enable_cors: true, cors_origins: ['*'] })
    const any = await app.req('/api/info', { headers: { origin: 'https://anything.example' } })
    // Browsers refuse `*` with credentials: a `*` setting never lends the session cookie out.
    expect(corsHeaders(any)).toEqual({ origin: '*', credentials: null })
    const preflight = await app.req('/api/search', {
      method: 'OPTIONS',
      headers: { origin: 'https://anything.example', 'access-control-request-method': 'GET' },
    })
    expect(preflight.status).toBe(204)
    expect(corsHeaders(preflight)).toEqual({ origin: '*', credentials: null })
    expect(preflight.headers.get('access-control-allow-headers')).toContain('Authorization')
    // A listed origin next to `*` still gets credentials.
    app.deps.settings.update({ cors_origins: ['*', 'https://reader.example'] })
    const listed = await app.req('/api/info', { headers: { origin: 'https://reader.example' } })
    expect(corsHeaders(listed)).toEqual({ origin: 'https://reader.example', credentials: 'true' })
    const opaque = await app.req('/api/info', { headers: { origin: 'null' } })
    expect(corsHeaders(opaque).origin).toBeNull()
  })

  it('is switched through PUT /api/settings', async () => {
    await using app = await startTestServer()
    const cookie = await app.login()
    const res = await app.req('/api/settings', {
      method: 'PUT',
      cookie,
      json: { enable_cors: true, cors_origins: [ORIGIN] },
    })
    expect(res.status).toBe(200)
    const after = await app.req('/api/info', { headers: { origin: ORIGIN } })
    expect(corsHeaders(after).origin).toBe(ORIGIN)
  })
})
