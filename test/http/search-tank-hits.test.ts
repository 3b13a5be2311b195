// A Tankoubon as a search hit: its last-read time is the latest of its own and its members',
// for sorting and on the wire, and its progress never exceeds its page count.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { startTestServer, type TestServer } from '../helpers/server.ts'
import { seedArchive, seedTankoubon } from '../helpers/seed.ts'

type Wire = Record<string, any>

let app: TestServer
let cookie: string

async function get(path: string) {
  const res = await app.req(path, { cookie })
  expect(res.status).toBe(200)
  return (await res.json()) as any
}

beforeAll(async () => {
  app = await startTestServer()
  await app.idle()
  cookie = await app.login()
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

describe('GET /api/search?sortby=lastread with grouping', () => {
  it('shows a Tankoubon whose member was read, with the member read time', async () => {
    const member = seedArchive(app.deps, { title: 'Read Member', tags: 'misc:lastread' }).id
    const other = seedArchive(app.deps, { title: 'Unread Member', tags: 'misc:lastread' }).id
    const tank = seedTankoubon(app.deps, { name: 'Read Tank', members: [member, other] })
    const before = await get('/api/search?filter=misc:lastread&sortby=lastread')
    expect(before.data).toEqual([])
    const res = await app.req(`/api/archives/${member}/progress/3`, { method: 'PUT', cookie })
    expect(res.status).toBe(200)
    const { lastreadtime } = (await res.json()) as Wire
    expect(lastreadtime).toBeGreaterThan(0)
    const after = await get('/api/search?filter=misc:lastread&sortby=lastread')
    expect(after.data.map((a: Wire) => a.arcid)).toEqual([tank])
    expect(after.data[0].lastreadtime).toBe(lastreadtime)
    const byTitle = await get('/api/search?filter=misc:lastread')
    expect(byTitle.data[0]).toMatchObject({ arcid: tank, lastreadtime })
  })

  it('orders Tankoubons by the latest of their own and their members read times', async () => {
    const a = seedArchive(app.deps, { title: 'A1', tags: 'misc:order', lastreadtime: 500 }).id
    const b = seedArchive(app.deps, { title: 'B1', tags: 'misc:order', lastreadtime: 100 }).id
    const loose = seedArchive(app.deps, { title: 'C1', tags: 'misc:order', lastreadtime: 300 }).id
    const early = seedTankoubon(app.deps, { name: 'Tank A', members: [a], lastreadtime: 200 })
    const late = seedTankoubon(app.deps, { name: 'Tank B', members: [b], lastreadtime: 400 })
    const body = await get('/api/search/ids?filter=misc:order&sortby=lastread')
    expect(body.data).toEqual([early, late, loose])
  })
})

describe('Tankoubon hit progress', () => {
  it('never shows progress above the page count after a member was removed', async () => {
    const first = seedArchive(app.deps, { title: 'P1', tags: 'misc:clamp', pagecount: 8 }).id
    const second = seedArchive(app.deps, { title: 'P2', tags: 'misc:clamp', pagecount: 4 }).id
    const tank = seedTankoubon(app.deps, { name: 'Clamp Tank', members: [first, second] })
    const read = await app.req(`/api/tankoubons/${tank}/progress/10`, { method: 'PUT', cookie })
    expect(read.status).toBe(200)
    const removed = await app.req(`/api/tankoubons/${tank}/${second}`, {
      method: 'DELETE',
      cookie,
    })
    expect(removed.status).toBe(200)
    const body = await get(`/api/search?filter=clamp tank`)
    expect(body.data).toHaveLength(1)
    expect(body.data[0]).toMatchObject({ arcid: tank, pagecount: 8, progress: 8 })
  })
})
