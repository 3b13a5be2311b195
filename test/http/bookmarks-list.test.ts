import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { insertBookmark } from '../../src/db/repos/bookmarks.repo.ts'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { seedArchive } from '../helpers/seed.ts'

let app: TestServer
let cookie: string
const ids: Record<string, string> = {}

async function list(query = ''): Promise<Wire> {
  const res = await app.req(`/api/bookmarks${query}`, { cookie })
  expect(res.status).toBe(200)
  return (await res.json()) as Wire
}

const titles = (body: Wire) => body.entries.map((e: Wire) => e.archive.title)

beforeAll(async () => {
  app = await startTestServer()
  // Seeded rows have no file: the first scan must be over, or it hides them as vanished.
  await app.idle()
  cookie = await app.login()
  const seeds = [
    {
      title: 'Beta',
      added: 300,
      marks: [
        [1, 1000],
        [3, 4000],
      ],
    },
    { title: 'alpha', added: 100, marks: [[2, 3000]] },
    { title: 'Gamma', added: 200, marks: [[1, 2000]] },
    { title: 'Deleted', added: 400, marks: [[1, 5000]] },
  ] as const
  for (const seed of seeds) {
    const row = seedArchive(app.deps, { title: seed.title, tags: `date_added:${seed.added}` })
    ids[seed.title] = row.id
    for (const [page, bookmarkedAt] of seed.marks) {
      insertBookmark(app.deps.db, { archiveId: row.id, page, name: null, bookmarkedAt })
    }
  }
  expect((await app.req(`/api/archives/${ids.Deleted}`, { method: 'DELETE', cookie })).status).toBe(
    200,
  )
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

describe('GET /api/bookmarks', () => {
  it('aggregates by archive, latest bookmark first by default, dropping deleted archives', async () => {
    const body = await list()
    expect(titles(body)).toEqual(['Beta', 'alpha', 'Gamma'])
    expect(body.next_cursor).toBeNull()
    const beta = body.entries[0]
    expect(beta.archive).toMatchObject({ arcid: ids.Beta, title: 'Beta', pagecount: 10 })
    expect(beta.pages).toEqual([
      { page: 1, filename: 'p001.jpg', name: null, bookmarked_at: 1000 },
      { page: 3, filename: 'p003.jpg', name: null, bookmarked_at: 4000 },
    ])
  })

  it('sorts by title and by date_added', async () => {
    expect(titles(await list('?sort=title'))).toEqual(['alpha', 'Beta', 'Gamma'])
    expect(titles(await list('?sort=date_added'))).toEqual(['Beta', 'Gamma', 'alpha'])
  })

  it('pages with limit and a cursor that stays put when a bookmark is added', async () => {
    const first = await list('?limit=2')
    expect(titles(first)).toEqual(['Beta', 'alpha'])
    expect(typeof first.next_cursor).toBe('string')
    const late = seedArchive(app.deps, { title: 'Latecomer' })
    insertBookmark(app.deps.db, { archiveId: late.id, page: 1, name: null, bookmarkedAt: 9000 })
    const second = await list(`?limit=2&cursor=${encodeURIComponent(first.next_cursor)}`)
    expect(titles(second)).toEqual(['Gamma'])
    expect(second.next_cursor).toBeNull()
    expect(titles(await list('?limit=1'))).toEqual(['Latecomer'])
  })

  it('answers 400 Env for a bad limit, sort or cursor', async () => {
    const titleCursor = (await list('?sort=title&limit=1')).next_cursor
    const bad = [
      '?limit=0',
      '?limit=201',
      '?limit=ten',
      '?sort=pages',
      '?cursor=%%%',
      `?cursor=${titleCursor}`,
    ]
    for (const query of bad) {
      const res = await app.req(`/api/bookmarks${query}`, { cookie })
      expect(res.status).toBe(400)
      expect(await res.json()).toMatchObject({ operation: 'list_bookmarks', success: 0 })
    }
  })

  it('accepts limits at both bounds', async () => {
    expect((await list('?limit=1')).entries).toHaveLength(1)
    expect((await list('?limit=200')).entries.length).toBeGreaterThan(1)
  })
})
