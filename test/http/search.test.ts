import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { seedArchive, seedCategory, seedTankoubon } from '../helpers/seed.ts'
import { deleteArchiveRow } from '../../src/db/repos/archives.repo.ts'

let app: TestServer
let cookie: string
const id: Record<string, string> = {}
let tank: string

async function get(path: string): Promise<{ status: number; body: Wire }> {
  const { status, body } = await app.json(path, { cookie })
  return { status, body: body ?? {} }
}

async function titles(query: string): Promise<string[]> {
  const { status, body } = await get(`/api/search?${query}`)
  expect(status).toBe(200)
  return body.data.map((a: Wire) => a.title)
}

beforeAll(async () => {
  app = await startTestServer()
  await app.idle()
  cookie = await app.login()
  const deps = app.deps
  const seed = (title: string, tags: string, more: Parameters<typeof seedArchive>[1] = {}) =>
    (id[title] = seedArchive(deps, { title, tags, ...more }).id)
  seed('Alpha 1', 'artist:kim, series:saga, date_added:300, female:glasses', {
    pagecount: 10,
    progress: 10,
    isnew: false,
    lastreadtime: 500,
  })
  seed('Alpha 2', 'artist:kim, series:saga, date_added:100', {
    pagecount: 20,
    progress: 5,
    lastreadtime: 900,
  })
  seed('Alpha 10', 'artist:lee, date_added:200, language:english', { pagecount: 30 })
  seed('Beta', 'artist:lee, language:english, male:tie', { pagecount: 5, isnew: false })
  seed('Ghost in the Shell', 'parody:ghost in the shell, language:japanese', {
    pagecount: 100,
    isnew: false,
  })
  seed('Untagged One', 'date_added:50', { isnew: false })
  seed('Same Title', 'artist:zed', { isnew: false })
  seed('Same Title', 'artist:amy', { isnew: false })
  tank = seedTankoubon(deps, {
    name: 'Saga Collected',
    tags: 'series:saga omnibus',
    members: [id['Alpha 1']!, id['Alpha 2']!],
  })
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

describe('GET /api/search', () => {
  it('answers archive metadata with recordsTotal and recordsFiltered, Tankoubons folded in', async () => {
    const { status, body } = await get('/api/search')
    expect(status).toBe(200)
    expect(body.recordsTotal).toBe(7)
    expect(body.recordsFiltered).toBe(7)
    expect(body.data.map((a: Wire) => a.title)).toEqual([
      'Alpha 10',
      'Beta',
      'Ghost in the Shell',
      'Saga Collected',
      'Same Title',
      'Same Title',
      'Untagged One',
    ])
    const beta = body.data.find((a: Wire) => a.title === 'Beta')
    expect(beta).toMatchObject({
      arcid: id.Beta,
      tags: 'artist:lee, language:english, male:tie',
      isnew: 'false',
      pagecount: 5,
    })
    const fields =
      'arcid extension filename isnew lastreadtime pagecount progress size summary tags title toc'
    expect(Object.keys(beta).sort()).toEqual(fields.split(' '))
  })

  it('shows a Tankoubon as metadata under its TANK_ id', async () => {
    const { body } = await get('/api/search?filter=saga')
    expect(body.data).toHaveLength(1)
    const t = body.data[0]
    expect(t).toMatchObject({ arcid: tank, title: 'Saga Collected', pagecount: 30, isnew: 'true' })
    const expected = ['series:saga omnibus', 'artist:kim', 'female:glasses', 'date_added:300']
    expect(t.tags.split(', ')).toEqual(expect.arrayContaining(expected))
    // One date_added, the newest of the members' (issue 8).
    expect(t.tags).not.toContain('date_added:100')
  })

  it('searches members separately with groupby_tanks=false (and 0)', async () => {
    for (const flag of ['false', '0']) {
      const { body } = await get(`/api/search?filter=artist:kim&groupby_tanks=${flag}`)
      expect(body.data.map((a: Wire) => a.title)).toEqual(['Alpha 1', 'Alpha 2'])
      expect(body.recordsTotal).toBe(8)
    }
    expect(await titles('filter=artist:kim')).toEqual(['Saga Collected'])
  })

  it('filters with terms, exclusions, exact tags, wildcards and page ranges', async () => {
    expect(await titles('filter=language:english')).toEqual(['Alpha 10', 'Beta'])
    expect(await titles('filter=language:english, -male:tie')).toEqual(['Alpha 10'])
    expect(await titles('filter=' + encodeURIComponent('"ghost in the shell"'))).toEqual([
      'Ghost in the Shell',
    ])
    expect(await titles('filter=artist:l?e$')).toEqual(['Alpha 10', 'Beta'])
    const range = encodeURIComponent('pages:>=30, -pages:>99')
    expect(await titles(`filter=${range}`)).toEqual(['Alpha 10', 'Saga Collected'])
    expect(await titles('filter=' + encodeURIComponent('"unterminated'))).toEqual([])
  })

  it('reports recordsFiltered before paging and pages by offset with archives_per_page', async () => {
    app.deps.settings.update({ archives_per_page: 3 })
    try {
      const first = await get('/api/search')
      expect(first.body.data).toHaveLength(3)
      expect(first.body.recordsFiltered).toBe(7)
      expect((await titles('start=3')).length).toBe(3)
      expect(await titles('start=6')).toEqual(['Untagged One'])
      expect(await titles('start=7')).toEqual([])
      expect(await titles('start=500')).toEqual([])
      expect((await titles('start=-1')).length).toBe(7)
    } finally {
      app.deps.settings.update({ archives_per_page: 100 })
    }
  })

  it('sorts by a namespace naturally, lacking ones last in both orders, ties by title', async () => {
    const flat = 'groupby_tanks=false&sortby=date_added'
    expect(await titles(flat)).toEqual([
      'Untagged One',
      'Alpha 2',
      'Alpha 10',
      'Alpha 1',
      'Beta',
      'Ghost in the Shell',
      'Same Title',
      'Same Title',
    ])
    expect((await titles(`${flat}&order=desc`)).slice(0, 5)).toEqual([
      'Alpha 1',
      'Alpha 10',
      'Alpha 2',
      'Untagged One',
      'Beta',
    ])
    const byArtist = await get('/api/search?sortby=artist&filter=same title')
    expect(byArtist.body.data.map((a: Wire) => a.tags)).toEqual(['artist:amy', 'artist:zed'])
    const reversed = await get('/api/search?sortby=artist&order=desc&filter=same title')
    expect(reversed.body.data.map((a: Wire) => a.tags)).toEqual(['artist:zed', 'artist:amy'])
  })

  it('sorts by title descending and by last read (read ones only, most recent first)', async () => {
    expect(await titles('order=desc')).toEqual([
      'Untagged One',
      'Same Title',
      'Same Title',
      'Saga Collected',
      'Ghost in the Shell',
      'Beta',
      'Alpha 10',
    ])
    expect(await titles('sortby=lastread&groupby_tanks=false')).toEqual(['Alpha 2', 'Alpha 1'])
    expect(await titles('sortby=lastread&groupby_tanks=false&order=desc')).toEqual([
      'Alpha 1',
      'Alpha 2',
    ])
  })

  it('combines newonly, untaggedonly and hidecompleted', async () => {
    expect(await titles('newonly=true&groupby_tanks=false')).toEqual(['Alpha 2', 'Alpha 10'])
    expect(await titles('newonly=1')).toEqual(['Alpha 10', 'Saga Collected'])
    // artist, language, parody, date_added... do not count as tags.
    expect(await titles('untaggedonly=true')).toEqual([
      'Alpha 10',
      'Ghost in the Shell',
      'Same Title',
      'Same Title',
      'Untagged One',
    ])
    expect(await titles('untaggedonly=true&newonly=true')).toEqual(['Alpha 10'])
    expect(await titles('hidecompleted=true&groupby_tanks=false&filter=alpha')).toEqual([
      'Alpha 2',
      'Alpha 10',
    ])
    // A Tankoubon is never hidden as completed.
    expect(await titles('hidecompleted=true&filter=saga')).toEqual(['Saga Collected'])
    const all = 'newonly=true&hidecompleted=true&groupby_tanks=false&filter=artist:kim'
    expect(await titles(all)).toEqual(['Alpha 2'])
  })

  it('restricts to a static category and ANDs in a dynamic one', async () => {
    const fixed = seedCategory(app.deps, { members: [id.Beta!, id['Alpha 1']!] })
    expect(await titles(`category=${fixed}`)).toEqual(['Beta', 'Saga Collected'])
    expect(await titles(`category=${fixed}&groupby_tanks=false`)).toEqual(['Alpha 1', 'Beta'])
    const dynamic = seedCategory(app.deps, { search: 'language:english' })
    expect(await titles(`category=${dynamic}`)).toEqual(['Alpha 10', 'Beta'])
    expect(await titles(`category=${dynamic}&filter=-male:tie`)).toEqual(['Alpha 10'])
  })

  it('sees a metadata edit in the very next search', async () => {
    const row = seedArchive(app.deps, { title: 'Fresh', tags: 'artist:new' })
    expect(await titles('filter=artist:newer')).toEqual([])
    const path = `/api/archives/${row.id}/metadata?tags=artist:newer&title=Fresher`
    const put = await app.req(path, { method: 'PUT', cookie })
    expect(put.status).toBe(200)
    expect(await titles('filter=artist:newer')).toEqual(['Fresher'])
    deleteArchiveRow(app.deps.db, row.id)
    app.deps.search.removeArchive(row.id)
    expect(await titles('filter=artist:newer')).toEqual([])
  })

  it('answers 400 Env for malformed parameters, never 500', async () => {
    const cases = [
      'category=SET_12345678901',
      'category=SET_0000000001',
      'category=nonsense',
      'start=abc',
      'start=-2',
      'start=1.5',
      'order=sideways',
      'newonly=maybe',
      'groupby_tanks=yes please',
      'hidecompleted=2',
    ]
    for (const query of cases) {
      const { status, body } = await get(`/api/search?${query}`)
      expect({ query, status }).toEqual({ query, status: 400 })
      expect(body).toMatchObject({ operation: 'search', success: 0 })
      expect(typeof body.error).toBe('string')
    }
    const missing = await get('/api/search?category=SET_0000000001')
    expect(missing.body.error).toContain('not found')
  })

  it('needs credentials while nofun_mode is on', async () => {
    const res = await app.req('/api/search')
    expect(res.status).toBe(401)
  })
})
