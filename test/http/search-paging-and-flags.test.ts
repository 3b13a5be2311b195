// The search endpoints over HTTP as LANraragi answers them: paging, totals,
// flags after writes through the API, random, suggest, the cache purge, stats and untagged.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { seedArchive, seedCategory, seedTankoubon } from '../helpers/seed.ts'

let app: TestServer
let cookie: string
let guestToken: string
const id: Record<string, string> = {}
let tank: string

const get = (path: string, auth: { cookie?: string; token?: string } = { cookie }) =>
  app.json(path, auth)

const titles = (data: Wire[]) => data.map((a) => a.title)

beforeAll(async () => {
  app = await startTestServer()
  await app.idle()
  cookie = await app.login()
  const json = { name: 'g', role: 'guest' }
  const created = await app.req('/api/tokens', { method: 'POST', cookie, json })
  guestToken = ((await created.json()) as Wire).data.token
  const seed = (title: string, tags: string, extra: Record<string, unknown> = {}) =>
    (id[title] = seedArchive(app.deps, { title, tags, ...extra }).id)
  seed('Item 01', 'artist:a, female:x', { pagecount: 20 })
  seed('Item 02', 'artist:b', { pagecount: 20 })
  seed('Item 03', 'artist:c, female:x', { pagecount: 20 })
  seed('Item 04', 'date_added:1', { pagecount: 20 })
  seed('Item 05', 'source:example.org', { pagecount: 20 })
  seed('Item 06', 'artist:d, misc:y', { pagecount: 20 })
  seed('Item 07', 'artist:e', { pagecount: 20 })
  seed('Vol 1', 'series:v', { pagecount: 5 })
  seed('Vol 2', 'series:v, female:x', { pagecount: 5 })
  const members = [id['Vol 1']!, id['Vol 2']!]
  tank = seedTankoubon(app.deps, { name: 'Volumes', tags: 'misc:box', members })
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

describe('paging and totals', () => {
  it('pages from any offset with archives_per_page, -1 unpaged, past the end empty', async () => {
    app.deps.settings.update({ archives_per_page: 3 })
    try {
      const all = await get('/api/search/ids?start=-1')
      expect(all.body.data).toHaveLength(8)
      const odd = await get('/api/search/ids?start=5')
      expect(odd.body.data).toEqual(all.body.data.slice(5, 8))
      expect(odd.body.recordsFiltered).toBe(8)
      const first = await get('/api/search')
      expect(first.body.data).toHaveLength(3)
      const past = await get('/api/search?start=50')
      expect(past.status).toBe(200)
      expect(past.body).toEqual({ data: [], recordsFiltered: 8, recordsTotal: 8 })
    } finally {
      app.deps.settings.update({ archives_per_page: 100 })
    }
  })

  it('keeps recordsTotal as the library view size whatever the filter or category', async () => {
    const filtered = await get('/api/search?filter=female:x')
    expect(filtered.body.recordsTotal).toBe(8)
    expect(filtered.body.recordsFiltered).toBe(3)
    const flat = await get('/api/search?filter=female:x&groupby_tanks=false')
    expect(flat.body.recordsTotal).toBe(9)
    expect(flat.body.recordsFiltered).toBe(3)
    const category = seedCategory(app.deps, { search: 'artist:a' })
    const inCategory = await get(`/api/search?category=${category}`)
    expect(inCategory.body.recordsTotal).toBe(8)
    expect(titles(inCategory.body.data)).toEqual(['Item 01'])
  })

  it('reports the grouped library as recordsTotal with tankoubonsonly (it forces grouping)', async () => {
    const { body } = await get('/api/search/ids?tankoubonsonly=true')
    expect(body).toEqual({ data: [tank], recordsFiltered: 1, recordsTotal: 8 })
    const flat = await get('/api/search/ids?tankoubonsonly=true&groupby_tanks=false')
    expect(flat.body).toEqual({ data: [tank], recordsFiltered: 1, recordsTotal: 8 })
  })

  it("answers the SPEC shape without draw, with each item's toc as LANraragi 0.9.81", async () => {
    const { body } = await get('/api/search?filter=item 01')
    expect(Object.keys(body).sort()).toEqual(['data', 'recordsFiltered', 'recordsTotal'])
    const item = body.data[0]
    const required =
      'arcid title filename tags isnew extension progress pagecount lastreadtime size'
    for (const key of required.split(' ')) expect(item).toHaveProperty(key)
    expect(item.toc).toEqual([])
  })
})

describe('flags follow writes made through the API', () => {
  it('drops an archive from newonly once its New flag is cleared, the Tankoubon with it', async () => {
    const before = await get('/api/search/ids?newonly=true&start=-1')
    expect(before.body.data).toContain(id['Item 01'])
    const cleared = await app.req(`/api/archives/${id['Item 01']}/isnew`, {
      method: 'DELETE',
      cookie,
    })
    expect(cleared.status).toBe(200)
    const after = await get('/api/search/ids?newonly=1&start=-1')
    expect(after.body.data).not.toContain(id['Item 01'])
    const all = await get('/api/search/ids?newonly=0&start=-1')
    expect(all.body.data).toContain(id['Item 01'])
    // The Tankoubon stays new while one member is.
    await app.req(`/api/archives/${id['Vol 1']}/isnew`, { method: 'DELETE', cookie })
    expect((await get('/api/search/ids?newonly=true')).body.data).toContain(tank)
    await app.req(`/api/archives/${id['Vol 2']}/isnew`, { method: 'DELETE', cookie })
    expect((await get('/api/search/ids?newonly=true')).body.data).not.toContain(tank)
    const item = (await get('/api/search?filter=item 01')).body.data[0]
    expect(item.isnew).toBe('false')
  })

  it('orders sortby=lastread most recent first and drops never-read archives', async () => {
    const read = (title: string, lastreadtime?: number) =>
      seedArchive(app.deps, { title, tags: 'misc:read', lastreadtime }).id
    const older = read('Read Long Ago', 100)
    const newer = read('Read Lately', 200)
    read('Never Read')
    const { body } = await get('/api/search/ids?filter=misc:read&sortby=lastread')
    expect(body.data).toEqual([newer, older])
    expect(body.recordsFiltered).toBe(2)
    const reversed = await get('/api/search/ids?filter=misc:read&sortby=lastread&order=desc')
    expect(reversed.body.data).toEqual([older, newer])
    // A progress update through the API makes the archive the most recent one.
    const progress = await app.req(`/api/archives/${older}/progress/2`, { method: 'PUT', cookie })
    expect(progress.status).toBe(200)
    const after = await get('/api/search/ids?filter=misc:read&sortby=lastread')
    expect(after.body.data).toEqual([older, newer])
  })

  it('hidecompleted hides an archive read to its last page through the API', async () => {
    await app.req(`/api/archives/${id['Item 02']}/progress/3`, { method: 'PUT', cookie })
    await app.req(`/api/archives/${id['Item 03']}/progress/20`, { method: 'PUT', cookie })
    const hidden = await get('/api/search/ids?hidecompleted=true&start=-1')
    expect(hidden.body.data).not.toContain(id['Item 03'])
    expect(hidden.body.data).toContain(id['Item 02'])
    const shown = await get('/api/search/ids?hidecompleted=false&start=-1')
    expect(shown.body.data).toContain(id['Item 03'])
  })

  it('sees new tags right after a metadata edit', async () => {
    const path = `/api/archives/${id['Item 07']}/metadata?tags=artist:e, female:late`
    const res = await app.req(path, { method: 'PUT', cookie })
    expect(res.status).toBe(200)
    expect((await get('/api/search/ids?filter=female:late')).body.data).toEqual([id['Item 07']])
  })
})

describe('random, suggest and the cache', () => {
  it('random: count default 5, recordsTotal is how many came back, all when fewer', async () => {
    const five = await get('/api/search/random')
    expect(five.body.data).toHaveLength(5)
    expect(five.body.recordsTotal).toBe(5)
    const few = await get('/api/search/random?filter=female:x&count=50')
    expect(few.body.recordsTotal).toBe(few.body.data.length)
    expect(few.body.data.length).toBe(3)
  })

  it('shows a Tankoubon as LANraragi does: no file name, extension .tank', async () => {
    const { body } = await get('/api/search?filter=volumes')
    expect(body.data).toHaveLength(1)
    const card = { arcid: tank, title: 'Volumes', filename: '', extension: '.tank' }
    expect(body.data[0]).toMatchObject(card)
    expect(body.data[0].pagecount).toBe(10)
  })

  it('suggest answers arcid and title of title matches', async () => {
    const { status, body } = await get('/api/search/suggest?filter=vol')
    expect(status).toBe(200)
    expect(body.data).toEqual([{ arcid: tank, title: 'Volumes' }])
  })

  it('DELETE /api/search/cache is clear_cache and needs admin', async () => {
    const res = await app.req('/api/search/cache', { method: 'DELETE', cookie })
    expect(await res.json()).toEqual({ operation: 'clear_cache', success: 1 })
    const guest = await app.req('/api/search/cache', { method: 'DELETE', token: guestToken })
    expect(guest.status).toBe(403)
    const rebuild = await app.req('/api/database/rebuild-index', {
      method: 'POST',
      token: guestToken,
    })
    expect(rebuild.status).toBe(403)
  })
})

describe('stats and untagged', () => {
  it('counts each archive once per tag and honours minweight', async () => {
    const { body } = await get('/api/database/stats?minweight=2')
    const female = body.find((s: Wire) => s.namespace === 'female' && s.text === 'x')
    expect(female.weight).toBe(3)
    expect(body.every((s: Wire) => s.weight >= 2)).toBe(true)
  })

  it('reads hide_excluded_namespaces as a free string: only true hides', async () => {
    const all = await get('/api/database/stats?hide_excluded_namespaces=whatever')
    expect(all.status).toBe(200)
    expect(all.body.some((s: Wire) => s.namespace === 'date_added')).toBe(true)
    const hidden = await get('/api/database/stats?hide_excluded_namespaces=true')
    expect(hidden.body.some((s: Wire) => s.namespace === 'date_added')).toBe(false)
    expect(hidden.body.some((s: Wire) => s.namespace === 'artist')).toBe(true)
  })

  it('lists untagged archives, auto namespaces not counting as tags', async () => {
    const { body } = await app.json<string[]>('/api/archives/untagged', { cookie })
    expect(body).toContain(id['Item 04']!)
    expect(body).toContain(id['Item 05']!)
    expect(body).not.toContain(id['Item 01']!)
  })
})

describe('hostile filters', () => {
  it('answers a wildcard-heavy filter over a long title at once (no regex backtracking)', async () => {
    // /a.*a.*a.*…c/ on 60 a's backtracks for minutes; the glob matcher answers at once.
    const long = seedArchive(app.deps, { title: 'a'.repeat(60), tags: `misc:${'a'.repeat(60)}` }).id
    try {
      for (const path of ['/api/search/ids', '/api/search/suggest']) {
        const stars = await get(`${path}?filter=a*a*a*a*a*a*a*a*a*a*a*a*c`)
        expect(stars.status).toBe(200)
        expect(stars.body.data).toEqual([])
        const quoted = await get(`${path}?filter="a%a%a%a%a%a%a%a%a%a%a%a%c"`)
        expect(quoted.body.data).toEqual([])
      }
      const hit = await get('/api/search/ids?filter=a*a*a*a*a*a*a*a*a*a*a*a')
      expect(hit.body.data).toEqual([long])
    } finally {
      await app.req(`/api/archives/${long}`, { method: 'DELETE', cookie })
    }
  })
})
