// Pages resized for clients: `max_width` on the page route with server_resizes_images, the disk
// cache under <data>/resized, its validators and its bound.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { makeCbz } from '../helpers/fixtures.ts'
import { resizedPage } from '../../src/domain/archives/page-resize.ts'
import { findArchive } from '../../src/db/repos/archives.repo.ts'

let app: TestServer
let cookie: string
let id: string

const settings = async (json: Record<string, unknown>) => {
  const res = await app.req('/api/settings', { method: 'PUT', cookie, json })
  expect(res.status).toBe(200)
  await res.text()
}

async function page(query: string, headers: Bun.HeadersInit = {}) {
  const res = await app.req(`/api/archives/${id}/page?${query}`, { cookie, headers })
  const bytes = new Uint8Array(await res.arrayBuffer())
  return { res, bytes }
}

const widthOf = async (bytes: Uint8Array) => (await sharp(bytes).metadata()).width

const cachedFiles = () => {
  const dir = join(app.root, 'data', 'resized')
  try {
    return readdirSync(dir).flatMap((d) => readdirSync(join(dir, d)))
  } catch {
    return []
  }
}

beforeAll(async () => {
  app = await startTestServer({
    beforeStart: async (content) => {
      await makeCbz(join(content, 'Wide.cbz'), { pages: 2, width: 400, height: 600 })
    },
  })
  await app.idle()
  cookie = await app.login()
  const list = (await (await app.req('/api/archives', { cookie })).json()) as Wire[]
  id = list[0]!.arcid
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

describe('max_width', () => {
  it('sends the original while server_resizes_images is off', async () => {
    const original = await page('path=001.jpg')
    const asked = await page('path=001.jpg&max_width=100')
    expect(asked.res.headers.get('content-type')).toBe('image/jpeg')
    expect(asked.bytes).toEqual(original.bytes)
    expect(cachedFiles()).toEqual([])
  })

  it('resizes a wider page to WebP, caches it on disk and answers 304 to its ETag', async () => {
    await settings({ server_resizes_images: true })
    const first = await page('page=1&max_width=100')
    expect(first.res.status).toBe(200)
    expect(first.res.headers.get('content-type')).toBe('image/webp')
    expect(await widthOf(first.bytes)).toBe(100)
    const etag = first.res.headers.get('etag')!
    expect(etag).toMatch(/-w100-webp"$/)
    expect(cachedFiles()).toHaveLength(1)
    const again = await page('page=1&max_width=100')
    expect(again.bytes).toEqual(first.bytes)
    expect(cachedFiles()).toHaveLength(1)
    const revalidated = await page('page=1&max_width=100', { 'if-none-match': etag })
    expect(revalidated.res.status).toBe(304)
    expect(revalidated.res.headers.get('etag')).toBe(etag)
  })

  it('sends the original when the page is not wider than asked', async () => {
    const original = await page('path=002.jpg')
    const asked = await page('path=002.jpg&max_width=400')
    expect(asked.res.headers.get('content-type')).toBe('image/jpeg')
    expect(asked.bytes).toEqual(original.bytes)
    expect(asked.res.headers.get('etag')).toBe(original.res.headers.get('etag'))
  })

  it('follows thumbnail_format, bounds the width and reads an unfilled template as no limit', async () => {
    await settings({ thumbnail_format: 'jpeg' })
    try {
      const jpeg = await page('path=002.jpg&max_width=10')
      expect(jpeg.res.headers.get('content-type')).toBe('image/jpeg')
      expect(await widthOf(jpeg.bytes)).toBe(64)
      expect(jpeg.res.headers.get('etag')).toMatch(/-w64-jpeg"$/)
      const unfilled = await page('path=002.jpg&max_width={maxWidth}')
      expect(await widthOf(unfilled.bytes)).toBe(400)
    } finally {
      await settings({ thumbnail_format: 'webp' })
    }
  })

  it('a max_width that is not a number is a 400 Env', async () => {
    for (const value of ['abc', '-5', '0']) {
      const { res, bytes } = await page(`path=001.jpg&max_width=${value}`)
      expect(res.status).toBe(400)
      const body = JSON.parse(new TextDecoder().decode(bytes)) as Wire
      expect(body).toMatchObject({ operation: 'serve_page', success: 0 })
    }
  })

  it('keeps the cache within its bound, least recently used first', async () => {
    const row = findArchive(app.deps.db, id)!
    const bytes = (await page('path=001.jpg')).bytes
    const open = async () => ({ size: bytes.length, body: new Blob([bytes]) })
    const resize = async (width: number, cacheBytes?: number) =>
      (await resizedPage(app.deps, row, '001.jpg', open, width, { cacheBytes }))!.bytes.length
    // A one-byte bound keeps nothing: every copy is dropped, the new one after it is read.
    const s110 = await resize(110, 1)
    expect(cachedFiles()).toEqual([])
    const s150 = await resize(150)
    const s130 = await resize(130)
    await resize(150) // used again: now the most recent
    await resize(110, s150 + s130 + s110 - 1)
    const dir = join(app.root, 'data', 'resized')
    const widths = await Promise.all(
      readdirSync(dir).flatMap((d) =>
        readdirSync(join(dir, d)).map(async (f) =>
          widthOf(await Bun.file(join(dir, d, f)).bytes()),
        ),
      ),
    )
    expect(widths.sort()).toEqual([110, 150])
  })
})
