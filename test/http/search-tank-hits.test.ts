// A Tankoubon as a search hit: its last-read time is the latest of its own and its members',
// for sorting and on the wire, and its progress never exceeds its page count.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { seedArchive, seedTankoubon } from '../helpers/seed.ts'

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

describe('GET /api/search?sortby=<namespace> with grouping', () => {
  it("sorts a Tankoubon by its own tag in the namespace, not its last member's", async () => {
    const tag = 'misc:nsort'
    const first = seedArchive(app.deps, { title: 'N1', tags: `${tag}, series:alpha` }).id
    const last = seedArchive(app.deps, { title: 'N2', tags: `${tag}, series:zulu` }).id
    const third = seedArchive(app.deps, { title: 'N3', tags: `${tag}, series:charlie` }).id
    const fourth = seedArchive(app.deps, { title: 'N4', tags: `${tag}, series:delta` }).id
    const loose = seedArchive(app.deps, { title: 'N5', tags: `${tag}, series:echo` }).id
    const own = seedTankoubon(app.deps, {
      name: 'Own Series',
      tags: 'series:bravo',
      members: [first, last],
    })
    const borrowed = seedTankoubon(app.deps, { name: 'No Series', members: [third, fourth] })
    const asc = await get(`/api/search/ids?filter=${tag}&sortby=series`)
    // bravo (own tag, not the member's zulu), delta (the last member's), echo.
    expect(asc.data).toEqual([own, borrowed, loose])
    const desc = await get(`/api/search/ids?filter=${tag}&sortby=series&order=desc`)
    expect(desc.data).toEqual([loose, borrowed, own])

    // An edit of the Tankoubon's own tag moves it in the sort already asked for.
    const res = await app.req(`/api/tankoubons/${own}`, {
      method: 'PUT',
      cookie,
      json: { metadata: { tags: 'series:yankee' } },
    })
    expect(res.status).toBe(200)
    const edited = await get(`/api/search/ids?filter=${tag}&sortby=series`)
    expect(edited.data).toEqual([borrowed, loose, own])
  })
})

describe('GET /api/search: a Tankoubon hit and date_added', () => {
  it('lists one date_added tag, the newest of its own and its members', async () => {
    const tag = 'misc:dates'
    const a = seedArchive(app.deps, { title: 'D1', tags: `${tag}, date_added:1700000000` }).id
    const b = seedArchive(app.deps, { title: 'D2', tags: `artist:b, date_added:1800000000` }).id
    // Fewer digits, so later in code-unit order but older by value.
    const c = seedArchive(app.deps, { title: 'D3', tags: `artist:c, date_added:999999999` }).id
    const tank = seedTankoubon(app.deps, {
      name: 'Dated Tank',
      tags: 'series:dated, date_added:1750000000',
      members: [a, b, c],
    })
    const body = await get(`/api/search?filter=${tag}`)
    expect(body.data.map((hit: Wire) => hit.arcid)).toEqual([tank])
    expect(body.data[0].tags).toBe(
      `series:dated, ${tag}, artist:b, date_added:1800000000, artist:c`,
    )
    // Without grouping each archive keeps its own date.
    const flat = await get(`/api/search?filter=${tag}&groupby_tanks=false`)
    expect(flat.data.map((hit: Wire) => hit.tags)).toEqual([`${tag}, date_added:1700000000`])
  })
})
