// Categories and Tankoubons as aio-lanraragi's integration tests drive a real LANraragi
// (test_simple.py: test_category, test_archive_category_interaction, test_tankoubon_api;
// simple/test_category.py): the first-install Favorites category, envelopes and messages,
// adding twice, unknown ids, and the security probes of simple/test_security.py at the API.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { randomArchiveId, seedArchive } from '../helpers/seed.ts'

const FAVORITES = '🔖 Favorites'
const form = (fields: Record<string, string>) => new URLSearchParams(fields)

let app: TestServer
let cookie: string

async function json(res: Response, status = 200): Promise<Wire> {
  expect(res.status).toBe(status)
  return (await res.json()) as Wire
}

async function createCategory(fields: Record<string, string>): Promise<string> {
  const res = await app.req('/api/categories', { method: 'PUT', cookie, body: form(fields) })
  const body = await json(res)
  expect(body).toEqual({
    operation: 'create_category',
    success: 1,
    category_id: expect.any(String),
  })
  return body.category_id as string
}

async function createTank(name: string): Promise<string> {
  const res = await app.req('/api/tankoubons', { method: 'PUT', cookie, body: form({ name }) })
  const body = await json(res)
  expect(body).toEqual({
    operation: 'create_tankoubon',
    success: 1,
    tankoubon_id: expect.stringMatching(/^TANK_[0-9]{10}$/),
  })
  return body.tankoubon_id as string
}

const getCategory = async (id: string) => json(await app.req(`/api/categories/${id}`, { cookie }))
const getTank = async (id: string) => json(await app.req(`/api/tankoubons/${id}`, { cookie }))
const member = (path: string, method: 'PUT' | 'DELETE') => app.req(path, { method, cookie })

beforeAll(async () => {
  app = await startTestServer()
  // Seeded rows have no file: the first scan must be over, or it hides them as vanished.
  await app.idle()
  cookie = await app.login()
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

describe('first install (LANraragi creates "🔖 Favorites" and links the bookmark button)', () => {
  it('starts a fresh library with exactly that static category, linked, and only once', async () => {
    await using first = await startTestServer({ config: { favoritesCategory: true } })
    const session = await first.login()
    const list = await first.json<Wire[]>('/api/categories', { cookie: session })
    expect(list.body).toEqual([
      {
        id: expect.stringMatching(/^SET_[0-9]{10}$/),
        name: FAVORITES,
        archives: [],
        search: '',
        pinned: '0',
        visible_to_guest: false,
      },
    ])
    const link = await first.json('/api/categories/bookmark_link', { cookie: session })
    expect(link.body).toEqual({
      operation: 'get_bookmark_link',
      success: 1,
      category_id: list.body[0]!.id,
    })
    // Deleted by its owner, it stays deleted across a restart: this runs once per database.
    const del = await first.req(`/api/categories/${list.body[0]!.id}`, {
      method: 'DELETE',
      cookie: session,
    })
    expect(del.status).toBe(200)
    expect((await first.json('/api/categories/bookmark_link', { cookie: session })).body).toEqual({
      operation: 'get_bookmark_link',
      success: 1,
      category_id: '',
    })
    await first.stop()
    await using again = await startTestServer({
      root: first.root,
      config: { favoritesCategory: true },
    })
    const after = await again.json<Wire[]>('/api/categories', { cookie: await again.login() })
    expect(after.body).toEqual([])
  })

  it('leaves a database that already holds a library alone', async () => {
    await using old = await startTestServer()
    const session = await old.login()
    const res = await old.req('/api/categories', {
      method: 'PUT',
      cookie: session,
      body: form({ name: 'Mine' }),
    })
    expect(res.status).toBe(200)
    await old.stop()
    await using upgraded = await startTestServer({
      root: old.root,
      config: { favoritesCategory: true },
    })
    const again = await upgraded.login()
    const names = (await upgraded.json<Wire[]>('/api/categories', { cookie: again })).body
    expect(names.map((c) => c.name)).toEqual(['Mine'])
    const link = await upgraded.json('/api/categories/bookmark_link', { cookie: again })
    expect(link.body.category_id).toBe('')
  })
})

describe('categories (test_simple.py test_category)', () => {
  it('creates static and dynamic categories, renames, and links the bookmark to static ones only', async () => {
    const staticId = await createCategory({ name: 'test-static-category' })
    const dynamicId = await createCategory({
      name: 'test-dynamic-category',
      search: 'language:english',
    })
    const update = await app.req(`/api/categories/${staticId}`, {
      method: 'PUT',
      cookie,
      body: form({ name: 'test-static-category-changed' }),
    })
    expect(await json(update)).toEqual({
      operation: 'update_category',
      success: 1,
      category_id: staticId,
    })
    expect((await getCategory(staticId)).name).toBe('test-static-category-changed')
    expect(await getCategory(dynamicId)).toMatchObject({
      search: 'language:english',
      archives: [],
    })

    let res = await app.req(`/api/categories/bookmark_link/${staticId}`, { method: 'PUT', cookie })
    expect(res.status).toBe(200)
    res = await app.req(`/api/categories/bookmark_link/${dynamicId}`, { method: 'PUT', cookie })
    expect(await json(res, 400)).toMatchObject({
      operation: 'update_bookmark_link',
      success: 0,
      error: 'Cannot link bookmark to a dynamic category.',
    })
    expect(
      (await json(await app.req('/api/categories/bookmark_link', { cookie }))).category_id,
    ).toBe(staticId)
  })

  it('unlinks the bookmark when the linked category is deleted', async () => {
    const id = await createCategory({ name: 'test-static-category-2' })
    expect(
      (await app.req(`/api/categories/bookmark_link/${id}`, { method: 'PUT', cookie })).status,
    ).toBe(200)
    const del = await app.req(`/api/categories/${id}`, { method: 'DELETE', cookie })
    expect(await json(del)).toEqual({ operation: 'delete_category', success: 1 })
    const link = await json(await app.req('/api/categories/bookmark_link', { cookie }))
    expect(link.category_id).toBe('')
  })

  it('keeps pinned as "1" through an update that sends it (the LANraragi client sends "true")', async () => {
    const id = await createCategory({ name: 'pin-rename' })
    let res = await app.req(`/api/categories/${id}`, {
      method: 'PUT',
      cookie,
      body: form({ pinned: 'true' }),
    })
    expect(res.status).toBe(200)
    expect(await getCategory(id)).toMatchObject({ name: 'pin-rename', pinned: '1' })
    res = await app.req(`/api/categories/${id}`, {
      method: 'PUT',
      cookie,
      body: form({ name: 'pin-renamed', pinned: 'true' }),
    })
    expect(res.status).toBe(200)
    expect(await getCategory(id)).toMatchObject({ name: 'pin-renamed', pinned: '1' })
    // Pinning does not reorder the list: LANraragi leaves ordering to its clients.
    const ids = (await json(await app.req('/api/categories', { cookie }))).map((c: Wire) => c.id)
    expect(ids).toEqual([...ids].sort())
  })
})

describe('category members (test_simple.py test_archive_category_interaction)', () => {
  it('adds and removes archives one by one and concurrently, each listed once', async () => {
    const id = await createCategory({ name: 'Bookmarks' })
    const archives = Array.from({ length: 8 }, (_, i) => seedArchive(app.deps, { title: `A${i}` }))
    const ids = archives.map((a) => a.id)
    for (const arcid of ids.slice(4)) {
      expect((await member(`/api/categories/${id}/${arcid}`, 'PUT')).status).toBe(200)
    }
    expect(new Set((await getCategory(id)).archives)).toEqual(new Set(ids.slice(4)))
    for (const arcid of ids.slice(4)) {
      expect((await member(`/api/categories/${id}/${arcid}`, 'DELETE')).status).toBe(200)
    }
    const added = await Promise.all(
      ids.slice(0, 4).map((arcid) => member(`/api/categories/${id}/${arcid}`, 'PUT')),
    )
    expect(added.map((r) => r.status)).toEqual([200, 200, 200, 200])
    const listed = (await getCategory(id)).archives as string[]
    expect(listed).toHaveLength(4)
    expect(new Set(listed)).toEqual(new Set(ids.slice(0, 4)))
    const removed = await Promise.all(
      ids.slice(0, 4).map((arcid) => member(`/api/categories/${id}/${arcid}`, 'DELETE')),
    )
    expect(removed.map((r) => r.status)).toEqual([200, 200, 200, 200])
    expect((await getCategory(id)).archives).toEqual([])
  })

  it('answers a second add as a first one and keeps the archive once', async () => {
    const a = seedArchive(app.deps, { title: 'Twice' })
    const id = await createCategory({ name: 'Shelf' })
    for (let round = 0; round < 2; round++) {
      expect(await json(await member(`/api/categories/${id}/${a.id}`, 'PUT'))).toEqual({
        operation: 'add_to_category',
        success: 1,
        successMessage: 'Added "Twice" to category "Shelf"!',
      })
    }
    expect((await getCategory(id)).archives).toEqual([a.id])
  })

  it('answers removing a non-member as a removal, naming ids when no such archive exists', async () => {
    const a = seedArchive(app.deps, { title: 'Outside' })
    const id = await createCategory({ name: 'Empty shelf' })
    expect(await json(await member(`/api/categories/${id}/${a.id}`, 'DELETE'))).toEqual({
      operation: 'remove_from_category',
      success: 1,
      successMessage: 'Removed "Outside" from category "Empty shelf"!',
    })
    const ghost = randomArchiveId()
    expect(
      (await json(await member(`/api/categories/${id}/${ghost}`, 'DELETE'))).successMessage,
    ).toBe(`Removed ${ghost} from Category ${id}!`)
  })

  it('refuses unknown categories, unknown archives and dynamic categories with 400 Env', async () => {
    const a = seedArchive(app.deps)
    const ghostCategory = 'SET_0000000042'
    for (const method of ['PUT', 'DELETE'] as const) {
      const body = await json(await member(`/api/categories/${ghostCategory}/${a.id}`, method), 400)
      expect(body).toEqual({
        operation: method === 'PUT' ? 'add_to_category' : 'remove_from_category',
        success: 0,
        error: `${ghostCategory} doesn't exist in the database!`,
      })
    }
    const id = await createCategory({ name: 'Real' })
    const ghost = randomArchiveId()
    expect(await json(await member(`/api/categories/${id}/${ghost}`, 'PUT'), 400)).toMatchObject({
      success: 0,
      error: `${ghost} does not exist in the database.`,
    })
    const dynamic = await createCategory({ name: 'Search', search: 'artist:x' })
    let body = await json(await member(`/api/categories/${dynamic}/${a.id}`, 'PUT'), 400)
    expect(body.error).toBe(
      `${dynamic} is a favorite search/dynamic category, can't add archives to it.`,
    )
    body = await json(await member(`/api/categories/${dynamic}/${a.id}`, 'DELETE'), 400)
    expect(body.error).toBe(`${dynamic} is a favorite search, it doesn't contain archives.`)
    body = await json(await app.req(`/api/categories/${ghostCategory}`, { cookie }), 400)
    expect(body).toEqual({
      operation: 'get_category',
      success: 0,
      error: 'The given category does not exist.',
    })
  })

  it('shows the bookmark category with its members in the backup document', async () => {
    await using fresh = await startTestServer({ config: { favoritesCategory: true } })
    await fresh.idle()
    const session = await fresh.login()
    const linked = (await fresh.json('/api/categories/bookmark_link', { cookie: session })).body
    const archives = [seedArchive(fresh.deps), seedArchive(fresh.deps), seedArchive(fresh.deps)]
    for (const a of archives.slice(1)) {
      const path = `/api/categories/${linked.category_id}/${a.id}`
      expect((await fresh.req(path, { method: 'PUT', cookie: session })).status).toBe(200)
    }
    const backup = (await fresh.json('/api/database/backup', { cookie: session })).body
    expect(backup.archives).toHaveLength(3)
    expect(backup.categories).toHaveLength(1)
    expect(backup.categories[0]).toMatchObject({ catid: linked.category_id, name: FAVORITES })
    expect(new Set(backup.categories[0].archives)).toEqual(
      new Set(archives.slice(1).map((a) => a.id)),
    )
  })
})

describe('Tankoubons (test_simple.py test_tankoubon_api)', () => {
  it('adds, removes, replaces and renames members, then deletes the Tankoubon', async () => {
    const ids = Array.from({ length: 8 }, () => seedArchive(app.deps).id)
    const id = await createTank('Test Tankoubon')
    for (const arcid of ids.slice(0, 4)) {
      const body = await json(await member(`/api/tankoubons/${id}/${arcid}`, 'PUT'))
      expect(body).toMatchObject({ operation: 'add_to_tankoubon', success: 1 })
    }
    expect((await getTank(id)).archives).toEqual(ids.slice(0, 4))
    for (const arcid of ids.slice(0, 4)) {
      const body = await json(await member(`/api/tankoubons/${id}/${arcid}`, 'DELETE'))
      expect(body).toMatchObject({ operation: 'remove_from_tankoubon', success: 1 })
    }
    expect((await getTank(id)).archives).toEqual([])
    const update = await app.req(`/api/tankoubons/${id}`, {
      method: 'PUT',
      cookie,
      json: { archives: ids.slice(4), metadata: { name: 'Updated Tankoubon' } },
    })
    expect(await json(update)).toEqual({
      operation: 'update_tankoubon',
      success: 1,
      successMessage: 'Updated tankoubon "Updated Tankoubon"!',
    })
    expect(await getTank(id)).toMatchObject({ name: 'Updated Tankoubon', archives: ids.slice(4) })
    const del = await app.req(`/api/tankoubons/${id}`, { method: 'DELETE', cookie })
    expect(await json(del)).toEqual({ operation: 'delete_tankoubon', success: 1 })
    expect(await json(await app.req(`/api/tankoubons/${id}`, { cookie }), 400)).toEqual({
      operation: 'get_tankoubon',
      success: 0,
      error: 'The given tankoubon does not exist.',
    })
  })

  it('answers a second add as a first one and removing a non-member as a removal', async () => {
    const a = seedArchive(app.deps, { title: 'Volume 1' })
    const b = seedArchive(app.deps, { title: 'Volume 2' })
    const id = await createTank('Series')
    for (let round = 0; round < 2; round++) {
      expect(
        (await json(await member(`/api/tankoubons/${id}/${a.id}`, 'PUT'))).successMessage,
      ).toBe('Added "Volume 1" to tankoubon "Series"!')
    }
    expect((await getTank(id)).archives).toEqual([a.id])
    expect(await json(await member(`/api/tankoubons/${id}/${b.id}`, 'DELETE'))).toEqual({
      operation: 'remove_from_tankoubon',
      success: 1,
      successMessage: 'Removed "Volume 2" from tankoubon "Series"!',
    })
    expect((await getTank(id)).archives).toEqual([a.id])
  })

  it('pages the list past its end as empty, still counting every Tankoubon', async () => {
    await using small = await startTestServer()
    const session = await small.login()
    small.deps.settings.update({ archives_per_page: 2 })
    for (const name of ['One', 'Two', 'Three']) {
      const res = await small.req('/api/tankoubons', {
        method: 'PUT',
        cookie: session,
        body: form({ name }),
      })
      expect(res.status).toBe(200)
    }
    const past = await small.json('/api/tankoubons?page=5', { cookie: session })
    expect(past.body).toEqual({ filtered: 3, result: [], total: 3 })
    const second = await small.json('/api/tankoubons?page=1', { cookie: session })
    expect(second.body.result.map((t: Wire) => t.name)).toEqual(['Three'])
  })
})

describe('security probes on collection routes (simple/test_security.py, at the API)', () => {
  it('refuses traversal and malformed ids with 400 Env on every category and Tankoubon route', async () => {
    const a = seedArchive(app.deps)
    const tank = await createTank('Probe')
    const category = await createCategory({ name: 'Probe' })
    const bad = ['..%2F..%2Fetc%2Fpasswd', 'SET_..%2F', 'set_0000000001', 'SET_00000000001', '%00']
    for (const id of bad) {
      for (const [method, path] of [
        ['GET', `/api/categories/${id}`],
        ['PUT', `/api/categories/${id}`],
        ['DELETE', `/api/categories/${id}`],
        ['PUT', `/api/categories/${id}/${a.id}`],
        ['PUT', `/api/categories/${category}/${id}`],
        ['GET', `/api/tankoubons/${id}`],
        ['GET', `/api/tankoubons/${id}/full`],
        ['DELETE', `/api/tankoubons/${id}`],
        ['PUT', `/api/tankoubons/${id}/${a.id}`],
        ['PUT', `/api/tankoubons/${tank}/${id}`],
      ] as const) {
        const res = await app.req(path, { method, cookie })
        expect({ path, method, status: res.status }).toEqual({ path, method, status: 400 })
        expect(((await res.json()) as Wire).success).toBe(0)
      }
    }
  })

  it('stores injection and markup payloads verbatim and answers them as JSON only', async () => {
    const markup = '</script></option></select><img src="//xss-canary.invalid/x" onerror="x()">'
    const sql = "x'); DROP TABLE categories; --"
    const markupId = await createCategory({ name: markup })
    const sqlId = await createCategory({ name: sql, search: `artist:"${sql}"` })
    const res = await app.req(`/api/categories/${markupId}`, { cookie })
    expect(res.headers.get('content-type')).toStartWith('application/json')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect((await json(res)).name).toBe(markup)
    expect(await getCategory(sqlId)).toMatchObject({ name: sql, search: `artist:"${sql}"` })
    const names = (await json(await app.req('/api/categories', { cookie }))).map(
      (c: Wire) => c.name,
    )
    expect(names).toContain(markup)
    const tank = await createTank(markup)
    expect((await getTank(tank)).name).toBe(markup)
  })

  it('refuses names past 255 characters and a Tankoubon update with a prototype key', async () => {
    const res = await app.req('/api/categories', {
      method: 'PUT',
      cookie,
      body: form({ name: 'n'.repeat(256) }),
    })
    expect(await json(res, 400)).toMatchObject({ operation: 'create_category', success: 0 })
    const tank = await createTank('Proto')
    const update = await app.req(`/api/tankoubons/${tank}`, {
      method: 'PUT',
      cookie,
      headers: { 'content-type': 'application/json' },
      body: '{"metadata":{"__proto__":{"name":"polluted"}}}',
    })
    expect(await json(update, 400)).toMatchObject({ operation: 'update_tankoubon', success: 0 })
    expect((await getTank(tank)).name).toBe('Proto')
  })
})
