// POST /api/database/drop: session only; the library, bookmarks, tokens, sessions and settings go,
// the admin password and the content files stay, and a snapshot holds what was dropped.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { makeCbz } from '../helpers/fixtures.ts'
import { rescan } from '../helpers/rescan.ts'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'

let app: TestServer
let cookie: string
let id: string

beforeAll(async () => {
  app = await startTestServer({
    beforeStart: (dir) => makeCbz(join(dir, 'Kept.cbz'), { pages: 3 }).then(() => undefined),
  })
  cookie = await app.login()
  await app.idle()
  id = ((await app.json('/api/archives', { cookie })).body as Wire[])[0]!.arcid
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

describe('POST /api/database/drop', () => {
  it('is refused without credentials (401) and to API tokens, admin ones too (403)', async () => {
    expect((await app.json('/api/database/drop', { method: 'POST' })).status).toBe(401)
    const token = await app.json('/api/tokens', {
      method: 'POST',
      cookie,
      json: { name: 'admin', role: 'admin' },
    })
    const res = await app.json('/api/database/drop', {
      method: 'POST',
      token: token.body.data.token,
    })
    expect(res.status).toBe(403)
    expect(res.body).toMatchObject({ operation: 'drop_database', success: 0 })
    expect((await app.json('/api/archives', { cookie })).body).toHaveLength(1)
  })

  it('drops the library, bookmarks, tokens, sessions and settings, and keeps a snapshot', async () => {
    await app.req(`/api/archives/${id}/metadata?title=Curated&tags=keep:me`, {
      method: 'PUT',
      cookie,
    })
    const bookmark = await app.req(`/api/archives/${id}/bookmarks/2`, { method: 'POST', cookie })
    expect(bookmark.status).toBe(200)
    await app.req('/api/categories', {
      method: 'PUT',
      cookie,
      body: new URLSearchParams({ name: 'Shelf' }),
    })
    const settings = await app.json('/api/settings', {
      method: 'PUT',
      cookie,
      json: { motd: 'hi' },
    })
    expect(settings.status).toBe(200)

    const res = await app.json('/api/database/drop', { method: 'POST', cookie })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ operation: 'drop_database', success: 1 })
    expect(typeof res.body.snapshot).toBe('number')

    // The caller's session went with the rest; the password did not.
    expect((await app.json('/api/archives', { cookie })).status).toBe(401)
    cookie = await app.login()
    expect((await app.json('/api/archives', { cookie })).body).toEqual([])
    expect((await app.json('/api/categories', { cookie })).body).toEqual([])
    expect((await app.json('/api/tokens', { cookie })).body).toEqual([])
    expect((await app.json('/api/settings', { cookie })).body.motd).not.toBe('hi')
    expect(existsSync(join(app.contentDir, 'Kept.cbz'))).toBe(true)

    // The snapshot is listed and brings the metadata back once the file is catalogued again.
    const list = (await app.json('/api/database/import-snapshots', { cookie })).body.snapshots
    expect(list[0]).toMatchObject({ id: res.body.snapshot, reason: 'drop', archives: 1 })
    await rescan(app, cookie)
    expect((await app.json(`/api/archives/${id}/bookmarks`, { cookie })).body).toEqual([])
    const doc = await (
      await app.req(`/api/database/import-snapshots/${res.body.snapshot}`, { cookie })
    ).text()
    const form = new FormData()
    form.set('file', new File([doc], 'snapshot.json'))
    const restore = await app.json('/api/database/restore', { method: 'POST', cookie, body: form })
    expect((await app.deps.jobs.waitFor(restore.body.job)).state).toBe('finished')
    const meta = (await app.json(`/api/archives/${id}/metadata`, { cookie })).body
    expect(meta).toMatchObject({ title: 'Curated' })
    expect(meta.tags).toContain('keep:me')
    expect((await app.json('/api/categories', { cookie })).body).toHaveLength(1)
  })

  it('answers no search hit kept from before the drop once the file is catalogued again', async () => {
    // Background writes of the archive (its cover job's thumbhash) would drop the kept hit too.
    await app.idle()
    await app.jobsDone()
    await app.req(`/api/archives/${id}/metadata?title=Before%20the%20drop`, {
      method: 'PUT',
      cookie,
    })
    const hit = async () =>
      ((await app.json('/api/search', { cookie })).body.data as Wire[]).find((a) => a.arcid === id)
    expect((await hit())?.title).toBe('Before the drop')
    expect(app.deps.wireCache.get(id)).toBeDefined()
    expect((await app.json('/api/database/drop', { method: 'POST', cookie })).status).toBe(200)
    expect(app.deps.wireCache.size).toBe(0)
    cookie = await app.login()
    await rescan(app, cookie)
    const metadata = (await app.json(`/api/archives/${id}/metadata`, { cookie })).body
    expect(metadata.title).toBe('Kept')
    expect(await hit()).toEqual(metadata)
  })
})
