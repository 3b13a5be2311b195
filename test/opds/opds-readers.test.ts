// What OPDS readers written elsewhere rely on (issue 26 §4): a Basic challenge on a 401, every
// link's type matching what its href serves (covers and pages as JPEG, which OPDS and PSE allow
// and e-ink readers show, also with resizing on and for PNG pages; the download's comic-book
// type), entries with content and an alternate link, and a category feed's `up` link.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import OPDSParser, { type OPDSEntry } from 'opds-feed-parser'
import sharp from 'sharp'
import { makeCbz } from '../helpers/fixtures.ts'
import { startTestServer, withSettings, type TestServer, type Wire } from '../helpers/server.ts'

const PSE = 'http://vaemendis.net/opds-pse/stream'
const ENTRY_TYPE = 'application/atom+xml;type=entry;profile=opds-catalog'
const NAVIGATION = 'application/atom+xml;profile=opds-catalog;kind=navigation'
const parser = new OPDSParser()

let app: TestServer
let cookie: string
let ids: Record<string, string>

const png = async (width: number, height: number) =>
  new Uint8Array(
    await sharp({ create: { width, height, channels: 3, background: { r: 9, g: 99, b: 199 } } })
      .png()
      .toBuffer(),
  )

beforeAll(async () => {
  app = await startTestServer({
    beforeStart: async (content) => {
      await makeCbz(join(content, 'Jpeg Pages.cbz'), { pages: 3, width: 300, height: 450 })
      await makeCbz(join(content, 'Png Pages.zip'), {
        names: [],
        entries: [
          { name: '001.png', data: await png(300, 450) },
          { name: '002.png', data: await png(300, 450) },
        ],
      })
    },
  })
  await app.idle()
  cookie = await app.login()
  ids = await app.idsByTitle(cookie)
  // Covers exist in the default format (WebP) before the feeds are read.
  for (const id of Object.values(ids)) {
    const res = await app.req(`/api/archives/${id}/thumbnail?no_fallback=true`, { cookie })
    await res.arrayBuffer()
  }
  await app.jobsDone()
})

afterAll(() => app[Symbol.asyncDispose]())

async function feedEntries(path: string): Promise<{ text: string; entries: OPDSEntry[] }> {
  const res = await app.req(path, { cookie })
  expect(res.status).toBe(200)
  const text = await res.text()
  const feed = await parser.parse(text)
  if (!('entries' in feed)) throw new Error('not a feed')
  return { text, entries: feed.entries }
}

/** Every link of an entry as written (the parser models some, PSE's not: its raw copy has all). */
function linksOf(entry: OPDSEntry): { rel: string; href: string; type: string }[] {
  const raw = (entry.unparsed.link ?? []) as { $: Record<string, { value: string }> }[]
  return raw.map((l) => ({ rel: l.$.rel!.value, href: l.$.href!.value, type: l.$.type!.value }))
}

const entryOf = (entries: OPDSEntry[], title: string) => entries.find((e) => e.title === title)!

/** What an href serves: status, type and the first bytes. */
async function served(href: string) {
  const res = await app.req(href, { cookie })
  const bytes = new Uint8Array(await res.arrayBuffer())
  return { status: res.status, type: res.headers.get('content-type'), bytes }
}

const isJpeg = (bytes: Uint8Array) => bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff

describe('401 on OPDS routes', () => {
  it('challenges for Basic credentials on OPDS routes only', async () => {
    const paths = [
      '/api/opds',
      '/api/opds/all',
      `/api/opds/${ids['Jpeg Pages']}`,
      `/api/opds/${ids['Jpeg Pages']}/pse?page=1`,
      `/api/opds/${ids['Jpeg Pages']}/thumbnail`,
    ]
    for (const path of paths) {
      const res = await app.req(path)
      await res.text()
      expect({ path, status: res.status, challenge: res.headers.get('www-authenticate') }).toEqual({
        path,
        status: 401,
        challenge: 'Basic realm="Tankobun"',
      })
    }
    // Elsewhere a browser would pop its login box over the UI's own calls.
    const api = await app.req('/api/archives')
    await api.text()
    expect(api.status).toBe(401)
    expect(api.headers.get('www-authenticate')).toBeNull()
  })

  it('a client that answers the challenge with the token as password gets in', async () => {
    const created = await app.json('/api/tokens', {
      method: 'POST',
      cookie,
      json: { name: 'reader', role: 'guest' },
    })
    const token = created.body.data.token as string
    const first = await app.req('/api/opds')
    await first.text()
    expect(first.headers.get('www-authenticate')).toStartWith('Basic ')
    const again = await app.req('/api/opds', {
      headers: { authorization: `Basic ${btoa(`any:${token}`)}` },
    })
    expect(again.status).toBe(200)
    await again.text()
  })
})

describe('link types match what is served', () => {
  it('covers are JPEG (stored covers are WebP by default), as their links say', async () => {
    expect(app.deps.settings.get('thumbnail_format')).toBe('webp')
    const { entries } = await feedEntries('/api/opds/all')
    expect(entries).toHaveLength(2)
    for (const entry of entries) {
      const images = linksOf(entry).filter((l) => l.rel.startsWith('http://opds-spec.org/image'))
      expect(images).toHaveLength(2)
      for (const link of images) {
        expect(link.type).toBe('image/jpeg')
        const answer = await served(link.href)
        expect({ title: entry.title, status: answer.status, type: answer.type }).toEqual({
          title: entry.title,
          status: 200,
          type: 'image/jpeg',
        })
        expect(isJpeg(answer.bytes)).toBe(true)
      }
    }
  })

  it('PSE pages are JPEG for PNG pages, resized or not, and JPEG pages stay as stored', async () => {
    const { entries } = await feedEntries('/api/opds/all')
    for (const resizes of [false, true]) {
      await withSettings(app, { server_resizes_images: resizes }, async () => {
        for (const title of ['Jpeg Pages', 'Png Pages']) {
          const stream = linksOf(entryOf(entries, title)).find((l) => l.rel === PSE)!
          expect(stream.type).toBe('image/jpeg')
          const href = stream.href.replace('{pageNumber}', '0').replace('{maxWidth}', '100')
          const answer = await served(href)
          expect({ title, resizes, status: answer.status, type: answer.type }).toEqual({
            title,
            resizes,
            status: 200,
            type: stream.type,
          })
          expect(isJpeg(answer.bytes)).toBe(true)
          const { width } = await sharp(answer.bytes).metadata()
          expect({ title, resizes, width }).toEqual({ title, resizes, width: resizes ? 100 : 300 })
        }
      })
    }
    // A JPEG page not resized is the stored page itself.
    const stored = await served(`/api/archives/${ids['Jpeg Pages']}/page?page=1`)
    const streamed = await served(`/api/opds/${ids['Jpeg Pages']}/pse?page=0&zero_based=true`)
    expect(streamed.bytes).toEqual(stored.bytes)
  })

  it('a resized or converted page answers 304 to its own ETag', async () => {
    const href = `/api/opds/${ids['Png Pages']}/pse?page=1&zero_based=true`
    const first = await app.req(href, { cookie })
    await first.arrayBuffer()
    const again = await app.req(href, {
      cookie,
      headers: { 'if-none-match': first.headers.get('etag')! },
    })
    expect(again.status).toBe(304)
  })

  it('the acquisition link’s type is the download’s', async () => {
    const { entries } = await feedEntries('/api/opds/all')
    const types: Record<string, string> = {}
    for (const entry of entries) {
      const link = linksOf(entry).find((l) => l.rel === 'http://opds-spec.org/acquisition')!
      const answer = await served(link.href)
      expect(answer.status).toBe(200)
      expect(answer.type).toBe(link.type)
      types[entry.title] = link.type
    }
    // The comic-book types readers know (as LANraragi), a plain .zip included.
    expect(types).toEqual({ 'Jpeg Pages': 'application/x-cbz', 'Png Pages': 'application/x-cbz' })
  })
})

describe('entries and navigation', () => {
  it('each entry has content and an alternate link to its complete entry', async () => {
    const { entries } = await feedEntries('/api/opds/all')
    const entry = entryOf(entries, 'Jpeg Pages')
    expect(entry.summary.content).toBe('3 pages')
    const alternate = linksOf(entry).find((l) => l.rel === 'alternate')!
    expect(alternate).toEqual({
      rel: 'alternate',
      href: `/api/opds/${ids['Jpeg Pages']}`,
      type: ENTRY_TYPE,
    })
    const complete = await app.req(alternate.href, { cookie })
    expect(complete.status).toBe(200)
    expect(complete.headers.get('content-type')).toStartWith(ENTRY_TYPE)
    expect(await complete.text()).toContain('<content type="text">3 pages</content>')
  })

  it('a category feed’s up link is the categories list; a list’s is the root', async () => {
    const made = await app.req('/api/categories?name=Shelf', { method: 'PUT', cookie })
    const category = ((await made.json()) as Wire).category_id as string
    const cases: [path: string, up: string][] = [
      [`/api/opds/categories/${category}`, '/api/opds/categories'],
      [`/api/opds?category=${category}`, '/api/opds/categories'],
      ['/api/opds/all', '/api/opds'],
      ['/api/opds/search?q=x', '/api/opds'],
    ]
    for (const [path, up] of cases) {
      const res = await app.req(path, { cookie })
      const feed = await parser.parse(await res.text())
      const link = feed.links.find((l) => l.rel === 'up')!
      expect({ path, href: link.href, type: link.type }).toEqual({
        path,
        href: up,
        type: NAVIGATION,
      })
    }
  })
})

describe('the catalog’s image and download routes', () => {
  it('are guest-scoped like the archive reads: outside the scope a 404 Env', async () => {
    await withSettings(app, { guest_mode: true }, async () => {
      for (const path of ['thumbnail', 'download', 'pse?page=1']) {
        const res = await app.json(`/api/opds/${ids['Jpeg Pages']}/${path}`)
        expect({ path, status: res.status, success: res.body.success }).toEqual({
          path,
          status: 404,
          success: 0,
        })
      }
    })
  })

  it('answer a JPEG placeholder while the cover is being made, then the cover', async () => {
    const id = ids['Png Pages']!
    rmSync(join(app.deps.config.thumbsDir, id.slice(0, 2), `${id}.webp`))
    const waiting = await served(`/api/opds/${id}/thumbnail`)
    expect(waiting.type).toBe('image/jpeg')
    expect(isJpeg(waiting.bytes)).toBe(true)
    await app.jobsDone()
    const res = await app.req(`/api/opds/${id}/thumbnail`, { cookie })
    expect(res.headers.get('content-type')).toBe('image/jpeg')
    expect(res.headers.get('etag')).not.toBeNull()
    const bytes = new Uint8Array(await res.arrayBuffer())
    expect(isJpeg(bytes)).toBe(true)
    expect(bytes).not.toEqual(waiting.bytes)
  })
})
