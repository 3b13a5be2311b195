// Reading progress across archives and Tankoubons: lastreadtime in server time, the
// total_pages_read counter of /api/info, and DELETE /api/database/isnew.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { findArchive } from '../../src/db/repos/archives.repo.ts'
import { commit } from '../../src/domain/commit.ts'
import { hideArchive } from '../../src/domain/archives/save.ts'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { seedArchive, seedTankoubon } from '../helpers/seed.ts'

let app: TestServer
let cookie: string

async function json(res: Response, status = 200): Promise<Wire> {
  expect(res.status).toBe(status)
  return (await res.json()) as Wire
}

const pagesRead = async () =>
  (await json(await app.req('/api/info', { cookie }))).total_pages_read as number
const now = () => Math.floor(Date.now() / 1000)

beforeAll(async () => {
  app = await startTestServer()
  // Seeded rows have no file: the first scan must be over, or it hides them as vanished.
  await app.idle()
  cookie = await app.login()
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

describe('PUT /api/tankoubons/:id/progress/:page', () => {
  it('stamps server time on the Tankoubon and the member, and counts towards total_pages_read', async () => {
    const a = seedArchive(app.deps, { pagecount: 2 })
    const b = seedArchive(app.deps, { pagecount: 3 })
    const id = seedTankoubon(app.deps, { members: [a.id, b.id] })
    const before = await pagesRead()
    const from = now()
    const body = await json(
      await app.req(`/api/tankoubons/${id}/progress/3`, { method: 'PUT', cookie }),
    )
    const to = now()
    expect(typeof body.lastreadtime).toBe('number')
    expect(body.lastreadtime).toBeGreaterThanOrEqual(from)
    expect(body.lastreadtime).toBeLessThanOrEqual(to)
    const member = findArchive(app.deps.db, b.id)!
    expect({ progress: member.progress, lastreadtime: member.lastreadtime }).toEqual({
      progress: 1,
      lastreadtime: body.lastreadtime,
    })
    expect((await json(await app.req(`/api/tankoubons/${id}`, { cookie }))).progress).toBe(3)
    expect(await pagesRead()).toBe(before + 1)
  })

  it('counts archive progress too, and nothing for a refused update', async () => {
    const a = seedArchive(app.deps, { pagecount: 2 })
    const before = await pagesRead()
    expect(
      (await app.req(`/api/archives/${a.id}/progress/2`, { method: 'PUT', cookie })).status,
    ).toBe(200)
    expect(
      (await app.req(`/api/archives/${a.id}/progress/9`, { method: 'PUT', cookie })).status,
    ).toBe(400)
    expect(await pagesRead()).toBe(before + 1)
  })
})

describe('PUT /api/archives/:id/progress/0?force=1', () => {
  it('clears progress and lastreadtime as LANraragi does, and counts no page read', async () => {
    const a = seedArchive(app.deps, { pagecount: 4 })
    await json(await app.req(`/api/archives/${a.id}/progress/3`, { method: 'PUT', cookie }))
    const before = await pagesRead()
    const cleared = await json(
      await app.req(`/api/archives/${a.id}/progress/0?force=1`, { method: 'PUT', cookie }),
    )
    expect(cleared).toMatchObject({ operation: 'update_progress', success: 1, page: 0 })
    const row = findArchive(app.deps.db, a.id)!
    expect({ progress: row.progress, lastreadtime: row.lastreadtime }).toEqual({
      progress: 0,
      lastreadtime: 0,
    })
    expect(await pagesRead()).toBe(before)
    const metadata = await json(await app.req(`/api/archives/${a.id}/metadata`, { cookie }))
    expect({ progress: metadata.progress, lastreadtime: metadata.lastreadtime }).toEqual({
      progress: 0,
      lastreadtime: 0,
    })
  })

  it('keeps the 400 for page 0 without force, and for a page past the end with it', async () => {
    const a = seedArchive(app.deps, { pagecount: 2 })
    await json(await app.req(`/api/archives/${a.id}/progress/2`, { method: 'PUT', cookie }))
    const plain = await app.req(`/api/archives/${a.id}/progress/0`, { method: 'PUT', cookie })
    expect(plain.status).toBe(400)
    const past = await app.req(`/api/archives/${a.id}/progress/9?force=1`, {
      method: 'PUT',
      cookie,
    })
    expect(past.status).toBe(400)
    expect(findArchive(app.deps.db, a.id)!.progress).toBe(2)
  })
})

describe('DELETE /api/database/isnew', () => {
  it('clears the New flag on every archive', async () => {
    const ids = [
      seedArchive(app.deps, { isnew: true }).id,
      seedArchive(app.deps, { isnew: true }).id,
    ]
    const body = await json(await app.req('/api/database/isnew', { method: 'DELETE', cookie }))
    expect(body).toMatchObject({ operation: 'clear_new_all', success: 1 })
    for (const id of ids) {
      expect((await json(await app.req(`/api/archives/${id}/metadata`, { cookie }))).isnew).toBe(
        'false',
      )
    }
    const search = await json(await app.req('/api/search/ids?newonly=true&start=-1', { cookie }))
    expect(search.data).toEqual([])
  })

  it('counts the shown archives that had the flag, not hidden rows or those without it', async () => {
    seedArchive(app.deps, { isnew: false })
    seedArchive(app.deps, { isnew: true })
    const hidden = seedArchive(app.deps, { isnew: true })
    commit(app.deps, (w) => hideArchive(w, hidden.id))
    const body = await json(await app.req('/api/database/isnew', { method: 'DELETE', cookie }))
    expect(body.successMessage).toBe('Cleared the New flag on 1 archives.')
    expect(findArchive(app.deps.db, hidden.id)!.isnew).toBe(false)
  })

  it('answers 401 Env without credentials', async () => {
    const res = await app.req('/api/database/isnew', { method: 'DELETE' })
    expect(await json(res, 401)).toMatchObject({ operation: 'clear_new_all', success: 0 })
  })
})
