// POST /api/token/refresh: rotation, reuse detection, the grace window for parallel tabs, expiry.
// Time is moved by backdating rows in the real database, never by waiting.
import { describe, expect, it } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import { refreshTokens, sessionFamilies } from '../../src/db/schema/auth.ts'
import { REFRESH_GRACE_MS, REFRESH_TTL_SECS } from '../../src/domain/auth/refresh.ts'
import { openSession } from '../../src/domain/auth/sessions.ts'
import { startTestServer, TEST_PASSWORD, type TestServer, type Wire } from '../helpers/server.ts'

type Session = { access: string; refresh: string }
function sessionOf(res: Response): Session {
  const jar: Record<string, string> = {}
  for (const header of res.headers.getSetCookie()) {
    const pair = header.split(';')[0]!
    jar[pair.slice(0, pair.indexOf('='))] = pair.slice(pair.indexOf('=') + 1)
  }
  return { access: jar.tankobun_access ?? '', refresh: jar.tankobun_refresh ?? '' }
}

async function login(app: TestServer): Promise<Session> {
  const res = await app.req('/api/login', { method: 'POST', json: { password: TEST_PASSWORD } })
  expect(res.status).toBe(200)
  return sessionOf(res)
}

const refresh = (app: TestServer, value: string) =>
  app.req('/api/token/refresh', { method: 'POST', cookie: `tankobun_refresh=${value}` })

/** A session-only route: proves an access cookie is (or is not) a live session. */
const sessionStatus = async (app: TestServer, access: string) =>
  (await app.req('/api/sessions', { cookie: `tankobun_access=${access}` })).status

/** Pretends the refresh token was rotated `ms` ago. */
function rotatedAgo(app: TestServer, value: string, ms: number): void {
  const id = value.split('.')[0]!
  app.deps.db
    .update(refreshTokens)
    .set({ rotatedAt: Date.now() - ms })
    .where(eq(refreshTokens.id, id))
    .run()
}

describe('POST /api/token/refresh', () => {
  it('rotates: a new access cookie and a new refresh value, both usable', async () => {
    await using app = await startTestServer()
    const first = await login(app)
    const res = await refresh(app, first.refresh)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ operation: 'token_refresh', success: 1 })
    const second = sessionOf(res)
    expect(second.refresh).toMatch(/^[0-9a-f]{32}\.[0-9a-f]{64}$/)
    expect(second.refresh).not.toBe(first.refresh)
    expect(res.headers.getSetCookie().join('\n')).toContain('Path=/api/token/refresh')
    expect(await sessionStatus(app, second.access)).toBe(200)
    const third = await refresh(app, second.refresh)
    expect(third.status).toBe(200)
  })

  it('detects reuse of a rotated token after the grace window and revokes the family', async () => {
    await using app = await startTestServer()
    const first = await login(app)
    const second = sessionOf(await refresh(app, first.refresh))
    rotatedAgo(app, first.refresh, REFRESH_GRACE_MS + 5000)

    const reused = await refresh(app, first.refresh)
    expect(reused.status).toBe(401)
    expect(await reused.json()).toMatchObject({ operation: 'token_refresh', success: 0 })
    expect(sessionOf(reused)).toEqual({ access: '', refresh: '' })
    // The whole family is burnt: the legitimate holder's tokens stop too.
    expect(await sessionStatus(app, second.access)).toBe(401)
    expect(await sessionStatus(app, first.access)).toBe(401)
    expect((await refresh(app, second.refresh)).status).toBe(401)
  })

  it('forgives a rotated token presented within the grace window (two tabs)', async () => {
    await using app = await startTestServer()
    const first = await login(app)
    const tabA = await refresh(app, first.refresh)
    const a = sessionOf(tabA)
    const tabB = await refresh(app, first.refresh)
    expect(tabB.status).toBe(200)
    const b = sessionOf(tabB)
    // Tab B gets the family's current refresh value, so both tabs hold the same valid cookie.
    expect(b.refresh).toBe(a.refresh)
    expect(await sessionStatus(app, b.access)).toBe(200)
    expect(await sessionStatus(app, a.access)).toBe(200)
    const next = await refresh(app, a.refresh)
    expect(next.status).toBe(200)
    // A late tab within the window follows the chain to the newest value.
    const late = sessionOf(await refresh(app, first.refresh))
    expect(late.refresh).toBe(sessionOf(next).refresh)
    expect(await sessionStatus(app, a.access)).toBe(200)
  })

  it('answers 401 Env for a missing, malformed, unknown or tampered refresh cookie', async () => {
    await using app = await startTestServer()
    const session = await login(app)
    const [id, secret] = session.refresh.split('.') as [string, string]
    const tampered = `${id}.${secret.slice(0, -1)}${secret.endsWith('0') ? '1' : '0'}`
    const missing = await app.req('/api/token/refresh', { method: 'POST' })
    for (const res of [
      missing,
      await refresh(app, 'garbage'),
      await refresh(app, `${'0'.repeat(32)}.${'0'.repeat(64)}`),
      await refresh(app, tampered),
    ]) {
      expect(res.status).toBe(401)
      expect(await res.json()).toMatchObject({ operation: 'token_refresh', success: 0 })
    }
    // A wrong secret is a guess, not reuse: the family stays alive.
    expect((await refresh(app, session.refresh)).status).toBe(200)
  })

  it('refuses an expired refresh token', async () => {
    await using app = await startTestServer()
    const session = await login(app)
    app.deps.db
      .update(refreshTokens)
      .set({ expiresAt: sql`${refreshTokens.createdAt} - 1` })
      .where(eq(refreshTokens.id, session.refresh.split('.')[0]!))
      .run()
    expect((await refresh(app, session.refresh)).status).toBe(401)
  })
})

describe('GET /api/sessions, DELETE /api/sessions/:family_id', () => {
  it('lists live sessions with the current one flagged, never secrets', async () => {
    await using app = await startTestServer()
    const mine = await login(app)
    const other = await login(app)
    const res = await app.req('/api/sessions', { cookie: `tankobun_access=${mine.access}` })
    expect(res.status).toBe(200)
    const text = await res.text()
    const list = JSON.parse(text) as Record<string, unknown>[]
    expect(list).toHaveLength(2)
    expect(list.filter((s) => s.current)).toHaveLength(1)
    for (const s of list) {
      expect(Object.keys(s).sort()).toEqual(
        ['created_at', 'current', 'family_id', 'ip', 'last_seen_at', 'user_agent'].sort(),
      )
      expect(s.ip).toBe('127.0.0.1')
    }
    for (const value of [mine.refresh, other.refresh, mine.access]) {
      expect(text).not.toContain(value.split('.')[1]!)
    }
  })

  it('revokes another session: its access stops at once and it leaves the list', async () => {
    await using app = await startTestServer()
    const mine = await login(app)
    const other = await login(app)
    const cookie = `tankobun_access=${mine.access}`
    const list = (await (await app.req('/api/sessions', { cookie })).json()) as Wire[]
    const target = list.find((s) => !s.current)!.family_id as string
    const res = await app.req(`/api/sessions/${target}`, { method: 'DELETE', cookie })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ operation: 'revoke_session', success: 1, family_id: target })
    expect(await sessionStatus(app, other.access)).toBe(401)
    expect((await refresh(app, other.refresh)).status).toBe(401)
    const after = (await (await app.req('/api/sessions', { cookie })).json()) as unknown[]
    expect(after).toHaveLength(1)
    const again = await app.req(`/api/sessions/${target}`, { method: 'DELETE', cookie })
    expect(again.status).toBe(404)
    expect(await again.json()).toMatchObject({ operation: 'revoke_session', success: 0 })
  })

  it('clears the cookies when a session revokes itself', async () => {
    await using app = await startTestServer()
    const mine = await login(app)
    const cookie = `tankobun_access=${mine.access}`
    const [me] = (await (await app.req('/api/sessions', { cookie })).json()) as Wire[]
    const res = await app.req(`/api/sessions/${me!.family_id}`, { method: 'DELETE', cookie })
    expect(res.status).toBe(200)
    expect(sessionOf(res)).toEqual({ access: '', refresh: '' })
    expect(await sessionStatus(app, mine.access)).toBe(401)
    const revoked = app.deps.db.select().from(sessionFamilies).all()
    expect(revoked.every((f) => f.revokedAt !== null)).toBe(true)
  })

  it('forgets families unseen for a refresh lifetime, or long revoked, at a login', async () => {
    await using app = await startTestServer()
    const meta = { ip: null, userAgent: null }
    const stale = await openSession(app.deps, meta)
    const revoked = await openSession(app.deps, meta)
    const kept = await openSession(app.deps, meta)
    const longAgo = Math.floor(Date.now() / 1000) - REFRESH_TTL_SECS - 60
    const families = app.deps.db.update(sessionFamilies)
    families.set({ lastSeenAt: longAgo }).where(eq(sessionFamilies.id, stale.familyId)).run()
    families.set({ revokedAt: longAgo }).where(eq(sessionFamilies.id, revoked.familyId)).run()
    await openSession(app.deps, meta)
    const ids = app.deps.db.select({ id: sessionFamilies.id }).from(sessionFamilies).all()
    expect(ids.map((r) => r.id)).not.toContain(stale.familyId)
    expect(ids.map((r) => r.id)).not.toContain(revoked.familyId)
    expect(ids.map((r) => r.id)).toContain(kept.familyId)
    expect(ids).toHaveLength(2)
  })
})
