// Maintenance scripts through the real server (and the Tankoubon script's naming seam directly):
// subfolders-to-categories, subfolders-to-tankoubons, repair-mojibake.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { subfoldersToTankoubons } from '../../src/domain/database/subfolders-to-tankoubons.ts'
import { makeCbz } from '../helpers/fixtures.ts'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'

let app: TestServer
let cookie: string
const ids: Record<string, string> = {}

beforeAll(async () => {
  app = await startTestServer({
    beforeStart: async (dir) => {
      mkdirSync(join(dir, 'Series A', 'Extras'), { recursive: true })
      mkdirSync(join(dir, 'Series B'))
      mkdirSync(join(dir, 'Empty'))
      await makeCbz(join(dir, 'Loose.cbz'))
      await makeCbz(join(dir, 'Series A', 'Vol 10.cbz'))
      await makeCbz(join(dir, 'Series A', 'Vol 2.cbz'))
      await makeCbz(join(dir, 'Series A', 'Extras', 'Omake.cbz'))
      await makeCbz(join(dir, 'Series B', 'Only.cbz'))
    },
  })
  cookie = await app.login()
  await app.idle()
  for (const a of (await app.json('/api/archives', { cookie })).body as Wire[])
    ids[a.filename] = a.arcid
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

const post = (script: string, init: { cookie?: string; token?: string } = { cookie }) =>
  app.json(`/api/database/scripts/${script}`, { method: 'POST', ...init })

describe('POST /api/database/scripts/subfolders-to-categories', () => {
  it('makes one static category per folder holding archives directly, with elapsed_ms', async () => {
    const res = await post('subfolders-to-categories')
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      operation: 'subfolders_to_categories',
      success: 1,
      created: 3,
    })
    expect(Number.isInteger(res.body.elapsed_ms)).toBe(true)
    expect(res.body.elapsed_ms).toBeGreaterThanOrEqual(0)
    const categories = (await app.json('/api/categories', { cookie })).body as Wire[]
    const byName = Object.fromEntries(categories.map((c) => [c.name, c]))
    expect(Object.keys(byName).sort()).toEqual(['Extras', 'Series A', 'Series B'])
    expect(byName['Series A'].archives).toEqual([ids['Vol 2'], ids['Vol 10']])
    expect(byName['Extras'].archives).toEqual([ids.Omake])
    expect(byName['Series B'].search).toBe('')
  })

  it('creates nothing twice when run again', async () => {
    const res = await post('subfolders-to-categories')
    expect(res.body).toMatchObject({ created: 0, updated: 0 })
    expect((await app.json('/api/categories', { cookie })).body).toHaveLength(3)
  })

  it('answers the exact wire keys in order', async () => {
    const res = await post('subfolders-to-categories')
    expect(Object.keys(res.body)).toEqual([
      'operation',
      'success',
      'created',
      'updated',
      'categories',
      'elapsed_ms',
    ])
    for (const category of res.body.categories as Wire[])
      expect(Object.keys(category)).toEqual(['id', 'name', 'added'])
  })

  it('is refused to a guest token', async () => {
    const token = await app.json('/api/tokens', {
      method: 'POST',
      cookie,
      json: { name: 'guest', role: 'guest' },
    })
    expect((await post('subfolders-to-categories', { token: token.body.data.token })).status).toBe(
      403,
    )
  })
})

describe('POST /api/database/scripts/subfolders-to-tankoubons', () => {
  it('makes one Tankoubon per first-level folder holding everything beneath it', async () => {
    const res = await post('subfolders-to-tankoubons')
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      operation: 'subfolders_to_tankoubons',
      success: 1,
      created: 2,
    })
    expect(typeof res.body.elapsed_ms).toBe('number')
    const tanks = (await app.json('/api/tankoubons', { cookie })).body.result as Wire[]
    const byName = Object.fromEntries(tanks.map((t) => [t.name, t]))
    expect(Object.keys(byName).sort()).toEqual(['Series A', 'Series B'])
    // Natural path order; the nested folder's archive included, no Tankoubon of its own.
    expect(byName['Series A'].archives).toEqual([ids.Omake, ids['Vol 2'], ids['Vol 10']])
    // Without a language model: the raw folder name and no author tag.
    expect(byName['Series A'].tags).toBe('')
  })

  it('never deduplicates: a second run makes the same Tankoubons again', async () => {
    const res = await post('subfolders-to-tankoubons')
    expect(res.body.created).toBe(2)
    const tanks = (await app.json('/api/tankoubons', { cookie })).body.result as Wire[]
    expect(tanks.filter((t) => t.name === 'Series A')).toHaveLength(2)
  })

  it('answers the exact wire keys in order', async () => {
    const res = await post('subfolders-to-tankoubons')
    expect(Object.keys(res.body)).toEqual([
      'operation',
      'success',
      'created',
      'tankoubons',
      'elapsed_ms',
    ])
    expect(res.body.tankoubons.length).toBeGreaterThan(0)
    for (const tank of res.body.tankoubons as Wire[])
      expect(Object.keys(tank)).toEqual(['id', 'name', 'archives', 'tags'])
  })

  it('takes a namer when one is given, and keeps the folder name when it fails', async () => {
    const named = await subfoldersToTankoubons(app.deps, async (folder) =>
      folder.folder === 'Series A'
        ? { name: 'The A Saga', authorTag: 'artist:someone' }
        : Promise.reject(new Error('provider down')),
    )
    const byFolder = Object.fromEntries(named.tankoubons.map((t) => [t.archives, t]))
    expect(byFolder[3]).toMatchObject({ name: 'The A Saga', tags: 'artist:someone' })
    expect(byFolder[1]).toMatchObject({ name: 'Series B', tags: '' })
  })
})

describe('POST /api/database/scripts/repair-mojibake', () => {
  it('repairs stored titles, tags and names, and leaves clean text alone', async () => {
    const put = await app.req(
      `/api/archives/${ids.Loose}/metadata?${new URLSearchParams({
        title: 'CafÃ© au lait',
        tags: 'artist:JosÃ©, plain',
      })}`,
      { method: 'PUT', cookie },
    )
    expect(put.status).toBe(200)
    await app.req(`/api/archives/${ids.Only}/metadata?title=${encodeURIComponent('café')}`, {
      method: 'PUT',
      cookie,
    })
    await app.req('/api/categories', {
      method: 'PUT',
      cookie,
      body: new URLSearchParams({ name: 'NaÃ¯ve' }),
    })
    const res = await post('repair-mojibake')
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      operation: 'repair_mojibake',
      success: 1,
      archives: 1,
      categories: 1,
    })
    const meta = (await app.json(`/api/archives/${ids.Loose}/metadata`, { cookie })).body
    expect(meta.title).toBe('Café au lait')
    expect(meta.tags).toContain('artist:José, plain')
    expect((await app.json(`/api/archives/${ids.Only}/metadata`, { cookie })).body.title).toBe(
      'café',
    )
    const names = ((await app.json('/api/categories', { cookie })).body as Wire[]).map(
      (c) => c.name,
    )
    expect(names).toContain('Naïve')
    // The search index heard of the repair.
    const found = await app.json(`/api/search?filter=${encodeURIComponent('artist:josé$')}`, {
      cookie,
    })
    expect(found.body.data.map((a: Wire) => a.arcid)).toEqual([ids.Loose])
    expect((await post('repair-mojibake')).body).toMatchObject({ archives: 0, categories: 0 })
  })

  it('repairs tag by tag: a genuine accented tag does not keep a damaged one beside it', async () => {
    const put = await app.req(
      `/api/archives/${ids.Only}/metadata?${new URLSearchParams({
        tags: 'artist:café, series:NaÃ¯ve',
      })}`,
      { method: 'PUT', cookie },
    )
    expect(put.status).toBe(200)
    expect((await post('repair-mojibake')).body).toMatchObject({ archives: 1 })
    const meta = (await app.json(`/api/archives/${ids.Only}/metadata`, { cookie })).body
    expect(meta.tags).toContain('artist:café, series:Naïve')
  })
})
