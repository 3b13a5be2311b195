// The OPDS 1.2 catalog through the real server, every feed read back with opds-feed-parser (an
// OPDS/Atom parser from npm), and the Page Streaming Extension link followed to real page bytes.
import { afterAll, beforeAll, describe, expect, it, setSystemTime } from 'bun:test'
import { join } from 'node:path'
import OPDSParser, {
  AcquisitionFeed,
  NavigationFeed,
  type OPDSEntry,
  type OPDSFeed,
} from 'opds-feed-parser'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { makeCbz } from '../helpers/fixtures.ts'
import { seedArchive } from '../helpers/seed.ts'

const PSE = 'http://vaemendis.net/opds-pse/stream'
const NAVIGATION = 'application/atom+xml;profile=opds-catalog;kind=navigation'
const ACQUISITION = 'application/atom+xml;profile=opds-catalog;kind=acquisition'

let app: TestServer
let cookie: string
let comic: string
let tricky: string
let hidden: string
let guestCategory: string
let privateCategory: string
const parser = new OPDSParser()

const form = (fields: Record<string, string>) => new URLSearchParams(fields)

async function put(path: string, init: { body?: URLSearchParams; json?: unknown } = {}) {
  const res = await app.req(path, { method: 'PUT', cookie, ...init })
  expect(res.status).toBe(200)
  return (await res.json()) as Wire
}

async function getFeed(path: string, init: { cookie?: string; headers?: Bun.HeadersInit } = {}) {
  const res = await app.req(path, { cookie, ...init })
  expect(res.status).toBe(200)
  const text = await res.text()
  const feed = await parser.parse(text)
  if (!('entries' in feed)) throw new Error('not a feed')
  return { type: res.headers.get('content-type'), text, feed }
}

const entryOf = (feed: OPDSFeed, id: string): OPDSEntry => {
  const entry = feed.entries.find((e) => e.id === `urn:tankobun:${id}`)
  if (!entry) throw new Error(`no entry for ${id}`)
  return entry
}

type RawAttribute = { value: string; local: string; uri: string }
const PSE_NS = 'http://vaemendis.net/opds-pse/ns'

/**
 * The entry's PSE link (the parser keeps links it does not model unparsed): its Atom attributes
 * and, by local name, those in the PSE namespace.
 */
function pseLink(entry: OPDSEntry): { href: string; type: string; pse: Record<string, string> } {
  const links = (entry.unparsed.link ?? []) as { $: Record<string, RawAttribute> }[]
  const link = links.find((l) => l.$.rel?.value === PSE)
  if (!link) throw new Error('no PSE link')
  const pse: Record<string, string> = {}
  for (const attribute of Object.values(link.$))
    if (attribute.uri === PSE_NS) pse[attribute.local] = attribute.value
  return { href: link.$.href!.value, type: link.$.type!.value, pse }
}

beforeAll(async () => {
  app = await startTestServer({
    beforeStart: async (content) => {
      await makeCbz(join(content, 'Real Comic.cbz'), { pages: 3, width: 40, height: 60 })
    },
  })
  await app.idle()
  cookie = await app.login()
  const list = (await (await app.req('/api/archives', { cookie })).json()) as Wire[]
  comic = list.find((a) => a.title === 'Real Comic')!.arcid
  await put(`/api/archives/${comic}/metadata`, {
    body: form({ tags: 'artist:Ana Bel, series:Tests, language:english' }),
  })
  tricky = seedArchive(app.deps, {
    title: `Tom & Jerry <"quoted"> 'x' \u0001 😀`,
    tags: 'artist:A&B, artist:Second One, parody:<none>',
    summary: 'Summary with <b>markup</b> & more',
  }).id
  hidden = seedArchive(app.deps, { title: 'Hidden one', tags: 'artist:nobody' }).id
  guestCategory = (
    await put('/api/categories', { body: form({ name: 'Guests & co', visible_to_guest: 'true' }) })
  ).category_id
  privateCategory = (await put('/api/categories', { body: form({ name: 'Private' }) })).category_id
  await put(`/api/categories/${guestCategory}/${comic}`)
  await put(`/api/categories/${privateCategory}/${hidden}`)
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

describe('navigation', () => {
  it('the root is a navigation feed with the lists, categories and search', async () => {
    const { type, feed } = await getFeed('/api/opds')
    expect(type).toBe(`${NAVIGATION};charset=utf-8`)
    expect(feed).toBeInstanceOf(NavigationFeed)
    expect(feed.id).toBe('urn:tankobun:opds:root')
    const targets = feed.entries.map((e) => e.links[0]!.href)
    expect(targets).toEqual([
      '/api/opds/all',
      '/api/opds/new',
      '/api/opds/recently-added',
      '/api/opds/recently-read',
      '/api/opds/categories',
    ])
    expect(feed.entries.at(-1)!.links[0]!.type).toBe(NAVIGATION)
    expect(feed.entries[0]!.links[0]!.type).toBe(ACQUISITION)
    const search = feed.links.find((l) => l.rel === 'search')!
    expect(search.href).toBe('/api/opds/opensearch.xml')
  })

  it('the categories feed lists each category as a subsection', async () => {
    const { feed } = await getFeed('/api/opds/categories')
    expect(feed).toBeInstanceOf(NavigationFeed)
    expect(feed.entries.map((e) => e.title).sort()).toEqual(['Guests & co', 'Private'])
    const guests = feed.entries.find((e) => e.title === 'Guests & co')!
    expect(guests.links[0]!.href).toBe(`/api/opds/categories/${guestCategory}`)
  })

  it('the OpenSearch description points at the search feed', async () => {
    const res = await app.req('/api/opds/opensearch.xml', { cookie })
    expect(res.headers.get('content-type')).toStartWith('application/opensearchdescription+xml')
    const text = await res.text()
    expect(text).toContain('template="/api/opds/search?q={searchTerms}"')
  })
})

describe('acquisition feeds', () => {
  it('lists every archive with its metadata, images, acquisition and PSE links', async () => {
    const { type, feed } = await getFeed('/api/opds/all')
    expect(type).toBe(`${ACQUISITION};charset=utf-8`)
    expect(feed).toBeInstanceOf(AcquisitionFeed)
    expect(feed.entries).toHaveLength(3)
    const entry = entryOf(feed, comic)
    expect(entry.title).toBe('Real Comic')
    expect(entry.authors.map((a) => a.name)).toEqual(['Ana Bel'])
    expect(entry.categories.map((c) => c.term)).toContain('series:Tests')
    // date_added is an excluded namespace by default.
    expect(entry.categories.some((c) => c.term.startsWith('date_added'))).toBe(false)
    expect(Date.parse(entry.updated)).toBeGreaterThan(0)
    const rels = Object.fromEntries(entry.links.map((l) => [l.rel, l]))
    expect(rels['http://opds-spec.org/acquisition']!.href).toBe(`/api/opds/${comic}/download`)
    expect(rels['http://opds-spec.org/image']!.href).toBe(`/api/opds/${comic}/thumbnail`)
    expect(rels['http://opds-spec.org/image/thumbnail']!.href).toBe(`/api/opds/${comic}/thumbnail`)
    const pse = pseLink(entry)
    expect(pse.type).toBe('image/jpeg')
    expect(pse.href).toBe(
      `/api/opds/${comic}/pse?page={pageNumber}&zero_based=true&max_width={maxWidth}`,
    )
    expect(pse.pse.count).toBe('3')
    expect(pse.pse.lastRead).toBeUndefined()
    expect(feed.search.totalResults).toBe(3)
  })

  it('escapes titles, tags and summaries, and drops characters XML cannot hold', async () => {
    const { text, feed } = await getFeed('/api/opds/all')
    const entry = entryOf(feed, tricky)
    expect(entry.title).toBe(`Tom & Jerry <"quoted"> 'x'  😀`)
    expect(entry.authors.map((a) => a.name).sort()).toEqual(['A&B', 'Second One'])
    expect(entry.categories.map((c) => c.term)).toContain('parody:<none>')
    // The parser reads content first: the summary, then the page count.
    expect(entry.summary.content).toBe('Summary with <b>markup</b> & more\n\n10 pages')
    expect(text).not.toContain('<b>')
  })

  it('reports the progress as pse:lastRead, from 1 as PSE 1.1 and 1.2 count it', async () => {
    const res = await app.req(`/api/archives/${comic}/progress/2`, { method: 'PUT', cookie })
    expect(res.status).toBe(200)
    await res.text()
    const { feed } = await getFeed('/api/opds/recently-read')
    expect(feed.entries[0]!.id).toBe(`urn:tankobun:${comic}`)
    const pse = pseLink(feed.entries[0]!)
    // Page 2 read: lastRead 2, while {pageNumber} for that page is 1.
    expect(pse.pse.lastRead).toBe('2')
    expect(Date.parse(pse.pse.lastReadDate!)).toBeGreaterThan(0)
  })

  it('lists the archive read last first in recently-read, and never-read archives not at all', async () => {
    try {
      for (const id of [tricky, comic]) {
        const res = await app.req(`/api/archives/${id}/progress/1`, { method: 'PUT', cookie })
        expect(res.status).toBe(200)
        await res.text()
        // Last read times are in seconds: the clock the server reads (bun:test's, in this
        // process) moves a second on, so the order is certain.
        if (id === tricky) setSystemTime(Date.now() + 1000)
      }
    } finally {
      setSystemTime()
    }
    const { feed } = await getFeed('/api/opds/recently-read')
    expect(feed.entries.map((e) => e.id)).toEqual([comic, tricky].map((id) => `urn:tankobun:${id}`))
  })

  it('pages by archives_per_page with first, previous, next and last links', async () => {
    await put('/api/settings', { json: { archives_per_page: 2 } })
    try {
      const first = (await getFeed('/api/opds/all')).feed
      expect(first.entries).toHaveLength(2)
      const rels = Object.fromEntries(first.links.map((l) => [l.rel, l.href]))
      expect(rels.next).toBe('/api/opds/all?page=2')
      expect(rels.last).toBe('/api/opds/all?page=2')
      expect(rels.previous).toBeUndefined()
      const second = (await getFeed('/api/opds/all?page=2')).feed
      expect(second.entries).toHaveLength(1)
      const ids = [...first.entries, ...second.entries].map((e) => e.id).sort()
      expect(ids).toEqual([comic, tricky, hidden].map((id) => `urn:tankobun:${id}`).sort())
      expect(second.links.find((l) => l.rel === 'previous')!.href).toBe('/api/opds/all')
      expect(second.search.startIndex).toBe(3)
      // Past the end: an empty page, not an error.
      expect((await getFeed('/api/opds/all?page=9')).feed.entries).toHaveLength(0)
    } finally {
      await put('/api/settings', { json: { archives_per_page: 100 } })
    }
  })

  it('searches with the server search syntax and keeps q on the paging links', async () => {
    const { feed } = await getFeed(`/api/opds/search?q=${encodeURIComponent('jerry')}`)
    expect(feed.entries.map((e) => e.id)).toEqual([`urn:tankobun:${tricky}`])
    expect(feed.links.find((l) => l.rel === 'self')!.href).toBe(
      `/api/opds/search?q=${encodeURIComponent('jerry')}`,
    )
  })

  it('a category feed holds its members', async () => {
    const { feed } = await getFeed(`/api/opds/categories/${privateCategory}`)
    expect(feed.title).toBe('Private')
    expect(feed.entries.map((e) => e.id)).toEqual([`urn:tankobun:${hidden}`])
  })

  it('new lists only new archives', async () => {
    const res = await app.req(`/api/archives/${tricky}/isnew`, { method: 'DELETE', cookie })
    expect(res.status).toBe(200)
    await res.text()
    const { feed } = await getFeed('/api/opds/new')
    expect(feed.entries.map((e) => e.id)).not.toContain(`urn:tankobun:${tricky}`)
  })

  it('bad input is an Env with its status', async () => {
    for (const [path, status] of [
      ['/api/opds/all?page=0', 400],
      ['/api/opds/all?page=abc', 400],
      ['/api/opds/nope', 404],
      ['/api/opds/categories/CAT_404', 404],
    ] as const) {
      const res = await app.req(path, { cookie })
      expect(res.status).toBe(status)
      const body = (await res.json()) as Wire
      expect(body.success).toBe(0)
      expect(JSON.stringify(body)).not.toContain('    at ')
    }
  })
})

describe('page streaming', () => {
  it('{pageNumber} from 0 reads the pages in order, as page=N from 1 does', async () => {
    const { feed } = await getFeed('/api/opds/all')
    const template = pseLink(entryOf(feed, comic)).href
    const byPath = await app.req(`/api/archives/${comic}/page?path=002.jpg`, { cookie })
    const expected = new Uint8Array(await byPath.arrayBuffer())
    const streamed = await app.req(
      template.replace('{pageNumber}', '1').replace('{maxWidth}', '800'),
      { cookie },
    )
    expect(streamed.status).toBe(200)
    expect(new Uint8Array(await streamed.arrayBuffer())).toEqual(expected)
    const oneBased = await app.req(`/api/archives/${comic}/page?page=2`, { cookie })
    expect(new Uint8Array(await oneBased.arrayBuffer())).toEqual(expected)
    for (const query of ['page=0', 'page=4', 'page=3&zero_based=true', 'page=x']) {
      const res = await app.req(`/api/archives/${comic}/page?${query}`, { cookie })
      expect(res.status).toBe(400)
      expect(((await res.json()) as Wire).success).toBe(0)
    }
    // Past the end, the error names the page as the caller numbered it.
    for (const [query, named] of [
      ['page=3&zero_based=true', 'page 3 is past them'],
      ['page=4', 'page 4 is past them'],
    ]) {
      const res = await app.req(`/api/archives/${comic}/page?${query}`, { cookie })
      expect(((await res.json()) as Wire).error).toContain(named)
    }
  })
})

describe('access', () => {
  it('nofun_mode: no credentials is a 401 Env; Basic with a token as password is let in', async () => {
    const anonymous = await app.req('/api/opds')
    expect(anonymous.status).toBe(401)
    expect(((await anonymous.json()) as Wire).operation).toBe('opds_root')
    const created = await app.req('/api/tokens', {
      method: 'POST',
      cookie,
      json: { name: 'reader', role: 'guest' },
    })
    const token = ((await created.json()) as Wire).data.token as string
    const basic = (password: string) => ({
      authorization: `Basic ${Buffer.from(`reader:${password}`).toString('base64')}`,
    })
    const { feed } = await getFeed('/api/opds/all', { cookie: '', headers: basic(token) })
    expect(feed.entries).toHaveLength(3)
    const page = await app.req(`/api/archives/${comic}/page?page=1`, { headers: basic(token) })
    expect(page.status).toBe(200)
    await page.arrayBuffer()
    const wrong = await app.req('/api/opds', { headers: basic('not-a-token') })
    expect(wrong.status).toBe(401)
    await wrong.text()
    const bearer = await app.req('/api/opds', { token })
    expect(bearer.status).toBe(200)
    await bearer.text()
  })

  it('guest mode: anonymous readers see only guest-visible archives and categories', async () => {
    await put('/api/settings', { json: { guest_mode: true } })
    try {
      const all = await getFeed('/api/opds/all', { cookie: '' })
      expect(all.feed.entries.map((e) => e.id)).toEqual([`urn:tankobun:${comic}`])
      const categories = await getFeed('/api/opds/categories', { cookie: '' })
      expect(categories.feed.entries.map((e) => e.title)).toEqual(['Guests & co'])
      const hiddenFeed = await app.req(`/api/opds/categories/${privateCategory}`)
      expect(hiddenFeed.status).toBe(404)
      await hiddenFeed.text()
      const search = await getFeed('/api/opds/search?q=nobody', { cookie: '' })
      expect(search.feed.entries).toHaveLength(0)
    } finally {
      await put('/api/settings', { json: { guest_mode: false } })
    }
  })
})
