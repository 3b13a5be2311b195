import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { seedArchive } from '../helpers/seed.ts'

let app: TestServer
let cookie: string
let visibleCategory: string
let hiddenCategory: string
let shown: string
let hidden: string
let member: string
let tank: string
let hiddenTank: string

const form = (fields: Record<string, string>) => new URLSearchParams(fields)

async function put(path: string, body?: URLSearchParams): Promise<Wire> {
  const res = await app.req(path, { method: 'PUT', cookie, ...(body ? { body } : {}) })
  expect(res.status).toBe(200)
  return (await res.json()) as Wire
}

async function anonymous(path: string): Promise<{ status: number; body: Wire }> {
  const res = await app.req(path)
  return { status: res.status, body: (await res.json()) as Wire }
}

beforeAll(async () => {
  app = await startTestServer()
  // Seeded rows have no file: the first scan must be over, or it hides them as vanished.
  await app.idle()
  cookie = await app.login()
  ;[shown, hidden, member] = [
    seedArchive(app.deps).id,
    seedArchive(app.deps).id,
    seedArchive(app.deps).id,
  ]
  visibleCategory = (
    await put('/api/categories', form({ name: 'For guests', visible_to_guest: 'true' }))
  ).category_id
  hiddenCategory = (await put('/api/categories', form({ name: 'Private' }))).category_id
  tank = (await put('/api/tankoubons', form({ name: 'Guest series' }))).tankoubon_id
  hiddenTank = (await put('/api/tankoubons', form({ name: 'Private series' }))).tankoubon_id
  await put(`/api/tankoubons/${tank}/${member}`)
  await put(`/api/tankoubons/${hiddenTank}/${hidden}`)
  await put(`/api/categories/${visibleCategory}/${shown}`)
  await put(`/api/categories/${visibleCategory}/${tank}`)
  await put(`/api/categories/${hiddenCategory}/${hidden}`)
  for (const id of [shown, hidden, member]) {
    expect(
      (await app.req(`/api/archives/${id}/bookmarks/1`, { method: 'POST', cookie })).status,
    ).toBe(200)
  }
  const res = await app.req('/api/settings', { method: 'PUT', cookie, json: { guest_mode: true } })
  expect(res.status).toBe(200)
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

describe('guest mode through categories', () => {
  it('lists only the categories visible to guests', async () => {
    const { status, body } = await anonymous('/api/categories')
    expect(status).toBe(200)
    expect((body as Wire[]).map((c) => c.id)).toEqual([visibleCategory])
    expect((await anonymous(`/api/categories/${hiddenCategory}`)).status).toBe(400)
    expect((await anonymous(`/api/categories/${visibleCategory}`)).body.archives).toEqual([
      shown,
      tank,
    ])
  })

  it('shows a Tankoubon listed in a visible category, with its members, and hides the others', async () => {
    const list = await anonymous('/api/tankoubons')
    expect(list.status).toBe(200)
    expect(list.body.result.map((t: Wire) => t.id)).toEqual([tank])
    const full = await anonymous(`/api/tankoubons/${tank}/full`)
    expect(full.body.result.full_data.map((a: Wire) => a.arcid)).toEqual([member])
    const denied = await anonymous(`/api/tankoubons/${hiddenTank}`)
    expect(denied.status).toBe(400)
    expect(denied.body).toMatchObject({ operation: 'get_tankoubon', success: 0 })
  })

  it('answers 404 for an archive outside the scope and scopes its collections', async () => {
    for (const area of ['categories', 'bookmarks', 'tankoubons']) {
      const { status, body } = await anonymous(`/api/archives/${hidden}/${area}`)
      expect(status).toBe(404)
      expect(body.success).toBe(0)
    }
    expect(
      (await anonymous(`/api/archives/${shown}/categories`)).body.categories.map((c: Wire) => c.id),
    ).toEqual([visibleCategory])
    expect((await anonymous(`/api/archives/${member}/tankoubons`)).body.tankoubons).toEqual([tank])
    expect((await anonymous(`/api/archives/${shown}/bookmarks`)).body).toHaveLength(1)
  })

  it('drops bookmarks of archives outside the scope from the aggregated list', async () => {
    const { status, body } = await anonymous('/api/bookmarks')
    expect(status).toBe(200)
    expect(body.entries.map((e: Wire) => e.archive.arcid).sort()).toEqual([member, shown].sort())
  })

  it('keeps writes closed to guests', async () => {
    const res = await app.req('/api/categories', { method: 'PUT', body: form({ name: 'guest' }) })
    expect(res.status).toBe(401)
    const add = await app.req(`/api/archives/${shown}/bookmarks/2`, { method: 'POST' })
    expect(add.status).toBe(401)
  })

  it('shows everything to a logged-in caller', async () => {
    const res = await app.req('/api/categories', { cookie })
    expect(((await res.json()) as Wire[]).map((c) => c.id).sort()).toEqual(
      [hiddenCategory, visibleCategory].sort(),
    )
  })
})
