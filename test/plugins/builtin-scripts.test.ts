// The script built-ins (plugins/script/source-finder.ts, folder-to-category.ts) and the library
// grant behind `ctx.library`, through the real server and sandbox over a content folder with
// subfolders; hostile arguments to the grant fail the call inside the plugin, not the server.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { makeCbz } from '../helpers/fixtures.ts'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'

/** A script plugin that throws hostile arguments at the grant and reports each refusal. */
const PROBE = `export function pluginInfo() {
  return { name: 'Probe', author: 't', description: 'd', version: '1', type: 'script' }
}
export async function runScript(ctx) {
  const tries = {
    tooMany: () => ctx.library.addToCategory('SET_1', Array.from({ length: 10001 }, () => 'x')),
    notList: () => ctx.library.addToCategory('SET_1', 'abc'),
    noName: () => ctx.library.createCategory('   '),
    longName: () => ctx.library.createCategory('n'.repeat(300)),
    badCursor: () => ctx.library.archives({ after: '../etc' }),
    bigPage: () => ctx.library.archives({ limit: 5000 }),
    longFilter: () => ctx.library.search('a'.repeat(5000)),
    unknownCategory: () => ctx.library.deleteCategory('SET_9999999999'),
    badId: () => ctx.library.deleteCategory({ id: 1 }),
  }
  const refused = {}
  for (const [name, call] of Object.entries(tries)) {
    try { await call(); refused[name] = null } catch (err) { refused[name] = String(err.message) }
  }
  const slashed = await ctx.library.createCategory('a/../b')
  return { data: { refused, slashed } }
}`

const NOT_SCRIPT = `export function pluginInfo() {
  return { name: 'Peek', author: 't', description: 'd', version: '1', type: 'metadata' }
}
export function execMetadata(ctx) { return { tags: 'library:' + typeof ctx.library } }`

let app: TestServer
let cookie: string

beforeAll(async () => {
  app = await startTestServer({
    async beforeStart(content) {
      for (const dir of ['Series A', 'deep/Series B'])
        mkdirSync(join(content, dir), { recursive: true })
      await makeCbz(join(content, 'Series A', 'Vol 1.cbz'), { pages: 1 })
      await makeCbz(join(content, 'Series A', 'Vol 2.cbz'), { pages: 2 })
      await makeCbz(join(content, 'deep/Series B', 'B 1.cbz'), { pages: 3 })
      await makeCbz(join(content, 'Loose.cbz'), { pages: 4 })
      const custom = join(content, '..', 'data', 'plugins', 'custom')
      mkdirSync(join(custom, 'script'), { recursive: true })
      mkdirSync(join(custom, 'metadata'), { recursive: true })
      writeFileSync(join(custom, 'script', 'probe.ts'), PROBE)
      writeFileSync(join(custom, 'metadata', 'peek.ts'), NOT_SCRIPT)
    },
  })
  await app.idle()
  cookie = await app.login()
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

const use = (plugin: string, arg?: string, id?: string) =>
  app.json(
    `/api/plugins/use?plugin=${plugin}` +
      (arg === undefined ? '' : `&arg=${encodeURIComponent(arg)}`) +
      (id ? `&id=${id}` : ''),
    { method: 'POST', cookie },
  )

async function idOf(title: string): Promise<string> {
  const { body } = await app.json(`/api/search?filter=${encodeURIComponent(`"${title}"`)}`, {
    cookie,
  })
  return body.data[0].arcid
}

async function categories(): Promise<Wire[]> {
  return (await app.json('/api/categories', { cookie })).body as Wire[]
}

async function makeCategory(fields: Record<string, string>): Promise<string> {
  const form = new FormData()
  for (const [k, v] of Object.entries(fields)) form.set(k, v)
  const res = await app.json('/api/categories', { method: 'PUT', cookie, body: form })
  return res.body.category_id
}

describe('script/source-finder', () => {
  it('finds the archive by its source tag, whatever the scheme, www. and trailing slash', async () => {
    const id = await idOf('Vol 2')
    const edit = { tags: 'artist:x, source:https://www.Example.com/g/123/abc/' }
    const put = await app.json(`/api/archives/${id}/metadata`, {
      method: 'PUT',
      cookie,
      json: edit,
    })
    expect(put.status).toBe(200)
    for (const url of [
      'example.com/g/123/abc',
      'http://example.com/g/123/abc',
      'https://www.example.com/g/123/abc/',
    ]) {
      const { status, body } = await use('script/source-finder', url)
      expect({ url, status, body }).toMatchObject({
        url,
        status: 200,
        body: { success: 1, type: 'script', data: { total: 1, id } },
      })
    }
  })

  it('answers an error for an unknown URL, a longer one, and no URL', async () => {
    for (const [arg, error] of [
      ['https://example.com/g/999', 'URL not found in database.'],
      ['https://example.com/g/123/abc/more', 'URL not found in database.'],
      ['', 'No URL specified!'],
    ]) {
      const { status, body } = await use('script/source-finder', arg)
      expect({ status, body }).toMatchObject({ status: 200, body: { success: 0, error } })
    }
  })
})

describe('script/folder-to-category', () => {
  it('makes a static category per subfolder with the archives directly in it', async () => {
    const { status, body } = await use('script/folder-to-category')
    expect(status).toBe(200)
    expect(body.data.created_categories).toHaveLength(2)
    const byName = Object.fromEntries((await categories()).map((c) => [c.name, c]))
    expect(byName['Series A'].archives.sort()).toEqual(
      [await idOf('Vol 1'), await idOf('Vol 2')].sort(),
    )
    expect(byName['Series B'].archives).toEqual([await idOf('B 1')])
    expect(byName['Loose']).toBeUndefined()
  })

  it('fills the same categories again on a second run instead of making new ones', async () => {
    const { body } = await use('script/folder-to-category')
    expect(body.data).toMatchObject({ created_categories: [], added: 0 })
    expect(body.data.updated_categories).toHaveLength(2)
    expect((await categories()).map((c) => c.name).sort()).toEqual(['Series A', 'Series B'])
  })

  it('deletes the static categories first when asked, keeping dynamic ones and every archive', async () => {
    const stale = await makeCategory({ name: 'Stale' })
    await makeCategory({ name: 'Dynamic', search: 'artist:x' })
    const settings = await app.json('/api/plugins/settings?namespace=script/folder-to-category', {
      method: 'PUT',
      cookie,
      json: { customargs: [true] },
    })
    expect(settings.status).toBe(200)
    const { body } = await use('script/folder-to-category')
    expect(body.data.created_categories).toHaveLength(2)
    const names = (await categories()).map((c) => c.name).sort()
    expect(names).toEqual(['Dynamic', 'Series A', 'Series B'])
    expect(names).not.toContain(stale)
    const all = await app.json('/api/search?start=-1', { cookie })
    expect(all.body.recordsTotal).toBe(4)
  })

  it('runs as a queued job (delete_old still on: made again, filled again)', async () => {
    const { body } = await app.json('/api/plugins/queue?plugin=script/folder-to-category', {
      method: 'POST',
      cookie,
    })
    const job = await app.deps.jobs.waitFor(body.job)
    expect(job.state).toBe('finished')
    expect(JSON.parse(job.result!)).toMatchObject({
      plugin: 'script/folder-to-category',
      type: 'script',
      data: { added: 3, updated_categories: [] },
    })
  })
})

describe('ctx.library', () => {
  it('refuses hostile arguments inside the plugin, with reasons, and the server goes on', async () => {
    const { status, body } = await use('custom/script/probe')
    expect(status).toBe(200)
    const refused = body.data.refused as Record<string, string | null>
    expect(refused).toMatchObject({
      tooMany: expect.stringContaining('at most 10000 ids'),
      notList: expect.stringContaining('ids must be a list'),
      noName: expect.stringContaining('must not be empty'),
      longName: expect.stringContaining('longer than 255'),
      badCursor: expect.stringContaining('after must be'),
      bigPage: expect.stringContaining('limit must be'),
      longFilter: expect.stringContaining('longer than 4096'),
      unknownCategory: expect.stringContaining('does not exist'),
      badId: expect.stringContaining('must be a string'),
    })
    // A name with path separators is only a name.
    const made = (await categories()).find((c) => c.id === body.data.slashed)
    expect(made?.name).toBe('a/../b')
    expect((await app.json('/api/info', { cookie })).status).toBe(200)
  })

  it('lists folders relative to the content folder, never an absolute path', async () => {
    const script = `export function pluginInfo() {
      return { name: 'Lister', author: 't', description: 'd', version: '1', type: 'script' }
    }
    export async function runScript(ctx) { return { data: await ctx.library.archives({ limit: 2 }) } }`
    const form = new FormData()
    form.set('file', new File([script], 'lister.ts'))
    const up = await app.json('/api/plugins/upload', { method: 'POST', cookie, body: form })
    expect(up.status).toBe(200)
    const { body } = await use('custom/script/lister')
    expect(body.data.archives).toHaveLength(2)
    expect(typeof body.data.next).toBe('string')
    const folders = body.data.archives.map((a: Wire) => a.folder)
    for (const folder of folders) expect(folder.startsWith('/')).toBe(false)
    expect(JSON.stringify(body)).not.toContain(app.contentDir)
  })

  it('is not given to other plugin types', async () => {
    const { body } = await use('custom/metadata/peek', undefined, await idOf('Vol 1'))
    expect(body.data.new_tags).toBe('library:undefined')
  })
})
