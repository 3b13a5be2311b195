// LANraragi's Shinobu endpoints: the content-folder watcher's status, stop and restart.
import { describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { createApiToken } from '../../src/domain/auth/tokens.ts'
import { makeCbz } from '../helpers/fixtures.ts'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'

async function status(app: TestServer, cookie: string): Promise<Wire> {
  const res = await app.req('/api/shinobu', { cookie })
  expect(res.status).toBe(200)
  return (await res.json()) as Wire
}

async function titles(app: TestServer, cookie: string): Promise<string[]> {
  const list = (await (await app.req('/api/archives', { cookie })).json()) as Wire[]
  return list.map((a) => a.title).sort()
}

describe('POST /api/shinobu/stop and /api/shinobu/restart', () => {
  it('stops the watcher, then restarts it and catches up on files added meanwhile', async () => {
    await using app = await startTestServer({
      config: { watch: true },
      beforeStart: async (content) => void (await makeCbz(join(content, 'First.cbz'))),
    })
    await app.idle()
    const cookie = await app.login()
    expect(await status(app, cookie)).toMatchObject({
      operation: 'shinobu_status',
      success: 1,
      is_alive: 1,
    })

    const stopped = await app.req('/api/shinobu/stop', { method: 'POST', cookie })
    expect(stopped.status).toBe(200)
    expect(await stopped.json()).toEqual({ operation: 'shinobu_stop', success: 1 })
    expect(await status(app, cookie)).toMatchObject({ is_alive: 0 })

    await makeCbz(join(app.contentDir, 'While stopped.cbz'))
    const restarted = await app.req('/api/shinobu/restart', { method: 'POST', cookie })
    expect(restarted.status).toBe(200)
    const body = (await restarted.json()) as Wire
    expect(body).toEqual({ operation: 'shinobu_restart', success: 1, new_pid: expect.any(Number) })
    const now = await status(app, cookie)
    expect(now).toMatchObject({ is_alive: 1, pid: body.new_pid })
    await app.idle()
    expect(await titles(app, cookie)).toEqual(['First', 'While stopped'])
  })

  it('rescan runs a stopped watcher again, as LANraragi restarts Shinobu, but not one configured off', async () => {
    await using app = await startTestServer({ config: { watch: true } })
    await app.idle()
    const cookie = await app.login()
    await app.req('/api/shinobu/stop', { method: 'POST', cookie })
    expect(await status(app, cookie)).toMatchObject({ is_alive: 0 })
    const rescan = await app.req('/api/shinobu/rescan', { method: 'POST', cookie })
    expect(rescan.status).toBe(200)
    expect(await rescan.json()).toMatchObject({ success: 1, job: expect.any(Number) })
    expect(await status(app, cookie)).toMatchObject({ is_alive: 1 })

    await using off = await startTestServer()
    await off.idle()
    const offCookie = await off.login()
    await off.req('/api/shinobu/rescan', { method: 'POST', cookie: offCookie })
    expect(await status(off, offCookie)).toMatchObject({ is_alive: 0 })
  })

  it('starts a watcher the configuration left off', async () => {
    await using app = await startTestServer()
    await app.idle()
    const cookie = await app.login()
    expect(await status(app, cookie)).toMatchObject({ is_alive: 0 })
    const res = await app.req('/api/shinobu/restart', { method: 'POST', cookie })
    expect(res.status).toBe(200)
    expect(await status(app, cookie)).toMatchObject({ is_alive: 1 })
  })

  it('is admin only: 401 without credentials, 403 for a guest token', async () => {
    await using app = await startTestServer()
    const guest = createApiToken(app.deps, { name: 'guest', role: 'guest' }).secret
    for (const path of ['/api/shinobu/stop', '/api/shinobu/restart']) {
      const anonymous = await app.req(path, { method: 'POST' })
      expect({ path, status: anonymous.status }).toEqual({ path, status: 401 })
      const read = await app.req(path, { method: 'POST', token: guest })
      expect({ path, status: read.status }).toEqual({ path, status: 403 })
      expect(await read.json()).toMatchObject({ success: 0, error: expect.any(String) })
    }
  })
})
