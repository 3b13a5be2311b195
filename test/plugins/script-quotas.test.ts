// Script plugins' library writes (issue 25, §4): a per-run quota with a clear error, and the
// Favorites category (the bookmark button's, docs/collections.md) out of a script's reach.
// Through the real server and sandbox, with the first-install Favorites category on.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'

/** Does what its one-shot argument says and answers what happened, refusals included. */
const WRECKER = `export function pluginInfo() {
    return { name: 'Wrecker', version: '1', type: 'script' }
  }
  export async function runScript(ctx) {
    const lib = ctx.library
    const errors = []
    const attempt = async (fn) => { try { return await fn() } catch (e) { errors.push(e.message) } }
    if (ctx.oneshot === 'delete-all') {
      let deleted = 0
      for (const c of await lib.categories())
        if (await attempt(() => lib.deleteCategory(c.id))) deleted++
      return { data: { deleted, errors } }
    }
    if (ctx.oneshot === 'fill-favorites') {
      const favorites = (await lib.categories()).find((c) => c.protected)
      await attempt(() => lib.addToCategory(favorites.id, ['0'.repeat(40)]))
      return { data: { favorites: favorites.name, errors } }
    }
    if (ctx.oneshot === 'spam') {
      let created = 0
      while (created < 2000 && errors.length === 0)
        if (await attempt(() => lib.createCategory('spam ' + created))) created++
      return { data: { created, errors } }
    }
    if (ctx.oneshot === 'add-many') {
      const id = await lib.createCategory('bulk')
      const ids = Array.from({ length: 10000 }, (_, i) => String(i).padStart(40, '0'))
      let calls = 0
      while (calls < 20 && errors.length === 0)
        if ((await attempt(() => lib.addToCategory(id, ids))) !== undefined) calls++
      return { data: { calls, errors } }
    }
    return { error: 'unknown action' }
  }`

let app: TestServer
let cookie: string

beforeAll(async () => {
  app = await startTestServer({
    config: { favoritesCategory: true },
    beforeStart(contentDir) {
      const folder = join(contentDir, '..', 'data', 'plugins', 'custom', 'script')
      mkdirSync(folder, { recursive: true })
      writeFileSync(join(folder, 'wrecker.ts'), WRECKER)
    },
  })
  cookie = await app.login()
})

afterAll(() => app?.[Symbol.asyncDispose]())

async function run(plugin: string, arg: string): Promise<Wire> {
  const { status, body } = await app.json(
    `/api/plugins/use?plugin=${plugin}&arg=${encodeURIComponent(arg)}`,
    { method: 'POST', cookie },
  )
  expect(status).toBe(200)
  expect(body).toMatchObject({ success: 1 })
  return body.data
}

const categoryNames = async () =>
  ((await app.json<Wire[]>('/api/categories', { cookie })).body as Wire[]).map((c) => c.name)

describe('script plugins and the library', () => {
  it('cannot delete or fill Favorites; other categories they may delete', async () => {
    for (const name of ['keep me', 'or not'])
      await app.json(`/api/categories?name=${encodeURIComponent(name)}`, {
        method: 'PUT',
        cookie,
      })
    expect((await categoryNames()).sort()).toEqual(['keep me', 'or not', '🔖 Favorites'].sort())
    const wrecked = await run('custom/script/wrecker', 'delete-all')
    expect(wrecked.deleted).toBe(2)
    expect(wrecked.errors).toEqual([
      expect.stringContaining('is the Favorites category: script plugins may not change it'),
    ])
    expect(await categoryNames()).toEqual(['🔖 Favorites'])
    const filled = await run('custom/script/wrecker', 'fill-favorites')
    expect(filled).toMatchObject({ favorites: '🔖 Favorites' })
    expect(filled.errors[0]).toContain('is the Favorites category')
  })

  it('keeps Favorites through the built-in Subfolders to Categories with delete_old', async () => {
    await app.json('/api/categories?name=old', { method: 'PUT', cookie })
    await app.json('/api/plugins/settings?namespace=script/folder-to-category', {
      method: 'PUT',
      cookie,
      json: { customargs: [true] },
    })
    await run('script/folder-to-category', '')
    expect(await categoryNames()).toEqual(['🔖 Favorites'])
  })

  it('stops creating categories at the quota of a run, with a clear error', async () => {
    const spam = await run('custom/script/wrecker', 'spam')
    expect(spam.created).toBe(200)
    expect(spam.errors).toEqual([
      "ctx.library.createCategory: this run's quota of 200 categories created is used up (200 so far); run the script again to go on",
    ])
  }, 60_000)

  it('stops adding archives past 100,000 ids a run; each run has its own quota', async () => {
    // This run creates a category first: the previous run's used-up quota is not its own.
    const added = await run('custom/script/wrecker', 'add-many')
    expect(added.calls).toBe(10)
    expect(added.errors[0]).toContain('quota of 100000 archives added to categories is used up')
  }, 60_000)
})
