// GET /api/search/tags: tag suggestions from a typo-tolerant index of the tag vocabulary (prefix
// matches first, then tags within a typo), each with its archive count in the caller's scope.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { startTestServer, type TestServer } from '../helpers/server.ts'
import { expectAppError } from '../helpers/expect.ts'
import { seedArchive, seedCategory } from '../helpers/seed.ts'

type Suggestion = { tag: string; weight: number }

let app: TestServer
let cookie: string
const id: Record<string, string> = {}

async function tags(query: string, as: 'admin' | 'guest' = 'admin'): Promise<Suggestion[]> {
  const res = await app.req(`/api/search/tags?${query}`, as === 'admin' ? { cookie } : {})
  expect({ query, status: res.status }).toEqual({ query, status: 200 })
  return (await res.json()) as Suggestion[]
}
const names = (list: Suggestion[]) => list.map((s) => s.tag)

beforeAll(async () => {
  app = await startTestServer()
  await app.idle()
  cookie = await app.login()
  const seed = (key: string, tags: string) => (id[key] = seedArchive(app.deps, { tags }).id)
  seed('n1', 'series:naruto, character:naruto uzumaki, group:narumi, date_added:1700000000')
  seed('n2', 'series:naruto, group:narumi, artist:maru')
  seed('n3', 'series:naruto, group:narumi, artist:maru, series:one piece')
  seed('n4', 'group:narumi, artist:maru, artist:narumi, series:narutaru')
  seed('m1', 'artist:maru, artist:maruyama')
  seed('m2', 'artist:maru')
  seed('l1', 'language:english, language:japanese, character:long hair')
  seed('l2', 'language:english, misc:art book')
  seed('hidden', 'series:secret naruto, series:naruto')
  const cap = Array.from({ length: 120 }, (_, i) => `misc:cap ${String(i).padStart(3, '0')}`)
  seed('cap', cap.join(', '))
  seedCategory(app.deps, { members: [id.n1!, id.n4!], visibleToGuest: true })
  app.deps.settings.update({ guest_mode: true })
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

describe('GET /api/search/tags', () => {
  it('answers tags whose value starts with the query, with their archive counts', async () => {
    const found = await tags('q=naru')
    // Equal matches and equal weights: in code-unit order of the tag.
    expect(found.slice(0, 2)).toEqual([
      { tag: 'group:narumi', weight: 4 },
      { tag: 'series:naruto', weight: 4 },
    ])
    const prefixed = [
      'series:naruto',
      'character:naruto uzumaki',
      'group:narumi',
      'artist:narumi',
      'series:narutaru',
    ]
    expect(names(found).slice(0, 5).sort()).toEqual(prefixed.sort())
    // A word inside the value counts as well: `uzu` finds the character.
    expect(names(await tags('q=uzu'))).toEqual(['character:naruto uzumaki'])
    // Case and surrounding blanks do not matter.
    expect(await tags('q=%20NARUTO%20')).toEqual(await tags('q=naruto'))
  })

  it('puts prefix matches before typo matches, however common those are', async () => {
    // artist:maru is on five archives, one typo away from `naru`: after every naru* tag.
    const found = names(await tags('q=naru'))
    expect(found).toContain('artist:maru')
    expect(found.indexOf('artist:maru')).toBeGreaterThan(found.indexOf('series:narutaru'))
    expect(found.indexOf('artist:maru')).toBeGreaterThan(found.indexOf('artist:narumi'))
    // With enough prefix matches, no typo match is added.
    expect(names(await tags('q=naru&count=3'))).not.toContain('artist:maru')
  })

  it('tolerates a typo', async () => {
    expect(names(await tags('q=narto'))).toContain('series:naruto')
    expect(names(await tags('q=uzumaku'))).toEqual(['character:naruto uzumaki'])
    expect(await tags('q=zzzzzz')).toEqual([])
  })

  it('looks only in the namespace a query names, and lists a namespace by use', async () => {
    expect(names(await tags('q=series:naru'))).toEqual([
      'series:naruto',
      'series:narutaru',
      'series:secret naruto',
    ])
    expect(names(await tags('q=artist:naru'))).toEqual(['artist:narumi', 'artist:maru'])
    expect(await tags('q=series:')).toEqual([
      { tag: 'series:naruto', weight: 4 },
      { tag: 'series:narutaru', weight: 1 },
      { tag: 'series:one piece', weight: 1 },
      { tag: 'series:secret naruto', weight: 1 },
    ])
    expect(await tags('q=nosuchnamespace:naru')).toEqual([])
  })

  it('lists a namespace by its name, or the start of it, before values', async () => {
    // A namespace's name alone lists its tags, most used first.
    expect(names(await tags('q=artist'))).toEqual([
      'artist:maru',
      'artist:maruyama',
      'artist:narumi',
    ])
    expect(names(await tags('q=ser')).slice(0, 4)).toEqual([
      'series:naruto',
      'series:narutaru',
      'series:one piece',
      'series:secret naruto',
    ])
    expect(names(await tags('q=chara')).sort()).toEqual([
      'character:long hair',
      'character:naruto uzumaki',
    ])
    // `lang` is language, not a typo of `long`.
    const lang = await tags('q=lang')
    expect(lang.slice(0, 2)).toEqual([
      { tag: 'language:english', weight: 2 },
      { tag: 'language:japanese', weight: 1 },
    ])
    // The start of a namespace's name before `:` narrows as the whole name does.
    expect(names(await tags('q=lang:eng'))).toEqual(['language:english'])
    expect(names(await tags('q=lang:'))).toEqual(['language:english', 'language:japanese'])
    // Values still come: half the answer when a namespace's tags would fill it.
    expect(names(await tags('q=art&count=4'))).toEqual([
      'artist:maru',
      'artist:maruyama',
      'misc:art book',
      'artist:narumi',
    ])
  })

  it('puts the more common tag first among equal matches', async () => {
    // Same value in two namespaces: group:narumi (4 archives) before artist:narumi (1).
    const found = await tags('q=narumi')
    expect(found.slice(0, 2)).toEqual([
      { tag: 'group:narumi', weight: 4 },
      { tag: 'artist:narumi', weight: 1 },
    ])
    const maru = await tags('q=maru')
    expect(maru[0]).toEqual({ tag: 'artist:maru', weight: 5 })
    expect(maru).toContainEqual({ tag: 'artist:maruyama', weight: 1 })
  })

  it('never suggests date_added, one timestamp per archive', async () => {
    expect(await tags('q=1700000000')).toEqual([])
    expect(await tags('q=date_added:')).toEqual([])
  })

  it('answers 10 tags by default, count of them when asked, at most 100', async () => {
    expect(await tags('q=cap')).toHaveLength(10)
    expect(await tags('q=cap&count=3')).toHaveLength(3)
    expect(await tags('q=cap&count=100')).toHaveLength(100)
    const capped = await tags('q=cap&count=1000')
    expect(capped).toHaveLength(100)
    expect(new Set(names(capped)).size).toBe(100)
    expect(capped.every((s) => s.tag.startsWith('misc:cap ') && s.weight === 1)).toBe(true)
  })

  it("scopes a guest's tags and weights to guest-visible archives", async () => {
    // The guest sees n1 and n4 only.
    const guest = await tags('q=naru', 'guest')
    expect(guest).toContainEqual({ tag: 'series:naruto', weight: 1 })
    expect(guest).toContainEqual({ tag: 'group:narumi', weight: 2 })
    expect(names(guest)).not.toContain('series:secret naruto')
    expect(await tags('q=secret', 'guest')).toEqual([])
    expect(await tags('q=one piece', 'guest')).toEqual([])
    expect(names(await tags('q=secret'))).toEqual(['series:secret naruto'])
    // Equal weights: in code-unit order of the tag.
    expect(await tags('q=series:', 'guest')).toEqual([
      { tag: 'series:narutaru', weight: 1 },
      { tag: 'series:naruto', weight: 1 },
    ])
  })

  it('follows tag edits: new tags appear, weights move, unused tags leave', async () => {
    expect(await tags('q=blea')).toEqual([])
    const edit = async (key: string, tags: string) => {
      const res = await app.req(`/api/archives/${id[key]}/metadata`, {
        method: 'PUT',
        cookie,
        json: { tags },
      })
      expect(res.status).toBe(200)
    }
    await edit('m1', 'series:bleach')
    expect(await tags('q=blea')).toEqual([{ tag: 'series:bleach', weight: 1 }])
    expect(await tags('q=bleech')).toEqual([{ tag: 'series:bleach', weight: 1 }])
    // m1 carried the only artist:maruyama and one of the artist:maru.
    expect(names(await tags('q=maruyama'))).not.toContain('artist:maruyama')
    expect((await tags('q=maru'))[0]).toEqual({ tag: 'artist:maru', weight: 4 })
    await edit('m2', 'series:bleach')
    expect(await tags('q=bleach')).toEqual([{ tag: 'series:bleach', weight: 2 }])
  })

  it('refuses a missing, blank or overlong q and a bad count with a 400', async () => {
    for (const query of [
      '',
      'q=',
      'q=%20%20',
      `q=${'a'.repeat(201)}`,
      'q=a&count=0',
      'q=a&count=x',
    ]) {
      const res = await app.req(`/api/search/tags?${query}`, { cookie })
      await expectAppError(res, 400, 'suggest_tags')
    }
  })
})
