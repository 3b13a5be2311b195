import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { seedArchive, seedTankoubon } from '../helpers/seed.ts'
import { deleteArchiveRow } from '../../src/db/repos/archives.repo.ts'

let app: TestServer
let cookie: string
let guestToken: string
const ids: string[] = []
let tank: string

const get = (path: string, auth: { cookie?: string; token?: string } = { cookie }) =>
  app.json(path, auth)

beforeAll(async () => {
  app = await startTestServer()
  await app.idle()
  cookie = await app.login()
  const json = { name: 'guest', role: 'guest' }
  const created = await app.req('/api/tokens', { method: 'POST', cookie, json })
  guestToken = ((await created.json()) as Wire).data?.token ?? ''
  // A generated library: 24 archives over a small vocabulary, two of them in a Tankoubon.
  for (let i = 1; i <= 24; i++) {
    const tags = [
      `artist:artist ${i % 4}`,
      i % 3 === 0 ? 'female:glasses' : '',
      i % 5 === 0 ? '' : `date_added:${1000 + i}`,
    ].filter(Boolean)
    ids.push(seedArchive(app.deps, { title: `Book ${i}`, tags: tags.join(', '), pagecount: i }).id)
  }
  tank = seedTankoubon(app.deps, {
    name: 'Book Box',
    tags: 'series:box',
    members: [ids[0]!, ids[1]!],
  })
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

describe('GET /api/search/ids', () => {
  it('answers ids with the same filtering, paging and totals as /api/search', async () => {
    const { status, body } = await get('/api/search/ids?filter=female:glasses&start=-1')
    expect(status).toBe(200)
    expect(body.recordsFiltered).toBe(8)
    expect(body.recordsTotal).toBe(23)
    const full = await get('/api/search?filter=female:glasses&start=-1')
    expect(body.data).toEqual(full.body.data.map((a: Wire) => a.arcid))
    const paged = await get('/api/search/ids?filter=female:glasses&start=2')
    expect(paged.body.data).toEqual(body.data.slice(2))
  })

  it('breaks title ties by id, the same way every time', async () => {
    const a = seedArchive(app.deps, { title: 'Twin', tags: 'misc:twin' }).id
    const b = seedArchive(app.deps, { title: 'Twin', tags: 'misc:twin' }).id
    const { body } = await get('/api/search/ids?filter=misc:twin')
    expect(body.data).toEqual([a, b].sort())
    for (const twin of [a, b]) {
      deleteArchiveRow(app.deps.db, twin)
      app.deps.search.removeArchive(twin)
    }
  })
})

describe('GET /api/search/archives', () => {
  it('never folds members behind a Tankoubon', async () => {
    const { status, body } = await get('/api/search/archives?filter=book&start=-1')
    expect(status).toBe(200)
    expect(body.recordsTotal).toBe(24)
    expect(body.recordsFiltered).toBe(24)
    expect(body.data.map((a: Wire) => a.arcid)).not.toContain(tank)
    const grouped = await get('/api/search?filter=book&start=-1&groupby_tanks=true')
    expect(grouped.body.data.map((a: Wire) => a.arcid)).toContain(tank)
  })
})

describe('GET /api/search/random', () => {
  it('picks count archives out of the result, default 5', async () => {
    const five = await get('/api/search/random?groupby_tanks=false')
    expect(five.status).toBe(200)
    expect(five.body.data).toHaveLength(5)
    expect(five.body.recordsTotal).toBe(5)
    expect(new Set(five.body.data.map((a: Wire) => a.arcid)).size).toBe(5)
    const three = await get('/api/search/random?count=3&filter=artist:artist 1')
    expect(three.body.data).toHaveLength(3)
    for (const a of three.body.data) expect(a.tags).toContain('artist:artist 1')
  })

  it('returns the whole result, shuffled, when it is smaller than count', async () => {
    const { body } = await get('/api/search/random?count=50&filter=female:glasses&groupby_tanks=0')
    expect(body.data).toHaveLength(8)
    expect(body.recordsTotal).toBe(8)
    const all = await get('/api/search/ids?filter=female:glasses&groupby_tanks=0&start=-1')
    expect(body.data.map((a: Wire) => a.arcid).sort()).toEqual([...all.body.data].sort())
  })

  it('answers 400 Env for a malformed count', async () => {
    const { status, body } = await get('/api/search/random?count=many')
    expect(status).toBe(400)
    expect(body).toMatchObject({ operation: 'get_random_archives', success: 0 })
  })
})

describe('GET /api/search/suggest', () => {
  it('answers arcid and title of the first 10 title matches in title order', async () => {
    const { status, body } = await get('/api/search/suggest?filter=book 1&groupby_tanks=false')
    expect(status).toBe(200)
    expect(body.data).toHaveLength(10)
    expect(body.data[0]).toEqual({ arcid: ids[0], title: 'Book 1' })
    expect(body.data.map((s: Wire) => s.title)).toEqual([
      'Book 1',
      'Book 10',
      'Book 11',
      'Book 12',
      'Book 13',
      'Book 14',
      'Book 15',
      'Book 16',
      'Book 17',
      'Book 18',
    ])
  })

  it('matches tags and titles and applies the same filters as /api/search', async () => {
    const glasses = await get('/api/search/suggest?filter=glasses&groupby_tanks=false')
    expect(glasses.body.data.map((s: Wire) => s.title)).toEqual([
      'Book 3',
      'Book 6',
      'Book 9',
      'Book 12',
      'Book 15',
      'Book 18',
      'Book 21',
      'Book 24',
    ])
    const box = await get('/api/search/suggest?filter=box')
    expect(box.body.data).toEqual([{ arcid: tank, title: 'Book Box' }])
    const exact = await get('/api/search/suggest?filter="book 2"&groupby_tanks=false')
    expect(exact.body.data).toEqual([{ arcid: ids[1], title: 'Book 2' }])
  })
})

describe('DELETE /api/search/cache', () => {
  it('answers 200 Env for an admin and refuses a guest token', async () => {
    const res = await app.req('/api/search/cache', { method: 'DELETE', cookie })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ operation: 'clear_cache', success: 1 })
    const refused = await app.req('/api/search/cache', { method: 'DELETE', token: guestToken })
    expect(refused.status).toBe(403)
  })
})

describe('POST /api/database/rebuild-index', () => {
  it('runs a rebuild_index job that leaves the same results', async () => {
    const before = await get('/api/search/ids?start=-1&sortby=date_added')
    const res = await app.req('/api/database/rebuild-index', { method: 'POST', cookie })
    expect(res.status).toBe(200)
    const body = (await res.json()) as Wire
    expect(body).toMatchObject({ operation: 'rebuild_index', success: 1 })
    const job = await app.deps.jobs.waitFor(body.job)
    expect(job).toMatchObject({ name: 'rebuild_index', state: 'finished' })
    const after = await get('/api/search/ids?start=-1&sortby=date_added')
    expect(after.body).toEqual(before.body)
  })
})

describe('GET /api/database/stats', () => {
  it('answers tag weights with namespaces, minweight and excluded namespaces', async () => {
    const { status, body } = await get('/api/database/stats')
    expect(status).toBe(200)
    expect(body).toContainEqual({ namespace: 'female', text: 'glasses', weight: 8 })
    expect(body).toContainEqual({ namespace: 'artist', text: 'artist 1', weight: 6 })
    expect(body).toContainEqual({ namespace: 'series', text: 'box', weight: 1 })
    expect(body.some((s: Wire) => s.namespace === 'date_added')).toBe(true)
    const heavy = await get('/api/database/stats?minweight=7')
    expect(heavy.body.map((s: Wire) => `${s.namespace}:${s.text}`)).toEqual(['female:glasses'])
    const hidden = await get('/api/database/stats?hide_excluded_namespaces=true')
    expect(hidden.body.some((s: Wire) => s.namespace === 'date_added')).toBe(false)
    expect((await get('/api/database/stats?minweight=x')).status).toBe(400)
  })
})

describe('GET /api/archives/untagged', () => {
  it('lists archives whose only tags are in ignored namespaces', async () => {
    const { status, body } = await app.json<string[]>('/api/archives/untagged', { cookie })
    expect(status).toBe(200)
    const expected = ids.filter((_, i) => (i + 1) % 3 !== 0)
    expect([...body].sort()).toEqual(expected.sort())
  })
})
