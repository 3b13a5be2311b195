// The collection endpoints as LANraragi behaves:
// request params in the query string, update semantics, removal no-ops, the bookmark link,
// malformed bodies, LANraragi's member messages, global numbering after a member is deleted.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { randomArchiveId, seedArchive } from '../helpers/seed.ts'

let app: TestServer
let cookie: string

const form = (fields: Record<string, string>) => new URLSearchParams(fields)

async function json(res: Response, status = 200): Promise<Wire> {
  expect(res.status).toBe(status)
  return (await res.json()) as Wire
}

async function createCategory(name: string, extra = ''): Promise<string> {
  const res = await app.req(`/api/categories?name=${encodeURIComponent(name)}${extra}`, {
    method: 'PUT',
    cookie,
  })
  return (await json(res)).category_id as string
}

async function createTank(name: string, members: string[] = []): Promise<string> {
  const id = (
    await json(await app.req('/api/tankoubons', { method: 'PUT', cookie, body: form({ name }) }))
  ).tankoubon_id as string
  for (const member of members) {
    expect(
      (await app.req(`/api/tankoubons/${id}/${member}`, { method: 'PUT', cookie })).status,
    ).toBe(200)
  }
  return id
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

describe('categories: request params in the query string (LANraragi web client)', () => {
  it('creates from query params', async () => {
    const id = await createCategory('From query', '&search=artist%3Aq&pinned=1')
    expect(await json(await app.req(`/api/categories/${id}`, { cookie }))).toMatchObject({
      id,
      name: 'From query',
      search: 'artist:q',
      pinned: '1',
      archives: [],
    })
  })

  it('updates from query params; a body field wins over the query', async () => {
    const id = await createCategory('Old')
    let res = await app.req(`/api/categories/${id}?name=New&search=&pinned=1`, {
      method: 'PUT',
      cookie,
    })
    expect(await json(res)).toEqual({ operation: 'update_category', success: 1, category_id: id })
    expect(await json(await app.req(`/api/categories/${id}`, { cookie }))).toMatchObject({
      name: 'New',
      search: '',
      pinned: '1',
    })
    res = await app.req(`/api/categories/${id}?name=Query&pinned=1`, {
      method: 'PUT',
      cookie,
      body: form({ name: 'Body' }),
    })
    expect(res.status).toBe(200)
    expect(await json(await app.req(`/api/categories/${id}`, { cookie }))).toMatchObject({
      name: 'Body',
    })
  })
})

describe('categories: update without pinned', () => {
  it('unpins, as LANraragi documents, and keeps name and search', async () => {
    const id = await createCategory('Pinned', '&search=tag%3Ap&pinned=true')
    const res = await app.req(`/api/categories/${id}`, {
      method: 'PUT',
      cookie,
      body: form({ name: 'Renamed' }),
    })
    expect(res.status).toBe(200)
    expect(await json(await app.req(`/api/categories/${id}`, { cookie }))).toMatchObject({
      name: 'Renamed',
      search: 'tag:p',
      pinned: '0',
    })
  })
})

describe('categories: bookmark link', () => {
  it('is empty until linked, links a static category, and unlinks returning the old id', async () => {
    let body = await json(await app.req('/api/categories/bookmark_link', { cookie }))
    expect(body).toEqual({ operation: 'get_bookmark_link', success: 1, category_id: '' })
    const id = await createCategory('Bookmarked')
    body = await json(
      await app.req(`/api/categories/bookmark_link/${id}`, { method: 'PUT', cookie }),
    )
    expect(body).toEqual({ operation: 'update_bookmark_link', success: 1, category_id: id })
    body = await json(await app.req('/api/categories/bookmark_link', { cookie }))
    expect(body.category_id).toBe(id)
    body = await json(await app.req('/api/categories/bookmark_link', { method: 'DELETE', cookie }))
    expect(body).toEqual({ operation: 'remove_bookmark_link', success: 1, category_id: id })
    expect(
      (await json(await app.req('/api/categories/bookmark_link', { cookie }))).category_id,
    ).toBe('')
  })

  it('answers 400 for a malformed id or a dynamic category, 404 for an unknown one', async () => {
    const dynamic = await createCategory('Dynamic', '&search=tag%3Ad')
    let res = await app.req('/api/categories/bookmark_link/SET_x', { method: 'PUT', cookie })
    expect(await json(res, 400)).toMatchObject({ operation: 'update_bookmark_link', success: 0 })
    res = await app.req(`/api/categories/bookmark_link/${dynamic}`, { method: 'PUT', cookie })
    expect(await json(res, 400)).toMatchObject({ operation: 'update_bookmark_link', success: 0 })
    res = await app.req('/api/categories/bookmark_link/SET_0000000009', { method: 'PUT', cookie })
    expect(await json(res, 404)).toMatchObject({ operation: 'update_bookmark_link', success: 0 })
  })

  it('needs credentials to change the link', async () => {
    const res = await app.req('/api/categories/bookmark_link', { method: 'DELETE' })
    expect(res.status).toBe(401)
  })
})

describe('Tankoubons: LANraragi semantics', () => {
  it('creates from a query param', async () => {
    const res = await app.req('/api/tankoubons?name=Query%20tank', { method: 'PUT', cookie })
    const id = (await json(res)).tankoubon_id as string
    expect(id).toMatch(/^TANK_[0-9]{10}$/)
    expect((await json(await app.req(`/api/tankoubons/${id}`, { cookie }))).name).toBe('Query tank')
  })

  it('keeps the name when the update sends a blank one, and accepts an update without a body', async () => {
    const id = await createTank('Named')
    let res = await app.req(`/api/tankoubons/${id}`, {
      method: 'PUT',
      cookie,
      json: { metadata: { name: ' ', summary: 'S' } },
    })
    expect(await json(res)).toMatchObject({ operation: 'update_tankoubon', success: 1 })
    expect(await json(await app.req(`/api/tankoubons/${id}`, { cookie }))).toMatchObject({
      name: 'Named',
      summary: 'S',
    })
    res = await app.req(`/api/tankoubons/${id}`, { method: 'PUT', cookie })
    expect(await json(res)).toMatchObject({ operation: 'update_tankoubon', success: 1 })
  })

  it('removing a non-member is a 200 no-op; an archive that does not exist is a 400', async () => {
    const [a, b] = [seedArchive(app.deps), seedArchive(app.deps)]
    const id = await createTank('Members', [a.id])
    let res = await app.req(`/api/tankoubons/${id}/${b.id}`, { method: 'DELETE', cookie })
    expect(await json(res)).toMatchObject({ operation: 'remove_from_tankoubon', success: 1 })
    expect((await json(await app.req(`/api/tankoubons/${id}`, { cookie }))).archives).toEqual([
      a.id,
    ])
    res = await app.req(`/api/tankoubons/${id}/${randomArchiveId()}`, { method: 'DELETE', cookie })
    expect(await json(res, 400)).toMatchObject({ operation: 'remove_from_tankoubon', success: 0 })
  })

  it('answers the spec shapes for list, get one, full and progress', async () => {
    const a = seedArchive(app.deps, { pagecount: 4 })
    const id = await createTank('Shapes', [a.id])
    const list = await json(await app.req('/api/tankoubons?page=0', { cookie }))
    expect(Object.keys(list).sort()).toEqual(['filtered', 'result', 'total'])
    const one = await json(await app.req(`/api/tankoubons/${id}`, { cookie }))
    expect(Object.keys(one).sort()).toEqual([
      'archives',
      'id',
      'name',
      'progress',
      'summary',
      'tags',
    ])
    const full = await json(await app.req(`/api/tankoubons/${id}/full`, { cookie }))
    expect(full).toMatchObject({ filtered: 1, total: 1, result: { id, archives: [a.id] } })
    expect(full.result.full_data.map((m: Wire) => m.arcid)).toEqual([a.id])
    const progress = await json(
      await app.req(`/api/tankoubons/${id}/progress/3`, { method: 'PUT', cookie }),
    )
    expect(Object.keys(progress).sort()).toEqual([
      'id',
      'lastreadtime',
      'operation',
      'page',
      'success',
    ])
    expect(progress).toMatchObject({ id, page: 3, success: 1 })
  })
})

describe('malformed JSON bodies', () => {
  const garbage = { body: '{"archives": [', headers: { 'content-type': 'application/json' } }

  it('answers 400 Env to a Tankoubon update and changes nothing', async () => {
    const a = seedArchive(app.deps)
    const id = await createTank('Intact', [a.id])
    let res = await app.req(`/api/tankoubons/${id}`, { method: 'PUT', cookie, ...garbage })
    expect(await json(res, 400)).toMatchObject({ operation: 'update_tankoubon', success: 0 })
    res = await app.req(`/api/tankoubons/${id}`, {
      method: 'PUT',
      cookie,
      json: ['not', 'an', 'object'],
    })
    expect(await json(res, 400)).toMatchObject({ operation: 'update_tankoubon', success: 0 })
    expect(await json(await app.req(`/api/tankoubons/${id}`, { cookie }))).toMatchObject({
      name: 'Intact',
      archives: [a.id],
    })
  })

  it('answers 400 Env to a category update instead of unpinning it', async () => {
    const id = await createCategory('Stays pinned', '&pinned=true')
    const res = await app.req(`/api/categories/${id}`, { method: 'PUT', cookie, ...garbage })
    expect(await json(res, 400)).toMatchObject({ operation: 'update_category', success: 0 })
    expect((await json(await app.req(`/api/categories/${id}`, { cookie }))).pinned).toBe('1')
  })

  it('answers 400 Env to create calls and to a bookmark name', async () => {
    let res = await app.req('/api/tankoubons', { method: 'PUT', cookie, ...garbage })
    expect(await json(res, 400)).toMatchObject({ operation: 'create_tankoubon', success: 0 })
    res = await app.req('/api/categories', { method: 'PUT', cookie, ...garbage })
    expect(await json(res, 400)).toMatchObject({ operation: 'create_category', success: 0 })
    const a = seedArchive(app.deps)
    expect(
      (await app.req(`/api/archives/${a.id}/bookmarks/1`, { method: 'POST', cookie })).status,
    ).toBe(200)
    await app.req(`/api/archives/${a.id}/bookmarks/1/name`, {
      method: 'PUT',
      cookie,
      json: { name: 'Kept' },
    })
    res = await app.req(`/api/archives/${a.id}/bookmarks/1/name`, {
      method: 'PUT',
      cookie,
      json: [1],
    })
    expect(await json(res, 400)).toMatchObject({ operation: 'rename_bookmark', success: 0 })
    // `name` is required: only an explicit null (or blank) clears it.
    res = await app.req(`/api/archives/${a.id}/bookmarks/1/name`, {
      method: 'PUT',
      cookie,
      json: {},
    })
    expect(await json(res, 400)).toMatchObject({ operation: 'rename_bookmark', success: 0 })
    expect((await json(await app.req(`/api/archives/${a.id}/bookmarks`, { cookie })))[0].name).toBe(
      'Kept',
    )
  })

  it('answers 400 Env to a Tankoubon update whose metadata is not an object', async () => {
    const id = await createTank('Metadata stays')
    for (const metadata of ['"x"', 'null', '[1]', '5']) {
      const res = await app.req(`/api/tankoubons/${id}`, {
        method: 'PUT',
        cookie,
        body: `{"metadata": ${metadata}}`,
        headers: { 'content-type': 'application/json' },
      })
      expect(await json(res, 400)).toMatchObject({ operation: 'update_tankoubon', success: 0 })
    }
    expect((await json(await app.req(`/api/tankoubons/${id}`, { cookie }))).name).toBe(
      'Metadata stays',
    )
  })

  it('names a missing page instead of printing undefined', async () => {
    const id = await createTank('No page')
    const res = await app.req(`/api/tankoubons/${id}/thumbnail`, { method: 'PUT', cookie })
    const body = await json(res, 400)
    expect(body.error).toContain('Missing page')
    expect(body.error).not.toContain('undefined')
  })
})

describe('GET /api/tankoubons/:id?include_full_data (LANraragi 0.9.7x clients)', () => {
  it('answers the full response for a true value and the plain Tankoubon otherwise', async () => {
    const [a, b] = [seedArchive(app.deps, { pagecount: 2 }), seedArchive(app.deps)]
    const id = await createTank('Full on request', [a.id, b.id])
    const full = await json(await app.req(`/api/tankoubons/${id}?include_full_data=1`, { cookie }))
    expect(full).toMatchObject({ total: 2, filtered: 2 })
    expect(full.result.id).toBe(id)
    expect(full.result.full_data.map((x: Wire) => x.arcid)).toEqual([a.id, b.id])
    expect(full.result.full_data[0].pagecount).toBe(2)
    const paged = await json(
      await app.req(`/api/tankoubons/${id}?include_full_data=true&page=0`, { cookie }),
    )
    expect(paged.result.full_data).toHaveLength(2)
    for (const off of ['false', '0', '']) {
      const plain = await json(
        await app.req(`/api/tankoubons/${id}?include_full_data=${off}`, { cookie }),
      )
      expect(plain).toEqual({
        id,
        name: 'Full on request',
        summary: '',
        tags: '',
        progress: 0,
        archives: [a.id, b.id],
      })
    }
  })
})

describe('category member messages', () => {
  it('name the archive title or Tankoubon name and the category, as LANraragi does', async () => {
    const a = seedArchive(app.deps, { title: 'Some Title' })
    const tank = await createTank('Some Series')
    const id = await createCategory('Shelf')
    let body = await json(await app.req(`/api/categories/${id}/${a.id}`, { method: 'PUT', cookie }))
    expect(body).toEqual({
      operation: 'add_to_category',
      success: 1,
      successMessage: 'Added "Some Title" to category "Shelf"!',
    })
    body = await json(await app.req(`/api/categories/${id}/${tank}`, { method: 'PUT', cookie }))
    expect(body.successMessage).toBe('Added "Some Series" to category "Shelf"!')
    body = await json(await app.req(`/api/categories/${id}/${a.id}`, { method: 'DELETE', cookie }))
    expect(body).toEqual({
      operation: 'remove_from_category',
      success: 1,
      successMessage: 'Removed "Some Title" from category "Shelf"!',
    })
  })
})

describe('Tankoubon bookmarks after a member is deleted', () => {
  it('renumbers the later members and drops the deleted one', async () => {
    const a = seedArchive(app.deps, { pagecount: 3 })
    const b = seedArchive(app.deps, { pagecount: 2 })
    const c = seedArchive(app.deps, { pagecount: 4 })
    const id = await createTank('Renumbered', [a.id, b.id, c.id])
    // Global 3 = last page of A, 4 = first page of B, 6 = first page of C.
    for (const page of [3, 4, 6]) {
      expect(
        (await app.req(`/api/tankoubons/${id}/bookmarks/${page}`, { method: 'POST', cookie }))
          .status,
      ).toBe(200)
    }
    const before = await json(await app.req(`/api/tankoubons/${id}/bookmarks`, { cookie }))
    expect(before.map((m: Wire) => [m.page, m.archive_id, m.local_page])).toEqual([
      [3, a.id, 3],
      [4, b.id, 1],
      [6, c.id, 1],
    ])
    expect((await app.req(`/api/archives/${b.id}`, { method: 'DELETE', cookie })).status).toBe(200)
    const after = await json(await app.req(`/api/tankoubons/${id}/bookmarks`, { cookie }))
    expect(after.map((m: Wire) => [m.page, m.archive_id, m.local_page])).toEqual([
      [3, a.id, 3],
      [4, c.id, 1],
    ])
    // The deleted member leaves the list (as in LANraragi): global 5 is now C's second page.
    const res = await app.req(`/api/tankoubons/${id}/bookmarks/5`, { method: 'POST', cookie })
    expect(await json(res)).toMatchObject({ operation: 'add_bookmark', archive_id: c.id, page: 2 })
    expect((await json(await app.req(`/api/tankoubons/${id}`, { cookie }))).archives).toEqual([
      a.id,
      c.id,
    ])
  })
})
