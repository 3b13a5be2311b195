// API tokens: create (secret once), list (never the secret), rename, delete, expiry, last use,
// Bearer forms, roles; and secrets never reaching the log.
import { afterEach, describe, expect, it } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { apiTokens } from '../../src/db/schema/auth.ts'
import { sha256Hex } from '../../src/domain/auth/secrets.ts'
import { openSession } from '../../src/domain/auth/sessions.ts'
import { setLogLevel, setLogSink } from '../../src/log.ts'
import { startTestServer, TEST_PASSWORD, type TestServer, type Wire } from '../helpers/server.ts'

async function create(app: TestServer, cookie: string, body: Wire) {
  const res = await app.req('/api/tokens', { method: 'POST', cookie, json: body })
  return { status: res.status, body: (await res.json()) as Wire }
}

async function list(app: TestServer, cookie: string): Promise<{ text: string; tokens: Wire[] }> {
  const res = await app.req('/api/tokens', { cookie })
  expect(res.status).toBe(200)
  const text = await res.text()
  return { text, tokens: JSON.parse(text) as Wire[] }
}

const nowSecs = () => Math.floor(Date.now() / 1000)

/** A session cookie minted in-process: login itself is tested in auth-login.test.ts. */
async function sessionCookie(app: TestServer): Promise<string> {
  const grant = await openSession(app.deps, { ip: '127.0.0.1', userAgent: 'test' })
  return `tankobun_access=${grant.accessToken}`
}

describe('POST /api/tokens', () => {
  it('shows the secret once, as tkb_ + 64 hex, with the ApiToken fields', async () => {
    await using app = await startTestServer()
    const cookie = await sessionCookie(app)
    const { status, body } = await create(app, cookie, { name: 'reader app', role: 'guest' })
    expect(status).toBe(200)
    expect(body).toMatchObject({ operation: 'create_token', success: 1 })
    expect(body.data.token).toMatch(/^tkb_[0-9a-f]{64}$/)
    expect(body.data).toMatchObject({ name: 'reader app', role: 'guest' })
    expect(Math.abs(body.data.created_at - nowSecs())).toBeLessThan(120)
    // Optional fields are absent, not null.
    expect(Object.keys(body.data).sort()).toEqual(['created_at', 'id', 'name', 'role', 'token'])
  })

  it('sets expires_at from expires_in_secs', async () => {
    await using app = await startTestServer()
    const cookie = await sessionCookie(app)
    const { body } = await create(app, cookie, { name: 'x', role: 'admin', expires_in_secs: 3600 })
    expect(body.data.expires_at).toBe(body.data.created_at + 3600)
  })

  it('answers 400 Env for a bad role, an empty name or a bad expiry', async () => {
    await using app = await startTestServer()
    const cookie = await sessionCookie(app)
    for (const bad of [
      { name: 'x', role: 'owner' },
      { name: '   ', role: 'admin' },
      { role: 'admin' },
      { name: 'x', role: 'admin', expires_in_secs: 0 },
      { name: 'x'.repeat(101), role: 'admin' },
    ]) {
      const { status, body } = await create(app, cookie, bad)
      expect({ bad, status }).toEqual({ bad, status: 400 })
      expect(body).toMatchObject({ operation: 'create_token', success: 0 })
    }
    expect((await list(app, cookie)).tokens).toEqual([])
  })
})

describe('using a token', () => {
  it('works as Bearer <token> and as Bearer <base64 of the token>', async () => {
    await using app = await startTestServer()
    const cookie = await sessionCookie(app)
    const secret = (await create(app, cookie, { name: 'a', role: 'admin' })).body.data.token
    expect((await app.req('/api/settings', { token: secret })).status).toBe(200)
    const encoded = Buffer.from(secret).toString('base64')
    expect((await app.req('/api/settings', { token: encoded })).status).toBe(200)
    expect((await app.req('/api/settings', { token: secret.slice(0, -1) + 'x' })).status).toBe(401)
  })

  it('limits a guest token to reading', async () => {
    await using app = await startTestServer()
    const cookie = await sessionCookie(app)
    const secret = (await create(app, cookie, { name: 'g', role: 'guest' })).body.data.token
    expect((await app.req('/api/jobs', { token: secret })).status).toBe(200)
    const write = await app.req('/api/settings', {
      method: 'PUT',
      token: secret,
      json: { motd: 'x' },
    })
    expect(write.status).toBe(403)
    expect(await write.json()).toMatchObject({ operation: 'update_settings', success: 0 })
    const manage = await app.req('/api/tokens', { token: secret })
    expect(manage.status).toBe(403)
  })

  it('keeps an admin token away from token and session management (403)', async () => {
    await using app = await startTestServer()
    const cookie = await sessionCookie(app)
    const secret = (await create(app, cookie, { name: 'a', role: 'admin' })).body.data.token
    for (const [method, path] of [
      ['GET', '/api/tokens'],
      ['POST', '/api/tokens'],
      ['GET', '/api/sessions'],
      ['PUT', '/api/settings/password'],
    ] as const) {
      const json = method === 'GET' ? undefined : {}
      const res = await app.req(path, { method, token: secret, json })
      expect({ path, status: res.status }).toEqual({ path, status: 403 })
    }
  })

  it('records last_used_at and last_used_ip, written at most once a minute', async () => {
    await using app = await startTestServer()
    const cookie = await sessionCookie(app)
    const { data } = (await create(app, cookie, { name: 'a', role: 'guest' })).body
    await app.req('/api/jobs', { token: data.token })
    const used = (await list(app, cookie)).tokens[0]!
    expect(used.last_used_ip).toBe('127.0.0.1')
    expect(Math.abs(used.last_used_at - nowSecs())).toBeLessThan(120)

    const setLastUse = (at: number) =>
      app.deps.db.update(apiTokens).set({ lastUsedAt: at }).where(eq(apiTokens.id, data.id)).run()
    setLastUse(nowSecs() - 30)
    await app.req('/api/jobs', { token: data.token })
    expect((await list(app, cookie)).tokens[0]!.last_used_at).toBe(nowSecs() - 30)
    setLastUse(nowSecs() - 120)
    await app.req('/api/jobs', { token: data.token })
    expect((await list(app, cookie)).tokens[0]!.last_used_at).toBeGreaterThan(nowSecs() - 100)
  })

  it('stops working once expired', async () => {
    await using app = await startTestServer()
    const cookie = await sessionCookie(app)
    const { data } = (await create(app, cookie, { name: 'a', role: 'admin', expires_in_secs: 60 }))
      .body
    expect((await app.req('/api/settings', { token: data.token })).status).toBe(200)
    app.deps.db
      .update(apiTokens)
      .set({ expiresAt: nowSecs() - 1 })
      .where(eq(apiTokens.id, data.id))
      .run()
    expect((await app.req('/api/settings', { token: data.token })).status).toBe(401)
  })
})

describe('GET, PATCH, DELETE /api/tokens', () => {
  it('lists tokens without the secret or its hash', async () => {
    await using app = await startTestServer()
    const cookie = await sessionCookie(app)
    const secrets = [
      (await create(app, cookie, { name: 'one', role: 'admin' })).body.data.token,
      (await create(app, cookie, { name: 'two', role: 'guest', expires_in_secs: 99 })).body.data
        .token,
    ] as string[]
    const { text, tokens } = await list(app, cookie)
    expect(tokens.map((t) => [t.name, t.role])).toEqual([
      ['one', 'admin'],
      ['two', 'guest'],
    ])
    for (const token of tokens) {
      expect(token.token).toBeUndefined()
      expect(token.secret_hash).toBeUndefined()
    }
    for (const secret of secrets) {
      expect(text).not.toContain(secret)
      expect(text).not.toContain(secret.slice(4))
      expect(text).not.toContain(sha256Hex(secret))
    }
  })

  it('renames a token and answers 404 Env for an unknown id', async () => {
    await using app = await startTestServer()
    const cookie = await sessionCookie(app)
    const { data } = (await create(app, cookie, { name: 'old', role: 'guest' })).body
    const res = await app.req(`/api/tokens/${data.id}`, {
      method: 'PATCH',
      cookie,
      json: { name: 'new' },
    })
    expect(res.status).toBe(200)
    const body = (await res.json()) as Wire
    expect(body).toMatchObject({ operation: 'rename_token', success: 1, data: { name: 'new' } })
    expect(body.data.token).toBeUndefined()
    expect((await list(app, cookie)).tokens[0]!.name).toBe('new')
    const unknown = await app.req('/api/tokens/nope', {
      method: 'PATCH',
      cookie,
      json: { name: 'x' },
    })
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toMatchObject({ operation: 'rename_token', success: 0 })
  })

  it('deletes a token, which then stops working; an unknown id is 404 Env', async () => {
    await using app = await startTestServer()
    const cookie = await sessionCookie(app)
    const { data } = (await create(app, cookie, { name: 'a', role: 'admin' })).body
    const res = await app.req(`/api/tokens/${data.id}`, { method: 'DELETE', cookie })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ operation: 'delete_token', success: 1, id: data.id })
    expect((await app.req('/api/settings', { token: data.token })).status).toBe(401)
    expect((await list(app, cookie)).tokens).toEqual([])
    const again = await app.req(`/api/tokens/${data.id}`, { method: 'DELETE', cookie })
    expect(again.status).toBe(404)
    expect(await again.json()).toMatchObject({ operation: 'delete_token', success: 0 })
  })
})

describe('secrets at rest', () => {
  it('stores only the SHA-256 of a token and of a refresh secret, never the secrets', async () => {
    await using app = await startTestServer()
    const cookie = await sessionCookie(app)
    const { data } = (await create(app, cookie, { name: 'stored', role: 'admin' })).body
    const login = await app.req('/api/login', { method: 'POST', json: { password: TEST_PASSWORD } })
    const refresh = login.headers
      .getSetCookie()
      .find((c) => c.startsWith('tankobun_refresh='))!
      .split(';')[0]!
      .split('=')[1]!
    const row = app.deps.db.select().from(apiTokens).where(eq(apiTokens.id, data.id)).get()!
    expect(row.secretHash).toBe(sha256Hex(data.token))
    const dataDir = join(app.root, 'data')
    const stored = readdirSync(dataDir)
      .filter((name) => name.startsWith('db.sqlite'))
      .map((name) => readFileSync(join(dataDir, name)).toString('latin1'))
      .join('')
    expect(stored.length).toBeGreaterThan(0)
    expect(stored).toContain(sha256Hex(data.token))
    for (const secret of [data.token, data.token.slice(4), refresh.split('.')[1]!, TEST_PASSWORD]) {
      expect(stored).not.toContain(secret)
    }
  })
})

describe('secrets in logs', () => {
  afterEach(() => {
    setLogSink((line) => process.stderr.write(line + '\n'))
    setLogLevel('silent')
  })

  it('never writes a password, token, refresh value or access cookie to the log', async () => {
    await using app = await startTestServer()
    const lines: string[] = []
    setLogSink((line) => lines.push(line))
    setLogLevel('debug')

    const login = (password: string) =>
      app.req('/api/login', { method: 'POST', json: { password } })
    expect((await login('wrong-pw-123')).status).toBe(401)
    const loginRes = await login(TEST_PASSWORD)
    const jar = loginRes.headers.getSetCookie().map((c) => c.split(';')[0]!)
    const cookie = jar.join('; ')
    const refreshValue = jar.find((c) => c.startsWith('tankobun_refresh='))!.split('=')[1]!
    const rotated = await app.req('/api/token/refresh', { method: 'POST', cookie })
    const newRefresh = rotated.headers
      .getSetCookie()
      .find((c) => c.startsWith('tankobun_refresh='))!
      .split(';')[0]!
      .split('=')[1]!
    const { data } = (await create(app, cookie, { name: 'logged', role: 'admin' })).body
    await app.req('/api/settings', { token: data.token })
    await app.req('/api/settings', { token: Buffer.from(data.token).toString('base64') })
    await app.req('/api/settings', { token: data.token.slice(0, -1) + 'f' })
    await app.req('/api/settings/password', { method: 'PUT', cookie, json: { password: 'n3w-pw' } })

    const log = lines.join('\n')
    expect(lines.length).toBeGreaterThan(2)
    expect(log).toContain('api token created')
    for (const secret of [
      'wrong-pw-123',
      TEST_PASSWORD,
      'n3w-pw',
      data.token,
      data.token.slice(4),
      sha256Hex(data.token),
      refreshValue.split('.')[1]!,
      newRefresh.split('.')[1]!,
      jar.find((c) => c.startsWith('tankobun_access='))!.split('=')[1]!,
    ]) {
      expect(log).not.toContain(secret)
    }
  })
})
