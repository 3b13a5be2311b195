// Search answers joined from kept JSON fragments: each kind of archive write drops its fragment, so
// the very next /api/search shows the row as GET /api/archives/:id/metadata does; the answers keep
// their shape and headers.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { buildZip, makeCbz, makePages } from '../helpers/fixtures.ts'
import { rescan } from '../helpers/rescan.ts'

let app: TestServer
let cookie: string

async function call(method: string, path: string, init: RequestInit & { json?: unknown } = {}) {
  const res = await app.req(path, { method, cookie, ...init })
  expect({ method, path, status: res.status }).toEqual({ method, path, status: 200 })
  return (await res.json()) as Wire
}

async function search(query = ''): Promise<Wire> {
  const { status, body } = await app.json(`/api/search?${query}`, { cookie })
  expect(status).toBe(200)
  return body
}

/** The archive's search hit, after checking it equals its metadata. */
async function freshHit(id: string): Promise<Wire> {
  const hits = (await search('groupby_tanks=false&start=-1')).data as Wire[]
  const hit = hits.find((a) => a.arcid === id)
  const metadata = (await call('GET', `/api/archives/${id}/metadata`)) as Wire
  expect(hit).toEqual(metadata)
  return hit!
}

/** Searches so the archive's fragment is kept, runs the write, and answers the next hit. */
async function hitAfter(id: string, write: () => Promise<unknown>): Promise<Wire> {
  await freshHit(id)
  expect(app.deps.wireCache.get(id)).toBeDefined()
  await write()
  expect(app.deps.wireCache.get(id)).toBeUndefined()
  return freshHit(id)
}

const idOf = async (filter: string): Promise<string> =>
  (await search(`filter=${filter}&groupby_tanks=false`)).data[0].arcid

beforeAll(async () => {
  app = await startTestServer({
    beforeStart: async (content) => {
      await makeCbz(join(content, 'Kept Volume.cbz'), { pages: 3 })
      await makeCbz(join(content, 'Other Volume.cbz'), { pages: 2 })
    },
  })
  await app.idle()
  // Covers made after the scan patch their rows (a new thumbhash), which drops kept fragments.
  await app.jobsDone()
  cookie = await app.login()
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

describe('GET /api/search after archive writes', () => {
  it('shows a metadata edit', async () => {
    const id = await idOf('kept')
    const edit = { title: 'Edited Volume', tags: 'artist:someone, series:kept', summary: 'New.' }
    const hit = await hitAfter(id, () =>
      call('PUT', `/api/archives/${id}/metadata`, { json: edit }),
    )
    expect(hit).toMatchObject(edit)
  })

  it('shows the New flag cleared, set, and cleared for every archive', async () => {
    const id = await idOf('edited')
    expect((await freshHit(id)).isnew).toBe('true')
    let hit = await hitAfter(id, () => call('DELETE', `/api/archives/${id}/isnew`))
    expect(hit.isnew).toBe('false')
    hit = await hitAfter(id, () => call('PUT', `/api/archives/${id}/isnew`))
    expect(hit.isnew).toBe('true')
    hit = await hitAfter(id, () => call('DELETE', '/api/database/isnew'))
    expect(hit.isnew).toBe('false')
  })

  it('shows reading progress and its time', async () => {
    const id = await idOf('edited')
    const hit = await hitAfter(id, () => call('PUT', `/api/archives/${id}/progress/2`))
    expect(hit.progress).toBe(2)
    expect(hit.lastreadtime).toBeGreaterThan(0)
  })

  it('shows a rename', async () => {
    const id = await idOf('edited')
    const hit = await hitAfter(id, () =>
      call('PUT', `/api/archives/${id}/rename`, { json: { filename: 'Renamed Volume.cbz' } }),
    )
    expect(hit.filename).toBe('Renamed Volume')
  })

  it('stays current through a cover change', async () => {
    const id = await idOf('edited')
    await hitAfter(id, () => call('PUT', `/api/archives/${id}/thumbnail?page=2`))
  })

  it('shows a file changed past its hashed prefix: same id, new page count and size', async () => {
    // The id hashes the first 512,000 bytes: a stored filler entry keeps them while pages change.
    const filler = { name: 'filler.bin', data: new Uint8Array(600_000) }
    const path = join(app.contentDir, 'Long Volume.cbz')
    const write = async (pages: number) =>
      writeFile(path, buildZip([filler, ...(await makePages(path, { pages }))]))
    await write(2)
    await rescan(app, cookie)
    // The new archive's cover job patches its row (a new thumbhash) and drops its fragment: let it
    // finish first, or it can land between the kept hit and the check that it is kept.
    await app.jobsDone()
    const id = await idOf('long')
    expect((await freshHit(id)).pagecount).toBe(2)
    const hit = await hitAfter(id, async () => {
      await write(5)
      expect(await rescan(app, cookie)).toMatchObject({ updated: 1 })
      await app.jobsDone()
    })
    expect(hit.pagecount).toBe(5)
    expect(hit.size).toBe(Bun.file(path).size)
    await call('DELETE', `/api/archives/${id}`)
  })

  it('leaves out a hidden archive, then shows it again when its file is back', async () => {
    const id = await idOf('other')
    await freshHit(id)
    const away = join(app.root, 'Other Volume.cbz')
    await rename(join(app.contentDir, 'Other Volume.cbz'), away)
    await rescan(app, cookie)
    expect(app.deps.wireCache.get(id)).toBeUndefined()
    expect((await search('filter=other')).data).toEqual([])

    await rename(away, join(app.contentDir, 'Other Volume.cbz'))
    await rescan(app, cookie)
    await app.jobsDone()
    expect((await freshHit(id)).title).toBe('Other Volume')
  })

  it('leaves out a deleted archive', async () => {
    const id = await idOf('other')
    await freshHit(id)
    await call('DELETE', `/api/archives/${id}`)
    expect(app.deps.wireCache.get(id)).toBeUndefined()
    const ids = ((await search('start=-1')).data as Wire[]).map((a) => a.arcid)
    expect(ids).not.toContain(id)
    expect(await rm(join(app.contentDir, 'Other Volume.cbz'), { force: true })).toBeUndefined()
  })
})

describe('GET /api/search with Tankoubon hits', () => {
  it('folds a member edit and a Tankoubon edit into the next grouped answer', async () => {
    const id = await idOf('edited')
    await freshHit(id)
    const form = new FormData()
    form.set('name', 'Boxed')
    const { tankoubon_id: tank } = await call('PUT', '/api/tankoubons', { body: form })
    await call('PUT', `/api/tankoubons/${tank}/${id}`)
    expect((await search()).data).toMatchObject([{ arcid: tank, title: 'Boxed' }])

    await call('PUT', `/api/archives/${id}/metadata`, { json: { tags: 'artist:later' } })
    expect((await search()).data[0].tags).toContain('artist:later')
    await call('PUT', `/api/tankoubons/${tank}`, { json: { metadata: { name: 'Reboxed' } } })
    expect((await search()).data).toMatchObject([{ arcid: tank, title: 'Reboxed' }])
    // Tankoubon hits are built per answer: only archives are kept.
    expect(app.deps.wireCache.get(tank)).toBeUndefined()

    await call('DELETE', `/api/tankoubons/${tank}`)
    expect((await search()).data).toMatchObject([{ arcid: id, tags: 'artist:later' }])
  })
})

describe('search answers joined from fragments', () => {
  it('keep the object shapes of /api/search, /api/search/archives and random', async () => {
    const id = await idOf('edited')
    const metadata = await call('GET', `/api/archives/${id}/metadata`)
    const page = { data: [metadata], recordsTotal: 1, recordsFiltered: 1 }
    expect(await search()).toEqual(page)
    expect(await search()).toEqual(page)
    expect((await app.json('/api/search/archives', { cookie })).body).toEqual(page)
    const random = await app.json('/api/search/random?count=3', { cookie })
    expect(random.body).toEqual({ data: [metadata], recordsTotal: 1 })
  })

  it('are built again from the rows after DELETE /api/search/cache', async () => {
    const id = await idOf('edited')
    await freshHit(id)
    expect(app.deps.wireCache.get(id)).toBeDefined()
    await call('DELETE', '/api/search/cache')
    expect(app.deps.wireCache.get(id)).toBeUndefined()
    await freshHit(id)
  })

  it('carry the JSON content type, the security headers and the CORS headers', async () => {
    const origin = 'https://reader.example'
    app.deps.settings.update({ enable_cors: true, cors_origins: [origin] })
    try {
      for (const path of ['/api/search', '/api/search/archives', '/api/search/random']) {
        const res = await app.req(path, { cookie, headers: { origin } })
        expect(res.status).toBe(200)
        expect(Object.fromEntries(res.headers)).toMatchObject({
          'content-type': 'application/json;charset=utf-8',
          'x-content-type-options': 'nosniff',
          'x-frame-options': 'DENY',
          'referrer-policy': 'no-referrer',
          'access-control-allow-origin': origin,
          'access-control-allow-credentials': 'true',
        })
        expect(JSON.parse(await res.text())).toHaveProperty('data')
      }
    } finally {
      app.deps.settings.update({ enable_cors: false, cors_origins: [] })
    }
  })
})
