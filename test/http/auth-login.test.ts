// POST /api/login, GET /api/login/status, POST /api/logout: cookies, throttling, revocation.
import { describe, expect, it } from 'bun:test'
import { signAccessToken } from '../../src/domain/auth/access-token.ts'
import { MAX_LOGIN_FAILURES } from '../../src/domain/auth/login-throttle.ts'
import { createApiToken } from '../../src/domain/auth/tokens.ts'
import { startTestServer, TEST_PASSWORD, type TestServer, type Wire } from '../helpers/server.ts'

type SetCookie = { value: string; attributes: string[] }

/** Set-Cookie headers by cookie name. */
function setCookies(res: Response): Record<string, SetCookie> {
  const out: Record<string, SetCookie> = {}
  for (const header of res.headers.getSetCookie()) {
    const [pair, ...attributes] = header.split(';').map((p) => p.trim())
    const eq = pair!.indexOf('=')
    out[pair!.slice(0, eq)] = { value: pair!.slice(eq + 1), attributes }
  }
  return out
}

async function login(app: TestServer, password: string) {
  return app.req('/api/login', { method: 'POST', json: { password } })
}

const accessCookieOf = (res: Response) =>
  `tankobun_access=${setCookies(res).tankobun_access!.value}`

describe('POST /api/login', () => {
  it('answers Env login with an access cookie and a path-scoped refresh cookie', async () => {
    await using app = await startTestServer()
    const res = await login(app, TEST_PASSWORD)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ operation: 'login', success: 1 })
    const cookies = setCookies(res)
    expect(cookies.tankobun_access!.value.split('.')).toHaveLength(3)
    expect(cookies.tankobun_access!.attributes).toEqual([
      'Path=/',
      'HttpOnly',
      'SameSite=Lax',
      'Max-Age=14400',
    ])
    expect(cookies.tankobun_refresh!.value).toMatch(/^[0-9a-f]{32}\.[0-9a-f]{64}$/)
    expect(cookies.tankobun_refresh!.attributes).toEqual([
      'Path=/api/token/refresh',
      'HttpOnly',
      'SameSite=Lax',
      `Max-Age=${30 * 24 * 60 * 60}`,
    ])
    const status = await app.req('/api/login/status', { cookie: accessCookieOf(res) })
    expect(await status.json()).toEqual({ logged_in: true, password_enabled: true })
  })

  it('accepts a form-urlencoded body (LANraragi login form)', async () => {
    await using app = await startTestServer()
    const res = await app.req('/api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ password: TEST_PASSWORD }).toString(),
    })
    expect(res.status).toBe(200)
    expect(Object.keys(setCookies(res)).sort()).toEqual(['tankobun_access', 'tankobun_refresh'])
  })

  it('answers 401 Env for a wrong password and 400 Env without one', async () => {
    await using app = await startTestServer()
    const wrong = await login(app, 'not-the-password')
    expect(wrong.status).toBe(401)
    expect(await wrong.json()).toMatchObject({ operation: 'login', success: 0 })
    expect(wrong.headers.getSetCookie()).toEqual([])
    const missing = await app.req('/api/login', { method: 'POST', json: {} })
    expect(missing.status).toBe(400)
    expect(await missing.json()).toMatchObject({ operation: 'login', success: 0 })
  })

  it(`locks an address out with 429 after ${MAX_LOGIN_FAILURES} failures`, async () => {
    await using app = await startTestServer()
    for (let i = 0; i < MAX_LOGIN_FAILURES; i++) {
      expect((await login(app, `guess-${i}`)).status).toBe(401)
    }
    const locked = await login(app, TEST_PASSWORD)
    expect(locked.status).toBe(429)
    const body = (await locked.json()) as Wire
    expect(body).toMatchObject({ operation: 'login', success: 0 })
    expect(body.error).toContain('minute')
    // Retry-After in seconds: the 10-minute lock, give or take the time the test took.
    const retryAfter = Number(locked.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThan(500)
    expect(retryAfter).toBeLessThanOrEqual(600)
    expect(locked.headers.getSetCookie()).toEqual([])
  })
})

describe('GET /api/login/status', () => {
  it('reports logged out when anonymous, with a forged cookie and for an API token', async () => {
    await using app = await startTestServer()
    const loggedOut = { logged_in: false, password_enabled: true }
    expect(await (await app.req('/api/login/status')).json()).toEqual(loggedOut)
    const forged = await app.req('/api/login/status', { cookie: 'tankobun_access=a.b.c' })
    expect(await forged.json()).toEqual(loggedOut)
    const { secret } = createApiToken(app.deps, { name: 'script', role: 'admin' })
    const token = await app.req('/api/login/status', { token: secret })
    expect(await token.json()).toEqual(loggedOut)
  })

  it('reports logged in for everyone when password protection is disabled', async () => {
    await using app = await startTestServer({ password: '' })
    const res = await app.req('/api/login/status')
    expect(await res.json()).toEqual({ logged_in: true, password_enabled: false })
    // Session-only routes are open too, and any password logs in.
    expect((await app.req('/api/tokens')).status).toBe(200)
    expect((await login(app, 'anything')).status).toBe(200)
  })
})

describe('POST /api/logout', () => {
  it('revokes the family (its access token stops at once) and clears both cookies', async () => {
    await using app = await startTestServer()
    const cookie = await app.login()
    expect((await app.req('/api/tokens', { cookie })).status).toBe(200)
    const res = await app.req('/api/logout', { method: 'POST', cookie })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ operation: 'logout', success: 1 })
    const cleared = setCookies(res)
    expect(cleared.tankobun_access).toEqual({
      value: '',
      attributes: ['Path=/', 'HttpOnly', 'SameSite=Lax', 'Max-Age=0'],
    })
    expect(cleared.tankobun_refresh!.attributes).toContain('Path=/api/token/refresh')
    expect(cleared.tankobun_refresh!.attributes).toContain('Max-Age=0')
    expect((await app.req('/api/tokens', { cookie })).status).toBe(401)
    const refresh = await app.req('/api/token/refresh', { method: 'POST', cookie })
    expect(refresh.status).toBe(401)
  })

  it('revokes the family from an expired access token whose signature verifies', async () => {
    await using app = await startTestServer()
    const loginRes = await login(app, TEST_PASSWORD)
    const { tankobun_access: access, tankobun_refresh: refresh } = setCookies(loginRes)
    const familyId = JSON.parse(atob(access!.value.split('.')[1]!)).fid as string
    const expired = await signAccessToken(app.deps.auth.sessionKeys, familyId, 1_000_000)
    const staleCookie = `tankobun_access=${expired}`
    expect((await app.req('/api/tokens', { cookie: staleCookie })).status).toBe(401)

    const res = await app.req('/api/logout', { method: 'POST', cookie: staleCookie })
    expect(res.status).toBe(200)
    // The family is gone: neither its refresh token nor its unexpired access token work.
    const refreshCookie = `tankobun_refresh=${refresh!.value}`
    const redeemed = await app.req('/api/token/refresh', { method: 'POST', cookie: refreshCookie })
    expect(redeemed.status).toBe(401)
    const live = await app.req('/api/tokens', { cookie: `tankobun_access=${access!.value}` })
    expect(live.status).toBe(401)
  })

  it('revokes nothing for a token signed with another key, and still answers 200', async () => {
    await using app = await startTestServer()
    const cookie = await app.login()
    const fid = JSON.parse(atob(cookie.split('tankobun_access=')[1]!.split('.')[1]!)).fid as string
    const forged = await signAccessToken({ signingKey: new Uint8Array(32).fill(1) }, fid)
    const forgedCookie = `tankobun_access=${forged}`
    const res = await app.req('/api/logout', { method: 'POST', cookie: forgedCookie })
    expect(res.status).toBe(200)
    expect((await app.req('/api/tokens', { cookie })).status).toBe(200)
  })

  it('answers 200 and clears cookies without any session', async () => {
    await using app = await startTestServer()
    const res = await app.req('/api/logout', { method: 'POST' })
    expect(res.status).toBe(200)
    expect(Object.keys(setCookies(res)).sort()).toEqual(['tankobun_access', 'tankobun_refresh'])
  })
})
