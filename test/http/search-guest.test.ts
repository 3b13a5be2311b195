import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { seedArchive, seedCategory, seedTankoubon } from '../helpers/seed.ts'
import { createSearchIndex } from '../../src/search/index.ts'
import { createIndexSource } from '../../src/domain/search/index-source.ts'

let app: TestServer
let cookie: string
const id: Record<string, string> = {}
let tank: string

async function anonymous(path: string) {
  const res = await app.req(path)
  const text = await res.text()
  return { status: res.status, body: (text ? JSON.parse(text) : null) as any }
}

beforeAll(async () => {
  app = await startTestServer()
  await app.idle()
  cookie = await app.login()
  const seed = (title: string, tags: string) =>
    (id[title] = seedArchive(app.deps, { title, tags }).id)
  seed('Shown Static', 'female:a')
  seed('Shown Dynamic', 'artist:visible, female:b')
  seed('Hidden', 'artist:hidden, female:c')
  seed('Member One', 'artist:member')
  seed('Member Two', 'artist:member, female:d')
  tank = seedTankoubon(app.deps, {
    name: 'Shown Tank',
    members: [id['Member One']!, id['Member Two']!],
  })
  seedCategory(app.deps, { members: [id['Shown Static']!, tank], visibleToGuest: true })
  seedCategory(app.deps, { search: 'artist:visible', visibleToGuest: true })
  seedCategory(app.deps, { members: [id.Hidden!], visibleToGuest: false })
  app.deps.settings.update({ guest_mode: true })
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

describe('guest scope on search endpoints', () => {
  it('limits /api/search and /api/search/ids to guest-visible categories', async () => {
    const { status, body } = await anonymous('/api/search')
    expect(status).toBe(200)
    expect(body.data.map((a: Wire) => a.title)).toEqual([
      'Shown Dynamic',
      'Shown Static',
      'Shown Tank',
    ])
    expect(body.recordsTotal).toBe(3)
    const flat = await anonymous('/api/search/ids?groupby_tanks=false')
    expect([...flat.body.data].sort()).toEqual(
      [id['Shown Static'], id['Shown Dynamic'], id['Member One'], id['Member Two']].sort(),
    )
    const admin = await app.req('/api/search', { cookie })
    expect(((await admin.json()) as Wire).recordsTotal).toBe(4)
  })

  it('applies the scope to archives, random, suggest, stats and untagged', async () => {
    const archives = await anonymous('/api/search/archives?filter=hidden')
    expect(archives.body.data).toEqual([])
    const random = await anonymous('/api/search/random?count=20&groupby_tanks=true')
    const picked = random.body.data.map((a: Wire) => a.title).sort()
    expect(picked).toEqual(['Shown Dynamic', 'Shown Static', 'Shown Tank'])
    // Random does not group unless asked (LANraragi): the Tankoubon's members come instead.
    const flat = await anonymous('/api/search/random?count=20')
    expect(flat.body.data.map((a: Wire) => a.title).sort()).toEqual([
      'Member One',
      'Member Two',
      'Shown Dynamic',
      'Shown Static',
    ])
    const suggest = await anonymous('/api/search/suggest?filter=i')
    expect(suggest.body.data.map((s: Wire) => s.title)).not.toContain('Hidden')
    const stats = await anonymous('/api/database/stats')
    expect(stats.body.map((s: Wire) => s.text)).not.toContain('hidden')
    expect(stats.body).toContainEqual({ namespace: 'female', text: 'd', weight: 1 })
    const untagged = await anonymous('/api/archives/untagged')
    expect(untagged.body).toEqual([id['Member One']])
  })

  it('follows a category change once the category writer clears the cache', async () => {
    seedCategory(app.deps, { members: [id.Hidden!], visibleToGuest: true })
    const { body } = await anonymous('/api/search?filter=hidden')
    expect(body.data.map((a: Wire) => a.title)).toEqual(['Hidden'])
  })

  it('refuses the admin-only cache purge to an anonymous visitor', async () => {
    const res = await app.req('/api/search/cache', { method: 'DELETE' })
    expect(res.status).toBe(401)
  })
})

describe('before the index is built', () => {
  it('answers a bare 204 on every search endpoint', async () => {
    // Swaps in a fresh, unbuilt index; this server is not used afterwards.
    app.deps.search = createSearchIndex(createIndexSource(app.deps.db))
    for (const path of [
      '/api/search',
      '/api/search/ids',
      '/api/search/archives',
      '/api/search/random',
      '/api/search/suggest?filter=x',
      '/api/database/stats',
      '/api/archives/untagged',
    ]) {
      const res = await app.req(path, { cookie })
      expect({ path, status: res.status }).toEqual({ path, status: 204 })
      expect(await res.text()).toBe('')
    }
  })
})
