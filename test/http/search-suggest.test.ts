// /api/search/suggest is the first 10 results of the same /api/search, in ascending title order,
// cut down to arcid and title: same terms on tags and titles, flags, category and grouping.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { seedArchive, seedCategory, seedTankoubon } from '../helpers/seed.ts'

let app: TestServer
let cookie: string
const id: Record<string, string> = {}

async function get(path: string) {
  const res = await app.req(path, { cookie })
  expect(res.status).toBe(200)
  return (await res.json()) as any
}

/** What suggest must answer: the first 10 of /api/search in title order. */
async function expected(query: string) {
  const body = await get(`/api/search?${query}`)
  return body.data.slice(0, 10).map((a: Wire) => ({ arcid: a.arcid, title: a.title }))
}

beforeAll(async () => {
  app = await startTestServer()
  await app.idle()
  cookie = await app.login()
  id.akira = seedArchive(app.deps, { title: 'Akira Vol. 2', tags: 'artist:katsuhiro otomo' }).id
  id.old = seedArchive(app.deps, {
    title: 'Domu',
    tags: 'artist:katsuhiro otomo',
    isnew: false,
  }).id
  for (let i = 1; i <= 14; i++)
    id[`m${i}`] = seedArchive(app.deps, { title: `Memo ${i}`, tags: 'artist:otomo school' }).id
  id.inTank = seedArchive(app.deps, { title: 'Zeta Part', tags: 'artist:otomo' }).id
  id.tank = seedTankoubon(app.deps, { name: 'Zeta Box', members: [id.inTank] })
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

describe('GET /api/search/suggest', () => {
  it('finds an archive by its tag, as /api/search does', async () => {
    const body = await get('/api/search/suggest?filter=katsuhiro otomo')
    expect(body.data).toEqual([
      { arcid: id.akira, title: 'Akira Vol. 2' },
      { arcid: id.old, title: 'Domu' },
    ])
  })

  it('answers the first 10 results of the same search in title order', async () => {
    const body = await get('/api/search/suggest?filter=otomo')
    expect(body.data).toHaveLength(10)
    expect(body.data).toEqual(await expected('filter=otomo'))
    expect(body.data[0]).toEqual({ arcid: id.akira, title: 'Akira Vol. 2' })
  })

  it('applies flags, grouping and exact terms as /api/search does', async () => {
    for (const query of [
      'filter=otomo&newonly=true',
      'filter=katsuhiro otomo&newonly=true',
      'filter=zeta',
      'filter=zeta&groupby_tanks=false',
      'filter=artist:otomo$',
      'filter="domu"',
      'filter=otomo&tankoubonsonly=true',
    ]) {
      const body = await get(`/api/search/suggest?${query}`)
      expect({ query, data: body.data }).toEqual({ query, data: await expected(query) })
    }
    const exact = await get('/api/search/suggest?filter=artist:otomo$')
    expect(exact.data).toEqual([{ arcid: id.tank, title: 'Zeta Box' }])
  })

  it('applies a category', async () => {
    const category = seedCategory(app.deps, { members: [id.old!, id.m3!] })
    const body = await get(`/api/search/suggest?filter=otomo&category=${category}`)
    expect(body.data).toEqual([
      { arcid: id.old, title: 'Domu' },
      { arcid: id.m3, title: 'Memo 3' },
    ])
  })
})
