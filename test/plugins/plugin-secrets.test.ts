// Secret plugin arguments (issue 25, §3): parameters marked `secret: true` are write-only for
// everyone, a plugin's other settings are the administrator's, and no answer a guest or anonymous
// visitor can read (listings, jobs, backups) carries a saved argument or a login's session.
// Through the real server, the real sandbox and a fake site on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'

import { createApiToken } from '../../src/domain/auth/tokens.ts'
import { seedArchive } from '../helpers/seed.ts'
import { startTestServer, type TestServer } from '../helpers/server.ts'
import { sideload } from '../helpers/plugins.ts'

const SECRET = 'hunter2-secret-7f3a'
const LOGIN = 'custom/login/site'
const SETTINGS = `/api/plugins/settings?namespace=${LOGIN}`

const PLUGINS: Record<string, string> = {
  'login/site.ts': `export function pluginInfo() {
      return { name: 'Site login', version: '1', type: 'login', hosts: ['127.0.0.1'],
        parameters: [
          { name: 'user', type: 'string', desc: 'user name' },
          { name: 'password', type: 'string', desc: 'password', secret: true },
        ] }
    }
    export function execLogin(ctx) {
      return { cookies: [{ name: 'auth', value: ctx.args.user + ':' + ctx.args.password }] }
    }`,
  'login/leaky.ts': `export function pluginInfo() {
      return { name: 'Leaky login', version: '1', type: 'login', hosts: ['127.0.0.1'],
        parameters: [{ name: 'password', type: 'string', desc: 'password', secret: true }] }
    }
    export function execLogin(ctx) {
      if (ctx.oneshot === 'answer') return { error: 'wrong password ' + ctx.args.password }
      throw new Error('refused for ' + ctx.args.password)
    }`,
  'metadata/member.ts': `export function pluginInfo() {
      return { name: 'Member', version: '1', type: 'metadata', hosts: ['127.0.0.1'],
        login_from: '${LOGIN}' }
    }
    export async function execMetadata(ctx) {
      await fetch(ctx.oneshot)
      return { tags: 'seen:yes' }
    }`,
}

let app: TestServer
let cookie: string
let guest: string
let site: ReturnType<typeof Bun.serve>
const cookiesSeen: string[] = []

beforeAll(async () => {
  site = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(req) {
      cookiesSeen.push(req.headers.get('cookie') ?? '')
      return new Response('ok')
    },
  })
  app = await startTestServer({
    config: { fetchAllowPrivate: ['127.0.0.1'] },
    beforeStart: (contentDir) => sideload(contentDir, PLUGINS),
  })
  // Seeded rows have no file: the first scan must be over, or it hides them as vanished.
  await app.idle()
  cookie = await app.login()
  guest = createApiToken(app.deps, { name: 'g', role: 'guest' }).secret
})

afterAll(async () => {
  await app?.[Symbol.asyncDispose]()
  site?.stop(true)
})

const put = (path: string, customargs: unknown[]) =>
  app.json(path, { method: 'PUT', cookie, json: { customargs } })

/** The login's arguments as its run sees them: the cookie the fake site received. */
async function sessionCookie(): Promise<string> {
  const row = seedArchive(app.deps, { title: `run ${cookiesSeen.length}` })
  cookiesSeen.length = 0
  const { body } = await app.json(
    `/api/plugins/use?plugin=custom/metadata/member&id=${row.id}&arg=${encodeURIComponent(`http://127.0.0.1:${site.port}/`)}`,
    { method: 'POST', cookie },
  )
  expect(body.success).toBe(1)
  return cookiesSeen[0] ?? ''
}

describe('secret plugin arguments', () => {
  it('are saved and used by the run, but answered only as set / not set', async () => {
    const saved = await put(SETTINGS, ['reader', SECRET])
    expect(saved.status).toBe(200)
    expect(saved.body).toMatchObject({ customargs: ['reader', null], secret_set: [false, true] })
    const got = await app.json(SETTINGS, { cookie })
    expect(got.body).toMatchObject({ customargs: ['reader', null], secret_set: [false, true] })
    expect(JSON.stringify(got.body)).not.toContain(SECRET)
    expect(await sessionCookie()).toBe(`auth=reader:${SECRET}`)
  })

  it('answer the exact wire keys in order; a plugin without secrets answers no secret_set', async () => {
    const saved = await put(SETTINGS, ['reader', SECRET])
    expect(Object.keys(saved.body)).toEqual([
      'operation',
      'success',
      'customargs',
      'enabled',
      'secret_set',
    ])
    expect(Object.keys((await app.json(SETTINGS, { cookie })).body)).toEqual([
      'operation',
      'success',
      'customargs',
      'enabled',
      'secret_set',
    ])
    const plain = await app.json('/api/plugins/settings?namespace=metadata/filename', { cookie })
    expect(Object.keys(plain.body)).toEqual(['operation', 'success', 'customargs', 'enabled'])
  })

  it('keep their value when a PUT sends null or leaves them out, and clear on ""', async () => {
    await put(SETTINGS, ['reader', SECRET])
    // What a client echoing the GET sends: the secret's null keeps it.
    expect((await put(SETTINGS, ['other', null])).body.secret_set).toEqual([false, true])
    expect((await put(SETTINGS, ['third'])).body.secret_set).toEqual([false, true])
    expect(await sessionCookie()).toBe(`auth=third:${SECRET}`)
    // Replacing it works like any argument.
    await put(SETTINGS, ['third', 'replaced'])
    expect(await sessionCookie()).toBe('auth=third:replaced')
    const cleared = await put(SETTINGS, ['third', ''])
    expect(cleared.body).toMatchObject({ customargs: ['third', null], secret_set: [false, false] })
  })

  it('hide the built-in E-Hentai login cookies', async () => {
    const path = '/api/plugins/settings?namespace=login/ehentai'
    const saved = await put(path, ['4242', 'pass-hash-xyz', ''])
    expect(saved.body).toMatchObject({
      customargs: [null, null, null],
      secret_set: [true, true, false],
    })
    expect(JSON.stringify((await app.json(path, { cookie })).body)).not.toContain('pass-hash-xyz')
    const { body } = await app.json('/api/plugins/login', { cookie })
    const ehentai = (body as { namespace: string; parameters: Record<string, string>[] }[]).find(
      (p) => p.namespace === 'login/ehentai',
    )
    expect(ehentai?.parameters.map((p) => p.secret)).toEqual(['true', 'true', 'true'])
  })
})

describe("a plugin's settings are the administrator's", () => {
  it('refuse a guest token (403) and anonymous callers (401), nofun_mode off included', async () => {
    await put(SETTINGS, ['reader', SECRET])
    const asGuest = await app.json(SETTINGS, { token: guest })
    expect(asGuest.status).toBe(403)
    expect(asGuest.body).toMatchObject({ operation: 'get_plugin_settings', success: 0 })
    expect((await app.json(SETTINGS)).status).toBe(401)
    await app.json('/api/settings', { method: 'PUT', cookie, json: { nofun_mode: false } })
    try {
      const anonymous = await app.json(SETTINGS)
      expect(anonymous.status).toBe(401)
      expect(JSON.stringify(anonymous.body)).not.toContain('reader')
      expect((await app.json('/api/plugins/settings?namespace=login/ehentai')).status).toBe(401)
    } finally {
      await app.json('/api/settings', { method: 'PUT', cookie, json: { nofun_mode: true } })
    }
  })

  it('never reach the answers a guest reads: listings, job results, backups', async () => {
    await put(SETTINGS, ['reader', SECRET])
    // A login run's answer (run now or job) names its cookies, never their values.
    const used = await app.json(`/api/plugins/use?plugin=${LOGIN}`, { method: 'POST', cookie })
    expect(used.body).toMatchObject({ success: 1, data: { cookies: [{ name: 'auth' }] } })
    expect(JSON.stringify(used.body)).not.toContain(SECRET)
    const queued = await app.json(`/api/plugins/queue?plugin=${LOGIN}`, {
      method: 'POST',
      cookie,
    })
    expect(queued.status).toBe(200)
    await app.deps.jobs.waitFor(queued.body.job)
    for (const path of [
      '/api/plugins/all',
      '/api/jobs',
      `/api/minion/${queued.body.job}`,
      `/api/jobqueue/${queued.body.job}`,
      `/api/plugins/export?namespace=${LOGIN}`,
      '/api/database/backup',
    ]) {
      const res = await app.req(path, { token: guest })
      expect([path, res.status]).toEqual([path, 200])
      expect([path, (await res.text()).includes(SECRET)]).toEqual([path, false])
    }
  })

  it('mask a secret in the message of a run that fails, wherever it is reported', async () => {
    await put('/api/plugins/settings?namespace=custom/login/leaky', [SECRET])
    const thrown = await app.json('/api/plugins/use?plugin=custom/login/leaky', {
      method: 'POST',
      cookie,
    })
    expect(thrown.body).toMatchObject({ success: 0 })
    expect(thrown.body.error).toEndWith('Error: refused for ***')
    const answered = await app.json('/api/plugins/use?plugin=custom/login/leaky&arg=answer', {
      method: 'POST',
      cookie,
    })
    expect(answered.body).toMatchObject({ success: 0, error: 'wrong password ***' })
    const queued = await app.json('/api/plugins/queue?plugin=custom/login/leaky', {
      method: 'POST',
      cookie,
    })
    await app.deps.jobs.waitFor(queued.body.job).catch(() => {})
    const jobs = await app.req('/api/jobs', { token: guest })
    const text = await jobs.text()
    expect(text).toContain('refused for ***')
    expect(text).not.toContain(SECRET)
  })
})
