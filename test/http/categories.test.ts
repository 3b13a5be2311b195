import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { randomArchiveId, seedArchive } from '../helpers/seed.ts'

let app: TestServer
let cookie: string

const form = (fields: Record<string, string>) => new URLSearchParams(fields)

async function createCategory(fields: Record<string, string>): Promise<string> {
  const res = await app.req('/api/categories', { method: 'PUT', cookie, body: form(fields) })
  expect(res.status).toBe(200)
  return ((await res.json()) as Wire).category_id
}

async function getCategory(id: string): Promise<Wire> {
  const res = await app.req(`/api/categories/${id}`, { cookie })
  expect(res.status).toBe(200)
  return (await res.json()) as Wire
}

async function createTankoubon(name: string): Promise<string> {
  const res = await app.req('/api/tankoubons', { method: 'PUT', cookie, body: form({ name }) })
  return ((await res.json()) as Wire).tankoubon_id
}

beforeAll(async () => {
  app = await startTestServer()
  // Seeded rows have no file: the first scan must be over, or it hides them as vanished.
  await app.idle()
  cookie = await app.login()
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

describe('PUT /api/categories', () => {
  it('creates a static category with defaults', async () => {
    const res = await app.req('/api/categories', {
      method: 'PUT',
      cookie,
      body: form({ name: 'Favourites' }),
    })
    expect(res.status).toBe(200)
    const body = (await res.json()) as Wire
    expect(body).toMatchObject({ operation: 'create_category', success: 1 })
    expect(body.category_id).toMatch(/^SET_[0-9]{10}$/)
    expect(await getCategory(body.category_id)).toEqual({
      id: body.category_id,
      name: 'Favourites',
      archives: [],
      search: '',
      pinned: '0',
      visible_to_guest: false,
    })
  })

  it('creates a pinned dynamic category from a multipart body', async () => {
    const body = new FormData()
    body.set('name', 'Artist X')
    body.set('search', 'artist:x')
    body.set('pinned', 'true')
    body.set('visible_to_guest', 'true')
    const res = await app.req('/api/categories', { method: 'PUT', cookie, body })
    expect(res.status).toBe(200)
    const id = ((await res.json()) as Wire).category_id
    expect(await getCategory(id)).toMatchObject({
      search: 'artist:x',
      pinned: '1',
      visible_to_guest: true,
    })
  })

  it('answers 400 Env without a name', async () => {
    const res = await app.req('/api/categories', {
      method: 'PUT',
      cookie,
      body: form({ name: '  ' }),
    })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({
      operation: 'create_category',
      success: 0,
      error: 'Category name not specified.',
    })
  })

  it('answers 400 Env for a flag that is not true or false', async () => {
    const res = await app.req('/api/categories', {
      method: 'PUT',
      cookie,
      body: form({ name: 'x', pinned: 'maybe' }),
    })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ operation: 'create_category', success: 0 })
  })

  it('answers 401 Env without credentials', async () => {
    const res = await app.req('/api/categories', { method: 'PUT', body: form({ name: 'x' }) })
    expect(res.status).toBe(401)
    expect(await res.json()).toMatchObject({ operation: 'create_category', success: 0 })
  })

  it('gives concurrent creations distinct ids', async () => {
    const ids = await Promise.all(
      Array.from({ length: 12 }, (_, i) => createCategory({ name: `Burst ${i}` })),
    )
    expect(new Set(ids).size).toBe(12)
    const listed = ((await (await app.req('/api/categories', { cookie })).json()) as Wire[]).map(
      (c) => c.id,
    )
    for (const id of ids) expect(listed).toContain(id)
  })
})

describe('GET /api/categories/:id', () => {
  it('answers 400 Env for an unknown and for a malformed id', async () => {
    for (const id of ['SET_0000000001', 'nope']) {
      const res = await app.req(`/api/categories/${id}`, { cookie })
      expect(res.status).toBe(400)
      expect(await res.json()).toMatchObject({ operation: 'get_category', success: 0 })
    }
  })
})

describe('PUT /api/categories/:id', () => {
  it('changes only the fields sent', async () => {
    const id = await createCategory({ name: 'Before', search: 'tag:a', pinned: 'true' })
    let res = await app.req(`/api/categories/${id}`, {
      method: 'PUT',
      cookie,
      body: form({ pinned: 'false' }),
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ operation: 'update_category', success: 1, category_id: id })
    expect(await getCategory(id)).toMatchObject({ name: 'Before', search: 'tag:a', pinned: '0' })
    res = await app.req(`/api/categories/${id}`, {
      method: 'PUT',
      cookie,
      body: form({ name: 'After' }),
    })
    expect(await getCategory(id)).toMatchObject({ name: 'After', search: 'tag:a', pinned: '0' })
  })

  it('turns a static category dynamic, dropping its members', async () => {
    const id = await createCategory({ name: 'Static' })
    const archive = seedArchive(app.deps)
    await app.req(`/api/categories/${id}/${archive.id}`, { method: 'PUT', cookie })
    await app.req(`/api/categories/${id}`, {
      method: 'PUT',
      cookie,
      body: form({ search: 'artist:y' }),
    })
    expect(await getCategory(id)).toMatchObject({ search: 'artist:y', archives: [] })
    await app.req(`/api/categories/${id}`, { method: 'PUT', cookie, body: form({ search: '' }) })
    expect(await getCategory(id)).toMatchObject({ search: '', archives: [] })
  })

  it('answers 400 Env for an unknown category', async () => {
    const res = await app.req('/api/categories/SET_0000000002', {
      method: 'PUT',
      cookie,
      body: form({ name: 'x' }),
    })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ operation: 'update_category', success: 0 })
  })
})

describe('DELETE /api/categories/:id', () => {
  it('deletes the category, then answers 400 for it', async () => {
    const id = await createCategory({ name: 'Doomed' })
    let res = await app.req(`/api/categories/${id}`, { method: 'DELETE', cookie })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ operation: 'delete_category', success: 1 })
    expect((await app.req(`/api/categories/${id}`, { cookie })).status).toBe(400)
    res = await app.req(`/api/categories/${id}`, { method: 'DELETE', cookie })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ operation: 'delete_category', success: 0 })
  })
})

describe('PUT and DELETE /api/categories/:id/:archive', () => {
  it('adds archives in order, once each, and removes them', async () => {
    const id = await createCategory({ name: 'Members' })
    const [a, b] = [seedArchive(app.deps), seedArchive(app.deps)]
    for (const member of [a.id, b.id, a.id]) {
      const res = await app.req(`/api/categories/${id}/${member}`, { method: 'PUT', cookie })
      expect(res.status).toBe(200)
      expect(await res.json()).toMatchObject({ operation: 'add_to_category', success: 1 })
    }
    expect((await getCategory(id)).archives).toEqual([a.id, b.id])
    const res = await app.req(`/api/categories/${id}/${a.id}`, { method: 'DELETE', cookie })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ operation: 'remove_from_category', success: 1 })
    expect((await getCategory(id)).archives).toEqual([b.id])
  })

  it('holds a Tankoubon, which leaves the category when it is deleted', async () => {
    const id = await createCategory({ name: 'With a Tankoubon' })
    const tank = await createTankoubon('Series')
    const res = await app.req(`/api/categories/${id}/${tank}`, { method: 'PUT', cookie })
    expect(res.status).toBe(200)
    expect((await getCategory(id)).archives).toEqual([tank])
    const of = (await (
      await app.req(`/api/archives/${tank}/categories`, { cookie })
    ).json()) as Wire
    expect(of.categories.map((c: Wire) => c.id)).toEqual([id])
    await app.req(`/api/tankoubons/${tank}`, { method: 'DELETE', cookie })
    expect((await getCategory(id)).archives).toEqual([])
  })

  it('answers 400 Env for an unknown archive or Tankoubon, and for a malformed id', async () => {
    const id = await createCategory({ name: 'Strict' })
    for (const member of [randomArchiveId(), 'TANK_0000000009', 'not-an-id']) {
      const res = await app.req(`/api/categories/${id}/${member}`, { method: 'PUT', cookie })
      expect(res.status).toBe(400)
      expect(await res.json()).toMatchObject({ operation: 'add_to_category', success: 0 })
    }
    expect((await getCategory(id)).archives).toEqual([])
  })

  it('answers 400 Env when adding to or removing from a dynamic category', async () => {
    const id = await createCategory({ name: 'Dynamic', search: 'language:english' })
    const archive = seedArchive(app.deps)
    let res = await app.req(`/api/categories/${id}/${archive.id}`, { method: 'PUT', cookie })
    expect(res.status).toBe(400)
    expect(((await res.json()) as Wire).error).toContain('dynamic')
    res = await app.req(`/api/categories/${id}/${archive.id}`, { method: 'DELETE', cookie })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ operation: 'remove_from_category', success: 0 })
  })

  it('answers 400 Env for an unknown category', async () => {
    const archive = seedArchive(app.deps)
    const res = await app.req(`/api/categories/SET_0000000003/${archive.id}`, {
      method: 'PUT',
      cookie,
    })
    expect(res.status).toBe(400)
  })
})

describe('GET /api/archives/:id/categories', () => {
  it('lists the static categories holding the archive', async () => {
    const archive = seedArchive(app.deps)
    const holding = await createCategory({ name: 'Holding' })
    await createCategory({ name: 'Not holding' })
    await app.req(`/api/categories/${holding}/${archive.id}`, { method: 'PUT', cookie })
    const res = await app.req(`/api/archives/${archive.id}/categories`, { cookie })
    expect(res.status).toBe(200)
    const body = (await res.json()) as Wire
    expect(body).toMatchObject({ operation: 'find_arc_categories', success: 1 })
    expect(body.categories).toEqual([
      {
        id: holding,
        name: 'Holding',
        archives: [archive.id],
        search: '',
        pinned: '0',
        visible_to_guest: false,
      },
    ])
  })

  it('answers 400 Env for a malformed id', async () => {
    const res = await app.req('/api/archives/xyz/categories', { cookie })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ operation: 'find_arc_categories', success: 0 })
  })
})
