// Guest scope in the grouped view: a Tankoubon stands in for its members only where the guest may
// see the Tankoubon itself; visible members of a hidden Tankoubon are listed on their own.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { seedArchive, seedCategory, seedTankoubon } from '../helpers/seed.ts'

let app: TestServer
const id: Record<string, string> = {}
let hiddenTank: string
let shownTank: string

async function anonymous(path: string) {
  const res = await app.req(path)
  expect(res.status).toBe(200)
  return (await res.json()) as any
}

beforeAll(async () => {
  app = await startTestServer()
  await app.idle()
  const seed = (title: string, tags = '') => (id[title] = seedArchive(app.deps, { title, tags }).id)
  seed('Alpha', 'artist:otomo')
  seed('Beta', 'artist:otomo')
  seed('Gamma')
  seed('Delta')
  seed('Hidden')
  hiddenTank = seedTankoubon(app.deps, { name: 'Secret Tank', members: [id.Alpha!, id.Beta!] })
  // Gamma sits in a hidden and a visible Tankoubon: the visible one stands in for it.
  seedTankoubon(app.deps, { name: 'Other Secret', members: [id.Gamma!] })
  shownTank = seedTankoubon(app.deps, { name: 'Shown Tank', members: [id.Gamma!, id.Delta!] })
  seedCategory(app.deps, { members: [id.Alpha!, id.Beta!, shownTank], visibleToGuest: true })
  app.deps.settings.update({ guest_mode: true })
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

describe('GET /api/search as a guest, grouped', () => {
  it('lists visible members of a hidden Tankoubon on their own', async () => {
    const body = await anonymous('/api/search')
    expect(body.data.map((a: Wire) => a.title)).toEqual(['Alpha', 'Beta', 'Shown Tank'])
    expect(body.recordsTotal).toBe(3)
    expect(body.recordsFiltered).toBe(3)
    const flat = await anonymous('/api/search?groupby_tanks=false')
    expect(flat.data.map((a: Wire) => a.title)).toEqual(['Alpha', 'Beta', 'Delta', 'Gamma'])
  })

  it('answers ids, random and suggest from the same view', async () => {
    const ids = await anonymous('/api/search/ids?start=-1')
    expect(ids.data).toEqual([id.Alpha, id.Beta, shownTank])
    expect(ids.data).not.toContain(hiddenTank)
    const random = await anonymous('/api/search/random?count=10&groupby_tanks=true')
    expect(random.data.map((a: Wire) => a.arcid).sort()).toEqual(
      [id.Alpha, id.Beta, shownTank].sort(),
    )
    const suggest = await anonymous('/api/search/suggest?filter=a')
    expect(suggest.data.map((s: Wire) => s.arcid)).toEqual([id.Alpha, id.Beta, shownTank])
  })

  it('keeps a static category working for a visible member of a hidden Tankoubon', async () => {
    const category = seedCategory(app.deps, { members: [hiddenTank] })
    const body = await anonymous(`/api/search/ids?category=${category}`)
    expect(body.data).toEqual([id.Alpha, id.Beta])
  })

  it('counts the visible members in the tag statistics', async () => {
    const stats = await anonymous('/api/database/stats')
    expect(stats).toContainEqual({ namespace: 'artist', text: 'otomo', weight: 2 })
  })

  it('still folds members behind the Tankoubon for a signed-in admin', async () => {
    const cookie = await app.login()
    const res = await app.req('/api/search/ids?start=-1', { cookie })
    const body = (await res.json()) as Wire
    expect(body.data).toContain(hiddenTank)
    expect(body.data).not.toContain(id.Alpha)
  })
})
