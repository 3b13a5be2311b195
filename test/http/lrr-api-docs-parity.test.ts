// LANraragi's own API documentation (tools/Documentation/api-documentation/*.md and the
// openapi.yaml its OPDS and plugin pages point to), endpoint by endpoint: the JSON type of every
// field its response examples show (`"isnew": "true"`, `"pinned": "0"`, `"job": 123`), and the
// answers where Tankobun differed: ToC, progress and upload messages, bookmark-link refusals,
// Tankoubon member edits, download_url's form body, Shinobu's rescan and the OPDS item and page.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { makeCbz } from '../helpers/fixtures.ts'

type Kind = 'string' | 'number' | 'boolean' | 'array' | 'object' | 'null'

let app: TestServer
let cookie: string
/** Archive ids by title: Alpha (3 pages, in a category and a Tankoubon) and Beta (2 pages). */
let ids: Record<string, string>
let category: string
let tank: string

const form = (fields: Record<string, string>) => new URLSearchParams(fields)

function kindOf(value: unknown): Kind {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value as Kind
}

/** The JSON type of each field the expectation names (a missing field reads as 'undefined'). */
function expectKinds(body: Wire, expected: Record<string, Kind>) {
  const actual = Object.fromEntries(Object.keys(expected).map((k) => [k, kindOf(body[k])]))
  expect(actual).toEqual(expected)
}

async function call(method: string, path: string, status = 200, init: RequestInit = {}) {
  const res = await app.json(path, { method, cookie, ...init })
  expect({ method, path, status: res.status }).toEqual({ method, path, status })
  return res.body
}

beforeAll(async () => {
  app = await startTestServer({
    beforeStart: async (content) => {
      await makeCbz(join(content, 'Alpha.cbz'), { pages: 3 })
      await makeCbz(join(content, 'Beta.zip'), { pages: 2, seed: 7 })
    },
  })
  await app.idle()
  cookie = await app.login()
  ids = await app.idsByTitle(cookie)
  category = (await call('PUT', '/api/categories', 200, { body: form({ name: 'Shelf' }) }))
    .category_id
  await call('PUT', `/api/categories/${category}/${ids.Alpha}`)
  tank = (await call('PUT', '/api/tankoubons', 200, { body: form({ name: 'Series' }) }))
    .tankoubon_id
  await call('PUT', `/api/tankoubons/${tank}/${ids.Alpha}`)
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

const ARCHIVE: Record<string, Kind> = {
  arcid: 'string',
  isnew: 'string',
  extension: 'string',
  pagecount: 'number',
  progress: 'number',
  tags: 'string',
  lastreadtime: 'number',
  title: 'string',
  filename: 'string',
  size: 'number',
  summary: 'string',
}
const CATEGORY: Record<string, Kind> = {
  archives: 'array',
  id: 'string',
  name: 'string',
  pinned: 'string',
  search: 'string',
}
const ENV: Record<string, Kind> = { operation: 'string', success: 'number' }
const JOB: Record<string, Kind> = { ...ENV, job: 'number' }

describe('archive-api.md: field types of the documented answers', () => {
  it('lists, reads and edits archives with the example types', async () => {
    const list = (await call('GET', '/api/archives')) as unknown as Wire[]
    for (const archive of list) expectKinds(archive, ARCHIVE)
    expect(list.map((a) => a.isnew)).toEqual(['true', 'true'])
    expectKinds(await call('GET', `/api/archives/${ids.Beta}/metadata`), ARCHIVE)
    const untagged = (await call('GET', '/api/archives/untagged')) as unknown as unknown[]
    expect(untagged.map(kindOf)).toEqual(['string', 'string'])

    const cats = await call('GET', `/api/archives/${ids.Alpha}/categories`)
    expectKinds(cats, { ...ENV, categories: 'array' })
    expect(cats.operation).toBe('find_arc_categories')
    expectKinds(cats.categories[0], CATEGORY)
    expect(cats.categories[0].pinned).toBe('0')
    const tanks = await call('GET', `/api/archives/${ids.Alpha}/tankoubons`)
    expect(tanks).toEqual({ operation: 'find_arc_tankoubons', success: 1, tankoubons: [tank] })

    const files = await call('GET', `/api/archives/${ids.Beta}/files`)
    expectKinds(files, { job: 'number', pages: 'array' })
    const cleared = await call('DELETE', `/api/archives/${ids.Beta}/isnew`)
    expect(cleared).toEqual({ operation: 'clear_new', success: 1, id: ids.Beta })
    const progress = await call('PUT', `/api/archives/${ids.Beta}/progress/2`)
    expectKinds(progress, { ...ENV, id: 'string', page: 'number', lastreadtime: 'number' })
    expect(progress).toMatchObject({ operation: 'update_progress', page: 2 })
    const metadata = await call('PUT', `/api/archives/${ids.Beta}/metadata?tags=artbook`)
    expect(metadata).toMatchObject({ operation: 'update_metadata', success: 1 })
    const cover = await call('PUT', `/api/archives/${ids.Beta}/thumbnail?page=2`)
    expectKinds(cover, { ...ENV, new_thumbnail: 'string' })
  })

  it('queues thumbnails as 202 {job} and answers 200 {message} once they exist', async () => {
    // Covers are made after the scan: page 3's thumbnail is the one not made yet.
    const thumb = await call(
      'GET',
      `/api/archives/${ids.Alpha}/thumbnail?no_fallback=true&page=3`,
      202,
    )
    expectKinds(thumb, JOB)
    expect(thumb.operation).toBe('serve_thumbnail')
    const queued = await call('POST', `/api/archives/${ids.Alpha}/files/thumbnails`, 202)
    expectKinds(queued, JOB)
    await app.jobsDone()
    const done = await call('POST', `/api/archives/${ids.Alpha}/files/thumbnails`)
    expect(done).toEqual({
      operation: 'generate_page_thumbnails',
      success: 1,
      message: 'No job queued, all thumbnails already exist.',
    })
  })

  it('words ToC edits as LANraragi does', async () => {
    const add = await call('PUT', `/api/archives/${ids.Alpha}/toc?page=2&title=Chapter`)
    expect(add).toEqual({
      operation: 'add_toc',
      success: 1,
      successMessage: 'Added ToC entry for page 2.',
    })
    const remove = await call('DELETE', `/api/archives/${ids.Alpha}/toc?page=2`)
    expect(remove).toEqual({
      operation: 'remove_toc',
      success: 1,
      successMessage: 'Removed ToC entry for page 2.',
    })
  })

  it("refuses progress with the documentation's messages", async () => {
    for (const page of ['0', '4', 'two', '1.5']) {
      const body = await call('PUT', `/api/archives/${ids.Alpha}/progress/${page}`, 400)
      expect(body).toEqual({
        operation: 'update_progress',
        success: 0,
        error: 'Invalid progress value.',
      })
    }
    app.deps.settings.update({ server_tracks_progress: false })
    try {
      const body = await call('PUT', `/api/archives/${ids.Alpha}/progress/1`, 400)
      expect(body.error).toBe('Server-side Progress Tracking is disabled on this instance.')
    } finally {
      app.deps.settings.update({ server_tracks_progress: true })
    }
  })

  it('answers an unknown id with the metadata read of LANraragi', async () => {
    const body = await call('GET', `/api/archives/${'0'.repeat(40)}/metadata`, 400)
    expect(body).toEqual({
      operation: 'metadata',
      success: 0,
      error: "This ID doesn't exist on the server.",
    })
  })

  it('uploads as documented: {id}, and 415/417 in its words', async () => {
    const bytes = await Bun.file(join(app.contentDir, 'Beta.zip')).bytes()
    const copy = await Bun.file(await makeCbz(join(app.root, 'gamma.zip'), { seed: 11 })).bytes()
    const upload = (name: string, data: Uint8Array, fields: Record<string, string> = {}) => {
      const body = new FormData()
      body.set('file', new File([data as Uint8Array<ArrayBuffer>], name))
      for (const [key, value] of Object.entries(fields)) body.set(key, value)
      return app.json('/api/archives/upload', { method: 'PUT', cookie, body })
    }
    const mkv = await upload('Spirited Away.mkv', bytes)
    expect(mkv).toMatchObject({ status: 415 })
    expect(mkv.body.error).toBe('Unsupported File Extension (Spirited Away.mkv)')
    const actual = new Bun.CryptoHasher('sha1').update(copy).digest('hex')
    const announced = '92cfceb39d57d914ed8b14d0e37643de0797ae56'
    const mismatch = await upload('Gamma.zip', copy, { file_checksum: announced })
    expect(mismatch).toMatchObject({ status: 417 })
    expect(mismatch.body.error).toBe(`Checksum mismatch: expected ${announced}, got ${actual}.`)
    const placed = await upload('Gamma.zip', copy, { file_checksum: actual })
    expect(placed.status).toBe(200)
    expectKinds(placed.body, { ...ENV, id: 'string' })
    const duplicate = await upload('Delta.zip', copy)
    expect(duplicate).toMatchObject({ status: 409, body: { success: 0, id: placed.body.id } })
    const deleted = await call('DELETE', `/api/archives/${placed.body.id}`)
    expect(deleted).toEqual({
      operation: 'delete_archive',
      success: 1,
      id: placed.body.id,
      filename: 'Gamma.zip',
    })
  })
})

describe('search-api.md and database-api.md', () => {
  it('answers searches, stats and maintenance with the example types', async () => {
    const search = await call('GET', '/api/search?start=-1')
    expectKinds(search, { data: 'array', recordsFiltered: 'number', recordsTotal: 'number' })
    for (const hit of search.data) expectKinds(hit, { arcid: 'string', isnew: 'string' })
    const random = await call('GET', '/api/search/random?count=1')
    expectKinds(random, { data: 'array', recordsTotal: 'number' })
    expect(random.recordsTotal).toBe(1)
    expect(await call('DELETE', '/api/search/cache')).toEqual({
      operation: 'clear_cache',
      success: 1,
    })
    const stats = (await call('GET', '/api/database/stats')) as unknown as Wire[]
    for (const tag of stats)
      expectKinds(tag, { namespace: 'string', text: 'string', weight: 'number' })
    expect(stats).toContainEqual({ namespace: '', text: 'artbook', weight: 1 })
    const clean = await call('POST', '/api/database/clean')
    expectKinds(clean, { ...ENV, deleted: 'number', unlinked: 'number' })
    const backup = await call('GET', '/api/database/backup')
    expectKinds(backup, { archives: 'array', categories: 'array', tankoubons: 'array' })
    expectKinds(backup.archives[0], {
      arcid: 'string',
      title: 'string',
      tags: 'string',
      summary: 'string',
      filename: 'string',
    })
    expectKinds(backup.categories[0], {
      archives: 'array',
      catid: 'string',
      name: 'string',
      search: 'string',
    })
    expectKinds(backup.tankoubons[0], { archives: 'array', tankid: 'string', name: 'string' })
  })
})

describe('category-api.md', () => {
  it('answers categories with pinned as a string and the documented envelopes', async () => {
    const all = (await call('GET', '/api/categories')) as unknown as Wire[]
    for (const c of all) expectKinds(c, CATEGORY)
    expectKinds(await call('GET', `/api/categories/${category}`), CATEGORY)
    const updated = await call('PUT', `/api/categories/${category}`, 200, {
      body: form({ name: 'Shelf', pinned: '1' }),
    })
    expect(updated).toEqual({ operation: 'update_category', success: 1, category_id: category })
    expect((await call('GET', `/api/categories/${category}`)).pinned).toBe('1')
    const link = await call('PUT', `/api/categories/bookmark_link/${category}`)
    expect(link).toEqual({ operation: 'update_bookmark_link', success: 1, category_id: category })
    expect(await call('GET', '/api/categories/bookmark_link')).toMatchObject({
      category_id: category,
    })
    expect(await call('DELETE', '/api/categories/bookmark_link')).toMatchObject({
      category_id: category,
    })
  })

  it('names the category id in bookmark-link refusals, as documented', async () => {
    const dynamic = (
      await call('PUT', '/api/categories', 200, { body: form({ name: 'Dyn', search: 'x' }) })
    ).category_id
    const cases: [string, number, string][] = [
      ['SET_1', 400, 'Input category ID is invalid.'],
      ['SET_0000000001', 404, 'Category does not exist!'],
      [dynamic, 400, 'Cannot link bookmark to a dynamic category.'],
    ]
    for (const [id, status, error] of cases) {
      const body = await call('PUT', `/api/categories/bookmark_link/${id}`, status)
      expect(body).toEqual({
        operation: 'update_bookmark_link',
        success: 0,
        error,
        category_id: id,
      })
    }
  })
})

describe('tankoubon-api.md', () => {
  it('lists and reads Tankoubons with the example types', async () => {
    const list = await call('GET', '/api/tankoubons')
    expectKinds(list, { filtered: 'number', result: 'array', total: 'number' })
    const entry: Record<string, Kind> = {
      archives: 'array',
      id: 'string',
      name: 'string',
      summary: 'string',
      tags: 'string',
    }
    expectKinds(list.result[0], entry)
    const full = await call('GET', `/api/tankoubons/${tank}?include_full_data=1`)
    expectKinds(full, { filtered: 'number', result: 'object', total: 'number' })
    expectKinds(full.result, { ...entry, full_data: 'array' })
    expectKinds(full.result.full_data[0], ARCHIVE)
  })

  it('words member edits of an unknown Tankoubon or archive as LANraragi does', async () => {
    for (const [method, path] of [
      ['PUT', `/api/tankoubons/rr/${ids.Alpha}`],
      ['DELETE', `/api/tankoubons/rr/${ids.Alpha}`],
      ['PUT', '/api/tankoubons/TANK_0000000001'],
    ] as const) {
      const body = await call(method, path, 400, {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ metadata: { name: 'x' } }),
      })
      const id = path.split('/')[3]
      expect(body.error).toBe(`${id} doesn't exist in the database!`)
    }
    const rr = await call('PUT', `/api/tankoubons/${tank}`, 400, {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ archives: ['rr'] }),
    })
    expect(rr).toEqual({
      operation: 'update_tankoubon',
      success: 0,
      error: 'rr does not exist in the database.',
    })
  })

  it("appends tags to the Tankoubon's own with metadata.append (openapi.yaml)", async () => {
    const put = (metadata: Wire) =>
      call('PUT', `/api/tankoubons/${tank}`, 200, {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ metadata }),
      })
    await put({ tags: 'artist:a, b' })
    await put({ tags: 'c, B', append: true })
    expect((await call('GET', `/api/tankoubons/${tank}`)).tags).toBe('artist:a, b, c')
    await put({ tags: 'd', append: false })
    expect((await call('GET', `/api/tankoubons/${tank}`)).tags).toBe('d')
  })
})

describe('miscellaneous-other-api.md, minion-api.md and shinobu-api.md', () => {
  it('answers server info with the example types', async () => {
    expectKinds(await call('GET', '/api/info'), {
      archives_per_page: 'number',
      cache_last_cleared: 'number',
      debug_mode: 'boolean',
      has_password: 'boolean',
      motd: 'string',
      name: 'string',
      nofun_mode: 'boolean',
      server_resizes_images: 'boolean',
      server_tracks_progress: 'boolean',
      authenticated_progress: 'boolean',
      total_archives: 'number',
      total_pages_read: 'number',
      version: 'string',
      version_desc: 'string',
      version_name: 'string',
      excluded_namespaces: 'array',
    })
  })

  it('answers plugins, jobs and the temp folder with the example types', async () => {
    const plugins = (await call('GET', '/api/plugins/metadata')) as unknown as Wire[]
    for (const plugin of plugins)
      expectKinds(plugin, {
        author: 'string',
        description: 'string',
        name: 'string',
        namespace: 'string',
        parameters: 'array',
        type: 'string',
        version: 'string',
      })
    const used = await call('POST', `/api/plugins/use?plugin=metadata/filename&id=${ids.Beta}`)
    expectKinds(used, { ...ENV, type: 'string', data: 'object' })
    const queued = await call('POST', `/api/plugins/queue?plugin=metadata/filename&id=${ids.Beta}`)
    expectKinds(queued, JOB)
    await app.deps.jobs.waitFor(queued.job)
    expectKinds(await call('GET', `/api/minion/${queued.job}`), {
      state: 'string',
      task: 'string',
      notes: 'object',
    })
    expectKinds(await call('POST', '/api/regen_thumbs'), JOB)
    expectKinds(await call('DELETE', '/api/tempfolder'), { ...ENV, newsize: 'number' })
  })

  it('takes download_url from a form body and answers its category', async () => {
    const url = 'https://example.com/book.zip'
    const plain = await call('POST', '/api/download_url', 200, { body: form({ url }) })
    expectKinds(plain, { ...JOB, url: 'string', category: 'null' })
    expect(plain.url).toBe(url)
    const filed = await call('POST', '/api/download_url', 200, {
      body: form({ url: 'https://example.com/other.zip', catid: category }),
    })
    expect(filed.category).toBe(category)
    expect(await call('POST', '/api/download_url', 400)).toEqual({
      operation: 'download_url',
      success: 0,
      error: 'No URL specified.',
    })
  })

  it("answers Shinobu's reads with numbers, the rescan with new_pid too", async () => {
    expectKinds(await call('GET', '/api/shinobu'), { ...ENV, is_alive: 'number', pid: 'number' })
    expectKinds(await call('POST', '/api/shinobu/restart'), { ...ENV, new_pid: 'number' })
    expectKinds(await call('POST', '/api/shinobu/rescan'), {
      ...ENV,
      job: 'number',
      new_pid: 'number',
    })
    await app.idle()
  })
})

describe('opds-catalog.md (openapi.yaml /opds, /opds/{id}, /opds/{id}/pse)', () => {
  const page = async (path: string) => {
    const res = await app.req(path, { cookie })
    expect({ path, status: res.status }).toEqual({ path, status: 200 })
    return new Uint8Array(await res.arrayBuffer())
  }

  it("serves a category's feed for ?category=", async () => {
    const res = await app.req(`/api/opds?category=${category}`, { cookie })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('kind=acquisition')
    const xml = await res.text()
    expect(xml).toContain(`urn:tankobun:${ids.Alpha}`)
    expect(xml).not.toContain(`urn:tankobun:${ids.Beta}`)
  })

  it('serves one archive as an Atom entry document', async () => {
    const res = await app.req(`/api/opds/${ids.Beta}`, { cookie })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toStartWith(
      'application/atom+xml;type=entry;profile=opds-catalog',
    )
    const xml = await res.text()
    expect(xml).toMatch(/^<\?xml[^>]*>\n<entry xmlns="http:\/\/www\.w3\.org\/2005\/Atom"/)
    expect(xml).toContain(`<id>urn:tankobun:${ids.Beta}</id>`)
    expect(xml).toContain('http://vaemendis.net/opds-pse/stream')
    const unknown = await app.json(`/api/opds/${'0'.repeat(40)}`, { cookie })
    expect(unknown.status).toBe(400)
  })

  it('streams pages from 1 on the PSE path, the first page for 0, none or past the end', async () => {
    const base = `/api/archives/${ids.Alpha}/page?path=`
    const first = await page(`${base}001.jpg`)
    const second = await page(`${base}002.jpg`)
    expect(second).not.toEqual(first)
    expect(await page(`/api/opds/${ids.Alpha}/pse?page=2`)).toEqual(second)
    for (const query of ['?page=1', '?page=0', '', '?page=99'])
      expect(await page(`/api/opds/${ids.Alpha}/pse${query}`)).toEqual(first)
  })
})
