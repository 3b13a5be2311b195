// GET/PUT /api/settings (admin) and PUT /api/settings/password (session only).
import { describe, expect, it } from 'bun:test'
import { DEFAULT_SETTINGS, SETTING_SCHEMAS } from '../../src/domain/settings.ts'
import { openSession } from '../../src/domain/auth/sessions.ts'
import { startTestServer, TEST_PASSWORD, type TestServer, type Wire } from '../helpers/server.ts'

async function sessionCookie(app: TestServer): Promise<string> {
  const grant = await openSession(app.deps, { ip: '127.0.0.1', userAgent: 'test' })
  return `tankobun_access=${grant.accessToken}`
}

async function put(app: TestServer, cookie: string, json: unknown) {
  const res = await app.req('/api/settings', { method: 'PUT', cookie, json })
  return { status: res.status, body: (await res.json()) as Wire }
}

const login = (app: TestServer, password: string) =>
  app.req('/api/login', { method: 'POST', json: { password } })

describe('GET /api/settings', () => {
  it('returns every public setting with its default, and the key only as a flag', async () => {
    await using app = await startTestServer()
    const res = await app.req('/api/settings', { cookie: await sessionCookie(app) })
    expect(res.status).toBe(200)
    const { llm_api_key: _writeOnly, ...visible } = DEFAULT_SETTINGS
    expect(await res.json()).toEqual({ ...visible, llm_api_key_set: false })
  })

  it('never returns the language-model key once set', async () => {
    await using app = await startTestServer()
    const cookie = await sessionCookie(app)
    const { status, body } = await put(app, cookie, { llm_api_key: 'sk-very-secret-value' })
    expect(status).toBe(200)
    expect(body.llm_api_key_set).toBe(true)
    const res = await app.req('/api/settings', { cookie })
    const text = await res.text()
    expect(text).not.toContain('sk-very-secret-value')
    expect(JSON.parse(text)).toMatchObject({ llm_api_key_set: true })
    expect(JSON.parse(text).llm_api_key).toBeUndefined()
  })
})

describe('PUT /api/settings', () => {
  it('updates only the given keys and returns the new settings', async () => {
    await using app = await startTestServer()
    const cookie = await sessionCookie(app)
    const { status, body } = await put(app, cookie, {
      archives_per_page: 25,
      motd: 'Hello',
      excluded_namespaces: ['source'],
      thumbnail_format: 'jpeg',
    })
    expect(status).toBe(200)
    expect(body).toMatchObject({
      archives_per_page: 25,
      motd: 'Hello',
      excluded_namespaces: ['source'],
      thumbnail_format: 'jpeg',
      name: DEFAULT_SETTINGS.name,
      nofun_mode: true,
    })
    const info = (await (await app.req('/api/info')).json()) as Wire
    expect(info).toMatchObject({ archives_per_page: 25, motd: 'Hello' })
  })

  it('accepts every setting the spec and API-NOTES name', async () => {
    await using app = await startTestServer()
    const named = [
      'archives_per_page',
      'nofun_mode',
      'server_tracks_progress',
      'authenticated_progress',
      'server_resizes_images',
      'excluded_namespaces',
      'motd',
      'name',
      'debug_mode',
      'guest_mode',
      'enable_cors',
      'cors_origins',
      'thumbnail_format',
      'plugin_timeout_ms',
      'plugin_memory_mb',
      'llm_api_key',
    ]
    expect(Object.keys(SETTING_SCHEMAS)).toEqual(expect.arrayContaining(named))
    const { status } = await put(app, await sessionCookie(app), { ...DEFAULT_SETTINGS })
    expect(status).toBe(200)
  })

  it('answers 400 Env for an unknown key or a bad value and writes nothing', async () => {
    await using app = await startTestServer()
    const cookie = await sessionCookie(app)
    for (const patch of [
      { motd: 'changed', no_such_setting: 1 },
      { motd: 'changed', archives_per_page: 'many' },
      { motd: 'changed', archives_per_page: 0 },
      { motd: 'changed', thumbnail_format: 'gif' },
      { motd: 'changed', cors_origins: ['https://ok.example', 'not an origin'] },
      { motd: 'changed', cors_origins: ['https://trailing.example/'] },
    ]) {
      const { status, body } = await put(app, cookie, patch)
      expect({ patch, status }).toEqual({ patch, status: 400 })
      expect(body).toMatchObject({ operation: 'update_settings', success: 0 })
    }
    const nonObject = await put(app, cookie, ['motd'])
    expect(nonObject.status).toBe(400)
    expect(app.deps.settings.get('motd')).toBe(DEFAULT_SETTINGS.motd)
  })

  it('answers 400 Env for a __proto__ key, alone or beside real settings, and writes nothing', async () => {
    await using app = await startTestServer()
    const cookie = await sessionCookie(app)
    for (const body of [
      '{"__proto__": {"motd": "polluted"}}',
      '{"motd": "changed", "__proto__": {"nofun_mode": true}}',
      '{"motd": "changed", "constructor": {"prototype": {}}}',
    ]) {
      const res = await app.req('/api/settings', {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body,
        cookie,
      })
      expect({ body, status: res.status }).toEqual({ body, status: 400 })
      expect(await res.json()).toMatchObject({ operation: 'update_settings', success: 0 })
    }
    expect(app.deps.settings.get('motd')).toBe(DEFAULT_SETTINGS.motd)
    expect(({} as Record<string, unknown>).motd).toBeUndefined()
    // A value that only mentions the word is an ordinary string.
    const fine = await put(app, cookie, { motd: 'about __proto__' })
    expect(fine.status).toBe(200)
  })

  it('checks the type and range of every key: 400 Env naming it, nothing written', async () => {
    await using app = await startTestServer()
    const cookie = await sessionCookie(app)
    const bad: Record<string, unknown[]> = {
      archives_per_page: [0, -1, 10001, 2.5, '25', null, true],
      nofun_mode: ['true', 1, null],
      server_tracks_progress: ['false', 0],
      authenticated_progress: ['yes', null],
      server_resizes_images: [1],
      tankoubons_as_archives: ['true', 1, null],
      excluded_namespaces: ['source', [1], [''], ['x'.repeat(201)], null],
      motd: [42, null, 'x'.repeat(10001)],
      name: ['', 7, 'x'.repeat(201)],
      debug_mode: ['on'],
      guest_mode: [1],
      enable_cors: ['true'],
      cors_origins: ['*', [3], ['ftp://x.example'], Array(101).fill('*')],
      thumbnail_format: ['png', '', null],
      plugin_timeout_ms: [99, 600001, 1.5, '30000'],
      plugin_memory_mb: [7, 4097, '64'],
      llm_api_key: [12, ['k'], 'k'.repeat(4097)],
      llm_base_url: ['', 'ftp://x.example/v1', 'not a url', 'https://' + 'x'.repeat(2048), 3],
      llm_model: ['', 7, 'm'.repeat(201)],
    }
    expect(Object.keys(bad).sort()).toEqual(Object.keys(SETTING_SCHEMAS).sort())
    const problems: unknown[] = []
    for (const [key, values] of Object.entries(bad)) {
      for (const value of values) {
        const { status, body } = await put(app, cookie, { motd: 'changed', [key]: value })
        const named = typeof body.error === 'string' && body.error.includes(key)
        if (status !== 400 || body.success !== 0 || body.operation !== 'update_settings') {
          problems.push({ key, value, status, body })
        } else if (!named && key !== 'cors_origins') {
          problems.push({ key, value, error: body.error })
        }
      }
    }
    expect(problems).toEqual([])
    const after = (await (await app.req('/api/settings', { cookie })).json()) as Wire
    const { llm_api_key: _writeOnly, ...visible } = DEFAULT_SETTINGS
    expect(after).toEqual({ ...visible, llm_api_key_set: false })
  })

  it('answers 400 Env to a body that is not an object of settings', async () => {
    await using app = await startTestServer()
    const cookie = await sessionCookie(app)
    for (const [type, body] of [
      ['text/plain', 'motd=x'],
      ['application/json', '"motd"'],
      ['application/json', 'null'],
      ['application/json', '{"motd": '],
    ]) {
      const res = await app.req('/api/settings', {
        method: 'PUT',
        cookie,
        headers: { 'content-type': type! },
        body,
      })
      expect({ body, status: res.status }).toEqual({ body, status: 400 })
      expect(await res.json()).toMatchObject({ operation: 'update_settings', success: 0 })
    }
    expect(app.deps.settings.get('motd')).toBe(DEFAULT_SETTINGS.motd)
  })

  it('takes string settings from a form body, and refuses a form with an unknown key', async () => {
    await using app = await startTestServer()
    const cookie = await sessionCookie(app)
    const form = (fields: Record<string, string>) =>
      app.req('/api/settings', { method: 'PUT', cookie, body: new URLSearchParams(fields) })
    const res = await form({ motd: 'From a form', name: 'Shelf' })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ motd: 'From a form', name: 'Shelf' })
    expect((await form({ motd: 'x', nope: 'y' })).status).toBe(400)
    expect(app.deps.settings.get('motd')).toBe('From a form')
  })

  it('takes effect at once: nofun_mode off opens dash routes to anonymous callers', async () => {
    await using app = await startTestServer()
    expect((await app.req('/api/jobs')).status).toBe(401)
    expect((await put(app, await sessionCookie(app), { nofun_mode: false })).status).toBe(200)
    expect((await app.req('/api/jobs')).status).toBe(200)
    expect((await app.req('/api/settings')).status).toBe(401)
  })
})

describe('PUT /api/settings/password', () => {
  it('changes the password and revokes every other session, keeping the caller', async () => {
    await using app = await startTestServer()
    const mine = await sessionCookie(app)
    const other = await sessionCookie(app)
    const res = await app.req('/api/settings/password', {
      method: 'PUT',
      cookie: mine,
      json: { password: 'a-new-password' },
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      operation: 'set_password',
      success: 1,
      password_enabled: true,
    })
    expect((await app.req('/api/sessions', { cookie: mine })).status).toBe(200)
    expect((await app.req('/api/sessions', { cookie: other })).status).toBe(401)
    expect((await login(app, TEST_PASSWORD)).status).toBe(401)
    expect((await login(app, 'a-new-password')).status).toBe(200)
  })

  it('disables protection with an empty password; re-enabling keeps the browser in', async () => {
    await using app = await startTestServer()
    const cookie = await sessionCookie(app)
    const off = await app.req('/api/settings/password', {
      method: 'PUT',
      cookie,
      json: { password: '' },
    })
    expect(await off.json()).toMatchObject({ success: 1, password_enabled: false })
    const status = await app.req('/api/login/status')
    expect(await status.json()).toEqual({ logged_in: true, password_enabled: false })

    // Protection off: the caller has no family; enabling hands it a fresh session.
    const on = await app.req('/api/settings/password', {
      method: 'PUT',
      json: { password: 'back-on' },
    })
    expect(on.status).toBe(200)
    const fresh = on.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ')
    expect(fresh).toContain('tankobun_access=')
    expect((await app.req('/api/sessions', { cookie: fresh })).status).toBe(200)
    expect((await app.req('/api/sessions')).status).toBe(401)
  })

  it('answers 400 Env without a password', async () => {
    await using app = await startTestServer()
    const res = await app.req('/api/settings/password', {
      method: 'PUT',
      cookie: await sessionCookie(app),
      json: {},
    })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ operation: 'set_password', success: 0 })
  })
})
