import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { findArchive } from '../../src/db/repos/archives.repo.ts'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { randomArchiveId, seedArchive } from '../helpers/seed.ts'

let app: TestServer
let cookie: string

const form = (fields: Record<string, string>) => new URLSearchParams(fields)

async function createTank(name = 'Series', members: string[] = []): Promise<string> {
  const res = await app.req('/api/tankoubons', { method: 'PUT', cookie, body: form({ name }) })
  expect(res.status).toBe(200)
  const id = ((await res.json()) as Wire).tankoubon_id as string
  for (const member of members) {
    expect(
      (await app.req(`/api/tankoubons/${id}/${member}`, { method: 'PUT', cookie })).status,
    ).toBe(200)
  }
  return id
}

async function getTank(id: string): Promise<Wire> {
  const res = await app.req(`/api/tankoubons/${id}`, { cookie })
  expect(res.status).toBe(200)
  return (await res.json()) as Wire
}

/** Holds the id's write lock until the returned release is called (another writer at work). */
function holdLock(id: string): () => void {
  let release!: () => void
  const held = new Promise<void>((resolve) => (release = resolve))
  void app.deps.locks.withLock(id, () => held)
  return release
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

describe('PUT /api/tankoubons', () => {
  it('creates a Tankoubon from a form body', async () => {
    const res = await app.req('/api/tankoubons', {
      method: 'PUT',
      cookie,
      body: form({ name: 'Volume set' }),
    })
    expect(res.status).toBe(200)
    const body = (await res.json()) as Wire
    expect(body).toMatchObject({ operation: 'create_tankoubon', success: 1 })
    expect(body.tankoubon_id).toMatch(/^TANK_[0-9]{10}$/)
    expect(await getTank(body.tankoubon_id)).toEqual({
      id: body.tankoubon_id,
      name: 'Volume set',
      summary: '',
      tags: '',
      progress: 0,
      archives: [],
    })
  })

  it('renames with tankid from a multipart body', async () => {
    const id = await createTank('Old name')
    const body = new FormData()
    body.set('name', 'New name')
    body.set('tankid', id)
    const res = await app.req('/api/tankoubons', { method: 'PUT', cookie, body })
    expect(res.status).toBe(200)
    expect(((await res.json()) as Wire).tankoubon_id).toBe(id)
    expect((await getTank(id)).name).toBe('New name')
  })

  it('answers 400 Env without a name or for an unknown tankid', async () => {
    let res = await app.req('/api/tankoubons', { method: 'PUT', cookie, body: form({}) })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({
      operation: 'create_tankoubon',
      success: 0,
      error: 'Tankoubon name not specified.',
    })
    const body = form({ name: 'x', tankid: 'TANK_0000000001' })
    res = await app.req('/api/tankoubons', { method: 'PUT', cookie, body })
    expect(res.status).toBe(400)
  })

  it('gives concurrent creations distinct ids', async () => {
    const ids = await Promise.all(Array.from({ length: 10 }, (_, i) => createTank(`Burst ${i}`)))
    expect(new Set(ids).size).toBe(10)
  })

  it('answers 423 when renaming a locked Tankoubon', async () => {
    const id = await createTank('Busy')
    const release = holdLock(id)
    const res = await app.req('/api/tankoubons', {
      method: 'PUT',
      cookie,
      body: form({ name: 'x', tankid: id }),
    })
    release()
    expect(res.status).toBe(423)
    expect((await getTank(id)).name).toBe('Busy')
  })
})

describe('GET /api/tankoubons', () => {
  it('pages by archives_per_page; page=-1 returns all', async () => {
    await createTank('Paging')
    app.deps.settings.update({ archives_per_page: 2 })
    try {
      const all = (await (await app.req('/api/tankoubons?page=-1', { cookie })).json()) as Wire
      expect(all.result.length).toBe(all.total)
      expect(all.filtered).toBe(all.total)
      const first = (await (await app.req('/api/tankoubons', { cookie })).json()) as Wire
      const second = (await (await app.req('/api/tankoubons?page=1', { cookie })).json()) as Wire
      expect(first.result.map((t: Wire) => t.id)).toEqual(
        all.result.slice(0, 2).map((t: Wire) => t.id),
      )
      expect(second.result.map((t: Wire) => t.id)).toEqual(
        all.result.slice(2, 4).map((t: Wire) => t.id),
      )
      expect(first.total).toBe(all.total)
    } finally {
      app.deps.settings.update({ archives_per_page: 100 })
    }
  })

  it('answers 400 Env for a page that is not an integer', async () => {
    const res = await app.req('/api/tankoubons?page=abc', { cookie })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ operation: 'get_tankoubon_list', success: 0 })
  })
})

describe('GET /api/tankoubons/:id', () => {
  it('answers 400 Env for an unknown or malformed id', async () => {
    for (const id of ['TANK_0000000002', 'TANK_x']) {
      const res = await app.req(`/api/tankoubons/${id}`, { cookie })
      expect(res.status).toBe(400)
      expect(await res.json()).toMatchObject({ operation: 'get_tankoubon', success: 0 })
    }
  })
})

describe('GET /api/tankoubons/:id/full', () => {
  it('returns full_data in member order, paged', async () => {
    const [a, b, c] = [1, 2, 3].map((n) => seedArchive(app.deps, { title: `Chapter ${n}` }))
    const id = await createTank('Full', [c!.id, a!.id, b!.id])
    const res = await app.req(`/api/tankoubons/${id}/full`, { cookie })
    expect(res.status).toBe(200)
    const body = (await res.json()) as Wire
    expect(body).toMatchObject({ total: 3, filtered: 3 })
    expect(body.result.archives).toEqual([c!.id, a!.id, b!.id])
    expect(body.result.full_data.map((x: Wire) => x.title)).toEqual([
      'Chapter 3',
      'Chapter 1',
      'Chapter 2',
    ])
    expect(body.result.full_data[0]).toMatchObject({ arcid: c!.id, pagecount: 10, isnew: 'true' })
    app.deps.settings.update({ archives_per_page: 2 })
    try {
      const page1 = (await (
        await app.req(`/api/tankoubons/${id}/full?page=1`, { cookie })
      ).json()) as Wire
      expect(page1).toMatchObject({ total: 3, filtered: 1 })
      expect(page1.result.full_data.map((x: Wire) => x.arcid)).toEqual([b!.id])
    } finally {
      app.deps.settings.update({ archives_per_page: 100 })
    }
  })

  it('omits a deleted member from full_data and renumbers global pages', async () => {
    const a = seedArchive(app.deps, { pagecount: 3 })
    const b = seedArchive(app.deps, { pagecount: 2 })
    const c = seedArchive(app.deps, { pagecount: 4 })
    const id = await createTank('Loses a member', [a.id, b.id, c.id])
    expect((await app.req(`/api/archives/${b.id}`, { method: 'DELETE', cookie })).status).toBe(200)
    const full = (await (await app.req(`/api/tankoubons/${id}/full`, { cookie })).json()) as Wire
    expect(full.result.full_data.map((x: Wire) => x.arcid)).toEqual([a.id, c.id])
    // Like LANraragi, a deleted archive also leaves the member list itself.
    expect(full.result.archives).toEqual([a.id, c.id])
    // Global page 4 was B's first page; it is now C's first page.
    const res = await app.req(`/api/tankoubons/${id}/progress/4`, { method: 'PUT', cookie })
    expect(res.status).toBe(200)
    expect(findArchive(app.deps.db, c.id)!.progress).toBe(1)
    expect(
      (await app.req(`/api/tankoubons/${id}/progress/8`, { method: 'PUT', cookie })).status,
    ).toBe(400)
  })

  it('answers 400 Env for an unknown Tankoubon', async () => {
    const res = await app.req('/api/tankoubons/TANK_0000000003/full', { cookie })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ operation: 'get_tankoubon_full', success: 0 })
  })
})

describe('PUT /api/tankoubons/:id', () => {
  it('updates only the keys sent', async () => {
    const [a, b] = [seedArchive(app.deps), seedArchive(app.deps)]
    const id = await createTank('Keep me', [a.id, b.id])
    let res = await app.req(`/api/tankoubons/${id}`, {
      method: 'PUT',
      cookie,
      json: { metadata: { summary: 'A summary', tags: 'artist:x,  series:y, artist:x' } },
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({
      operation: 'update_tankoubon',
      success: 1,
      successMessage: 'Updated tankoubon "Keep me"!',
    })
    expect(await getTank(id)).toMatchObject({
      name: 'Keep me',
      summary: 'A summary',
      tags: 'artist:x, series:y',
      archives: [a.id, b.id],
    })
    res = await app.req(`/api/tankoubons/${id}`, {
      method: 'PUT',
      cookie,
      json: { archives: [b.id, a.id] },
    })
    expect(res.status).toBe(200)
    expect(await getTank(id)).toMatchObject({
      name: 'Keep me',
      summary: 'A summary',
      archives: [b.id, a.id],
    })
  })

  it('answers 400 Env for an unknown archive in the list and changes nothing', async () => {
    const a = seedArchive(app.deps)
    const id = await createTank('Strict', [a.id])
    const res = await app.req(`/api/tankoubons/${id}`, {
      method: 'PUT',
      cookie,
      json: { archives: [a.id, randomArchiveId()], metadata: { name: 'Renamed' } },
    })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ operation: 'update_tankoubon', success: 0 })
    expect(await getTank(id)).toMatchObject({ name: 'Strict', archives: [a.id] })
  })

  it('answers 400 Env for a malformed body', async () => {
    const id = await createTank('Body')
    const res = await app.req(`/api/tankoubons/${id}`, {
      method: 'PUT',
      cookie,
      json: { archives: 'nope' },
    })
    expect(res.status).toBe(400)
  })

  it('answers 423 while the Tankoubon is locked', async () => {
    const id = await createTank('Locked')
    const release = holdLock(id)
    const res = await app.req(`/api/tankoubons/${id}`, {
      method: 'PUT',
      cookie,
      json: { metadata: { name: 'x' } },
    })
    release()
    expect(res.status).toBe(423)
    expect(await res.json()).toMatchObject({ operation: 'update_tankoubon', success: 0 })
    expect((await getTank(id)).name).toBe('Locked')
  })
})

describe('PUT /api/tankoubons/:id/:archive', () => {
  it('appends at the final position, once', async () => {
    const [a, b] = [
      seedArchive(app.deps, { title: 'First' }),
      seedArchive(app.deps, { title: 'Second' }),
    ]
    const id = await createTank('Appends', [a.id])
    const res = await app.req(`/api/tankoubons/${id}/${b.id}`, { method: 'PUT', cookie })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      operation: 'add_to_tankoubon',
      success: 1,
      successMessage: 'Added "Second" to tankoubon "Appends"!',
    })
    expect((await app.req(`/api/tankoubons/${id}/${a.id}`, { method: 'PUT', cookie })).status).toBe(
      200,
    )
    expect((await getTank(id)).archives).toEqual([a.id, b.id])
  })

  it('keeps every member of 20 concurrent appends', async () => {
    const archives = Array.from({ length: 20 }, () => seedArchive(app.deps).id)
    const id = await createTank('Crowded')
    const statuses = await Promise.all(
      archives.map(async (archive) => {
        const res = await app.req(`/api/tankoubons/${id}/${archive}`, { method: 'PUT', cookie })
        return res.status
      }),
    )
    expect(statuses.every((s) => s === 200)).toBe(true)
    expect(new Set((await getTank(id)).archives)).toEqual(new Set(archives))
  })

  it('answers 400 Env for an unknown archive or Tankoubon', async () => {
    const id = await createTank('Nope')
    let res = await app.req(`/api/tankoubons/${id}/${randomArchiveId()}`, { method: 'PUT', cookie })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ operation: 'add_to_tankoubon', success: 0 })
    res = await app.req(`/api/tankoubons/TANK_0000000004/${seedArchive(app.deps).id}`, {
      method: 'PUT',
      cookie,
    })
    expect(res.status).toBe(400)
  })

  it('answers 423 while the Tankoubon is locked', async () => {
    const id = await createTank('Locked append')
    const release = holdLock(id)
    const res = await app.req(`/api/tankoubons/${id}/${seedArchive(app.deps).id}`, {
      method: 'PUT',
      cookie,
    })
    release()
    expect(res.status).toBe(423)
    expect((await getTank(id)).archives).toEqual([])
  })
})

describe('DELETE /api/tankoubons/:id/:archive', () => {
  it('removes a member, keeping the others in order', async () => {
    const [a, b, c] = [seedArchive(app.deps), seedArchive(app.deps), seedArchive(app.deps)]
    const id = await createTank('Removal', [a.id, b.id, c.id])
    const res = await app.req(`/api/tankoubons/${id}/${b.id}`, { method: 'DELETE', cookie })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ operation: 'remove_from_tankoubon', success: 1 })
    expect((await getTank(id)).archives).toEqual([a.id, c.id])
  })

  it('is a 200 no-op for an archive that is not a member, a 400 for one that does not exist', async () => {
    const id = await createTank('No such member')
    let res = await app.req(`/api/tankoubons/${id}/${seedArchive(app.deps).id}`, {
      method: 'DELETE',
      cookie,
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ operation: 'remove_from_tankoubon', success: 1 })
    res = await app.req(`/api/tankoubons/${id}/${randomArchiveId()}`, { method: 'DELETE', cookie })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ operation: 'remove_from_tankoubon', success: 0 })
  })

  it('answers 423 while the Tankoubon is locked', async () => {
    const a = seedArchive(app.deps)
    const id = await createTank('Locked removal', [a.id])
    const release = holdLock(id)
    const res = await app.req(`/api/tankoubons/${id}/${a.id}`, { method: 'DELETE', cookie })
    release()
    expect(res.status).toBe(423)
    expect((await getTank(id)).archives).toEqual([a.id])
  })
})

describe('DELETE /api/tankoubons/:id', () => {
  it('deletes the Tankoubon and keeps its archives', async () => {
    const a = seedArchive(app.deps)
    const id = await createTank('Doomed', [a.id])
    const res = await app.req(`/api/tankoubons/${id}`, { method: 'DELETE', cookie })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ operation: 'delete_tankoubon', success: 1 })
    expect((await app.req(`/api/tankoubons/${id}`, { cookie })).status).toBe(400)
    expect(findArchive(app.deps.db, a.id)).toBeDefined()
    const again = await app.req(`/api/tankoubons/${id}`, { method: 'DELETE', cookie })
    expect(again.status).toBe(400)
  })

  it('answers 423 while the Tankoubon is locked', async () => {
    const id = await createTank('Locked delete')
    const release = holdLock(id)
    const res = await app.req(`/api/tankoubons/${id}`, { method: 'DELETE', cookie })
    release()
    expect(res.status).toBe(423)
    expect(await res.json()).toMatchObject({ operation: 'delete_tankoubon', success: 0 })
    expect((await getTank(id)).name).toBe('Locked delete')
  })
})

describe('GET /api/archives/:id/tankoubons', () => {
  it('lists the Tankoubons holding the archive', async () => {
    const a = seedArchive(app.deps)
    const first = await createTank('Holder 1', [a.id])
    const second = await createTank('Holder 2', [a.id])
    await createTank('Not a holder')
    const res = await app.req(`/api/archives/${a.id}/tankoubons`, { cookie })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      operation: 'find_arc_tankoubons',
      success: 1,
      tankoubons: [first, second].sort(),
    })
  })

  it('answers 400 Env for a malformed archive id', async () => {
    const res = await app.req('/api/archives/abc/tankoubons', { cookie })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ operation: 'find_arc_tankoubons', success: 0 })
  })
})
