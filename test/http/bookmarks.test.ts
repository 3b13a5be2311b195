import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { randomArchiveId, seedArchive } from '../helpers/seed.ts'

let app: TestServer
let cookie: string

async function bookmarksOf(id: string): Promise<Wire[]> {
  const res = await app.req(`/api/archives/${id}/bookmarks`, { cookie })
  expect(res.status).toBe(200)
  return (await res.json()) as Wire[]
}

const post = (path: string) => app.req(path, { method: 'POST', cookie })
const rename = (path: string, name: string | null) =>
  app.req(`${path}/name`, { method: 'PUT', cookie, json: { name } })

beforeAll(async () => {
  app = await startTestServer()
  // Seeded rows have no file: the first scan must be over, or it hides them as vanished.
  await app.idle()
  cookie = await app.login()
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

describe('POST /api/archives/:id/bookmarks/:page', () => {
  it('adds bookmarks listed ascending with their file names', async () => {
    const a = seedArchive(app.deps, { pagecount: 5 })
    const before = Math.floor(Date.now() / 1000)
    for (const page of [4, 2]) {
      const res = await post(`/api/archives/${a.id}/bookmarks/${page}`)
      expect(res.status).toBe(200)
      expect(await res.json()).toMatchObject({ operation: 'add_bookmark', success: 1 })
    }
    const list = await bookmarksOf(a.id)
    expect(list.map(({ bookmarked_at, ...rest }) => rest)).toEqual([
      { page: 2, filename: 'p002.jpg', name: null },
      { page: 4, filename: 'p004.jpg', name: null },
    ])
    expect(list[0]!.bookmarked_at).toBeGreaterThanOrEqual(before)
  })

  it('does not check the page against the page count', async () => {
    const a = seedArchive(app.deps, { pagecount: 2 })
    expect((await post(`/api/archives/${a.id}/bookmarks/99`)).status).toBe(200)
    expect(await bookmarksOf(a.id)).toMatchObject([{ page: 99, filename: '' }])
  })

  it('keeps the name of a bookmark added twice', async () => {
    const a = seedArchive(app.deps)
    await post(`/api/archives/${a.id}/bookmarks/1`)
    await rename(`/api/archives/${a.id}/bookmarks/1`, 'Keep')
    expect((await post(`/api/archives/${a.id}/bookmarks/1`)).status).toBe(200)
    expect(await bookmarksOf(a.id)).toMatchObject([{ page: 1, name: 'Keep' }])
  })

  it('answers 400 Env for an unknown archive or a page that is not a positive integer', async () => {
    const a = seedArchive(app.deps)
    const paths = [
      `/api/archives/${randomArchiveId()}/bookmarks/1`,
      `/api/archives/${a.id}/bookmarks/0`,
      `/api/archives/${a.id}/bookmarks/two`,
      '/api/archives/bad/bookmarks/1',
    ]
    for (const path of paths) {
      const res = await post(path)
      expect(res.status).toBe(400)
      expect(await res.json()).toMatchObject({ operation: 'add_bookmark', success: 0 })
    }
  })

  it('answers 401 Env without credentials', async () => {
    const res = await app.req(`/api/archives/${seedArchive(app.deps).id}/bookmarks/1`, {
      method: 'POST',
    })
    expect(res.status).toBe(401)
  })
})

describe('GET /api/archives/:id/bookmarks', () => {
  it('yields no bookmarks for a nonexistent archive', async () => {
    expect(await bookmarksOf(randomArchiveId())).toEqual([])
  })
})

describe('DELETE /api/archives/:id/bookmarks/:page', () => {
  it('is idempotent and does not need the archive to exist', async () => {
    const a = seedArchive(app.deps)
    await post(`/api/archives/${a.id}/bookmarks/3`)
    for (let i = 0; i < 2; i++) {
      const res = await app.req(`/api/archives/${a.id}/bookmarks/3`, { method: 'DELETE', cookie })
      expect(res.status).toBe(200)
      expect(await res.json()).toMatchObject({ operation: 'remove_bookmark', success: 1 })
    }
    expect(await bookmarksOf(a.id)).toEqual([])
    const gone = await app.req(`/api/archives/${randomArchiveId()}/bookmarks/3`, {
      method: 'DELETE',
      cookie,
    })
    expect(gone.status).toBe(200)
  })
})

describe('PUT /api/archives/:id/bookmarks/:page/name', () => {
  it('sets, clears with null and clears with blank', async () => {
    const a = seedArchive(app.deps)
    const path = `/api/archives/${a.id}/bookmarks/2`
    await post(path)
    let res = await rename(path, '  Big reveal ')
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({
      operation: 'rename_bookmark',
      success: 1,
      name: 'Big reveal',
    })
    expect((await bookmarksOf(a.id))[0]!.name).toBe('Big reveal')
    await rename(path, null)
    expect((await bookmarksOf(a.id))[0]!.name).toBeNull()
    await rename(path, 'again')
    res = await rename(path, '   ')
    expect(res.status).toBe(200)
    expect((await bookmarksOf(a.id))[0]!.name).toBeNull()
  })

  it('answers 404 Env naming a bookmark that does not exist', async () => {
    const a = seedArchive(app.deps)
    const res = await rename(`/api/archives/${a.id}/bookmarks/7`, 'x')
    expect(res.status).toBe(404)
    const body = (await res.json()) as Wire
    expect(body).toMatchObject({ operation: 'rename_bookmark', success: 0 })
    expect(body.error).toContain('page 7')
  })

  it('answers 400 Env for a name that is too long or not a string', async () => {
    const a = seedArchive(app.deps)
    const path = `/api/archives/${a.id}/bookmarks/1`
    await post(path)
    expect((await rename(path, 'x'.repeat(201))).status).toBe(400)
    const res = await app.req(`${path}/name`, { method: 'PUT', cookie, json: { name: 5 } })
    expect(res.status).toBe(400)
  })
})

describe('Tankoubon bookmarks', () => {
  let tank: string
  let first: string
  let second: string

  beforeAll(async () => {
    const gone = seedArchive(app.deps, { pagecount: 4 }).id
    first = seedArchive(app.deps, { pagecount: 3 }).id
    second = seedArchive(app.deps, { pagecount: 2 }).id
    const body = new URLSearchParams({ name: 'Marked' })
    const res = await app.req('/api/tankoubons', { method: 'PUT', cookie, body })
    tank = ((await res.json()) as Wire).tankoubon_id
    await app.req(`/api/tankoubons/${tank}`, {
      method: 'PUT',
      cookie,
      json: { archives: [gone, first, second] },
    })
    await post(`/api/archives/${gone}/bookmarks/1`)
    // A member whose archive is deleted afterwards contributes no pages and no bookmarks.
    expect((await app.req(`/api/archives/${gone}`, { method: 'DELETE', cookie })).status).toBe(200)
  })

  it('writes a global page onto the member archive and lists it in global numbering', async () => {
    let res = await post(`/api/tankoubons/${tank}/bookmarks/4`)
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({
      operation: 'add_bookmark',
      success: 1,
      archive_id: second,
      page: 1,
    })
    expect(await bookmarksOf(second)).toMatchObject([{ page: 1, filename: 'p001.jpg' }])
    await post(`/api/tankoubons/${tank}/bookmarks/3`)
    await post(`/api/archives/${first}/bookmarks/9`)
    res = await app.req(`/api/tankoubons/${tank}/bookmarks`, { cookie })
    expect(res.status).toBe(200)
    const list = (await res.json()) as Wire[]
    expect(list.map(({ bookmarked_at, ...rest }) => rest)).toEqual([
      { page: 3, archive_id: first, local_page: 3, filename: 'p003.jpg', name: null },
      { page: 4, archive_id: second, local_page: 1, filename: 'p001.jpg', name: null },
    ])
  })

  it('names and removes through the global page', async () => {
    await post(`/api/tankoubons/${tank}/bookmarks/5`)
    const res = await rename(`/api/tankoubons/${tank}/bookmarks/5`, 'Finale')
    expect(res.status).toBe(200)
    expect((await bookmarksOf(second)).find((b) => b.page === 2)!.name).toBe('Finale')
    const missing = await rename(`/api/tankoubons/${tank}/bookmarks/1`, 'x')
    expect(missing.status).toBe(404)
    const del = await app.req(`/api/tankoubons/${tank}/bookmarks/5`, { method: 'DELETE', cookie })
    expect(del.status).toBe(200)
    expect((await bookmarksOf(second)).map((b) => b.page)).toEqual([1])
  })

  it('answers 400 Env for a page out of range or an unknown Tankoubon', async () => {
    const paths = [
      `/api/tankoubons/${tank}/bookmarks/6`,
      `/api/tankoubons/${tank}/bookmarks/0`,
      '/api/tankoubons/TANK_0000000007/bookmarks/1',
    ]
    for (const path of paths) {
      const res = await post(path)
      expect(res.status).toBe(400)
      expect(await res.json()).toMatchObject({ operation: 'add_bookmark', success: 0 })
    }
    const res = await app.req('/api/tankoubons/TANK_0000000007/bookmarks', { cookie })
    expect(res.status).toBe(400)
  })
})

describe('bookmark display preferences', () => {
  it('hover page order is null until saved, then the saved value', async () => {
    let res = await app.req('/api/bookmarks/hover-page-order', { cookie })
    expect(await res.json()).toEqual({ order: null })
    res = await app.req('/api/bookmarks/hover-page-order', {
      method: 'PUT',
      cookie,
      json: { order: 'pageAsc' },
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ operation: 'put_hover_page_order', success: 1 })
    res = await app.req('/api/bookmarks/hover-page-order', { cookie })
    expect(await res.json()).toEqual({ order: 'pageAsc' })
  })

  it('refuses an unknown order with 400 Env', async () => {
    const res = await app.req('/api/bookmarks/hover-page-order', {
      method: 'PUT',
      cookie,
      json: { order: 'random' },
    })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ operation: 'put_hover_page_order', success: 0 })
  })

  it('only-matching is false until set', async () => {
    let res = await app.req('/api/bookmarks/only-matching', { cookie })
    expect(await res.json()).toEqual({ only_matching: false })
    res = await app.req('/api/bookmarks/only-matching', {
      method: 'PUT',
      cookie,
      json: { only_matching: true },
    })
    expect(res.status).toBe(200)
    res = await app.req('/api/bookmarks/only-matching', { cookie })
    expect(await res.json()).toEqual({ only_matching: true })
    res = await app.req('/api/bookmarks/only-matching', {
      method: 'PUT',
      cookie,
      json: { only_matching: 'yes' },
    })
    expect(res.status).toBe(400)
  })

  it('needs admin rights to save', async () => {
    const res = await app.req('/api/bookmarks/only-matching', {
      method: 'PUT',
      json: { only_matching: false },
    })
    expect(res.status).toBe(401)
  })
})
