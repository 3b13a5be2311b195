import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { findArchive } from '../../src/db/repos/archives.repo.ts'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { seedArchive } from '../helpers/seed.ts'

let app: TestServer
let cookie: string
let tank: string
let first: string
let second: string

beforeAll(async () => {
  app = await startTestServer()
  // Seeded rows have no file: the first scan must be over, or it hides them as vanished.
  await app.idle()
  cookie = await app.login()
  first = seedArchive(app.deps, { pagecount: 3 }).id
  const unscanned = seedArchive(app.deps, { pages: [] }).id
  second = seedArchive(app.deps, { pagecount: 4 }).id
  const body = new URLSearchParams({ name: 'Read me' })
  const res = await app.req('/api/tankoubons', { method: 'PUT', cookie, body })
  tank = ((await res.json()) as Wire).tankoubon_id
  for (const id of [first, unscanned, second])
    await app.req(`/api/tankoubons/${tank}/${id}`, { method: 'PUT', cookie })
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

const progress = (page: string | number, init: { cookie?: string } = { cookie }) =>
  app.req(`/api/tankoubons/${tank}/progress/${page}`, { method: 'PUT', ...init })

describe('PUT /api/tankoubons/:id/progress/:page', () => {
  it('resolves the last page of member 1 and the first page of member 2', async () => {
    const before = Math.floor(Date.now() / 1000)
    let res = await progress(3)
    expect(res.status).toBe(200)
    const body = (await res.json()) as Wire
    expect(body).toMatchObject({ operation: 'update_tank_progress', success: 1, id: tank, page: 3 })
    expect(body.lastreadtime).toBeGreaterThanOrEqual(before)
    expect(findArchive(app.deps.db, first)).toMatchObject({
      progress: 3,
      lastreadtime: body.lastreadtime,
    })
    res = await progress(4)
    expect(res.status).toBe(200)
    expect(findArchive(app.deps.db, second)!.progress).toBe(1)
    expect(findArchive(app.deps.db, first)!.progress).toBe(3)
    const stored = (await (await app.req(`/api/tankoubons/${tank}`, { cookie })).json()) as Wire
    expect(stored.progress).toBe(4)
  })

  it('answers 400 Env for a page below 1, not a number, or past the end', async () => {
    for (const page of [0, 'abc', -2, 8]) {
      const res = await progress(page)
      expect(res.status).toBe(400)
      expect(await res.json()).toMatchObject({ operation: 'update_tank_progress', success: 0 })
    }
  })

  it('answers 400 Env for an unknown Tankoubon', async () => {
    const res = await app.req('/api/tankoubons/TANK_0000000005/progress/1', {
      method: 'PUT',
      cookie,
    })
    expect(res.status).toBe(400)
  })

  it('answers 400 Env while server-side tracking is off', async () => {
    app.deps.settings.update({ server_tracks_progress: false })
    try {
      const res = await progress(2)
      expect(res.status).toBe(400)
      expect(((await res.json()) as Wire).error).toContain('disabled')
      expect(findArchive(app.deps.db, first)!.progress).toBe(3)
    } finally {
      app.deps.settings.update({ server_tracks_progress: true })
    }
  })

  it('accepts anonymous updates unless authenticated_progress is on, then answers 401 Env', async () => {
    app.deps.settings.update({ nofun_mode: false })
    try {
      expect((await progress(5, {})).status).toBe(200)
      expect(findArchive(app.deps.db, second)!.progress).toBe(2)
      app.deps.settings.update({ authenticated_progress: true })
      const res = await progress(6, {})
      expect(res.status).toBe(401)
      expect(await res.json()).toMatchObject({ operation: 'update_tank_progress', success: 0 })
      expect(findArchive(app.deps.db, second)!.progress).toBe(2)
      expect((await progress(6)).status).toBe(200)
    } finally {
      app.deps.settings.update({ nofun_mode: true, authenticated_progress: false })
    }
  })

  it('answers 423 while the member archive is being modified', async () => {
    let release!: () => void
    void app.deps.locks.withLock(first, () => new Promise<void>((resolve) => (release = resolve)))
    const res = await progress(1)
    release()
    expect(res.status).toBe(423)
    expect(findArchive(app.deps.db, first)!.progress).toBe(3)
  })
})
