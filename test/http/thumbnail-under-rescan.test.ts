// Thumbnails being made while a rescan rewrites their archive: the rescan removes the thumbnails
// of a file that changed (same id, new pages) at any moment, also one just written by a worker.
import { expect, it } from 'bun:test'
import { utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { findArchive } from '../../src/db/repos/archives.repo.ts'
import {
  findThumbnailFile,
  getThumbnail,
  makeThumbnail,
  readThumbnailFile,
} from '../../src/domain/archives/thumbnails.ts'
import { opdsCover } from '../../src/domain/opds/images.ts'
import { sendThumbnail } from '../../src/http/thumbnail-response.ts'
import { buildZip, makeJpeg } from '../helpers/fixtures.ts'
import { rescan } from '../helpers/rescan.ts'
import { startTestServer, withThumbnailer, type TestServer } from '../helpers/server.ts'

/** A zip whose first entry is 600 KB of fixed bytes (not a page), so the id never changes. */
async function sameIdZip(pages: number, seed: number): Promise<Uint8Array> {
  const images = await Promise.all(
    Array.from({ length: pages }, async (_, i) => ({
      name: `${String(i + 1).padStart(3, '0')}.jpg`,
      data: await makeJpeg(40, 60, seed * 100 + i),
    })),
  )
  return buildZip([{ name: 'padding.bin', data: new Uint8Array(600_000).fill(7) }, ...images])
}

/** The file rewritten with other pages (same id), and a rescan that finds it changed. */
async function rewriteAndRescan(app: TestServer, cookie: string, seed: number): Promise<void> {
  const path = join(app.contentDir, 'Same.cbz')
  await writeFile(path, await sameIdZip(3, seed))
  await utimes(path, new Date(), new Date(Date.now() + seed * 10_000))
  expect((await rescan(app, cookie)).updated).toBe(1)
}

async function startWithOneArchive() {
  const app = await startTestServer({
    beforeStart: async (content) => writeFile(join(content, 'Same.cbz'), await sameIdZip(3, 1)),
  })
  await app.idle()
  await app.jobsDone()
  return app
}

it('a cover written just before the rescan removes it does not fail with ENOENT', async () => {
  await using app = await startWithOneArchive()
  const cookie = await app.login()
  const id = Object.values(await app.idsByTitle(cookie))[0]!
  // The rescan lands right after the worker renamed the cover into place.
  let makes = 0
  const deps = withThumbnailer(app.deps, {
    thumbnail: async (...args) => {
      const written = await app.deps.thumbnailer.thumbnail(...args)
      if (makes++ > 0) return written
      expect(findThumbnailFile(app.deps, id, 0)).not.toBeNull()
      await rewriteAndRescan(app, cookie, 2)
      expect(findThumbnailFile(app.deps, id, 0)).toBeNull()
      return written
    },
  })
  await makeThumbnail(deps, findArchive(app.deps.db, id)!, 0)
  await app.jobsDone()
})

it('a thumbnail found for GET thumbnail and removed by a rescan before the answer is sent', async () => {
  await using app = await startWithOneArchive()
  const cookie = await app.login()
  const id = Object.values(await app.idsByTitle(cookie))[0]!
  const sent = await app.req(`/api/archives/${id}/thumbnail?no_fallback=true`, { cookie })
  expect(sent.status).toBe(200)
  const before = new Uint8Array(await sent.arrayBuffer())
  // The route's two steps, with the rescan between them: the answer is the cover that was found.
  const found = await getThumbnail(app.deps, findArchive(app.deps.db, id)!, { noFallback: true })
  await rewriteAndRescan(app, cookie, 2)
  expect(findThumbnailFile(app.deps, id, 0)).toBeNull()
  const answer = sendThumbnail(found, {}) as Response
  expect(answer.status).toBe(200)
  expect(new Uint8Array(await answer.arrayBuffer())).toEqual(before)
  expect(answer.headers.get('etag')).toBe(sent.headers.get('etag'))
  await app.jobsDone()
})

it("an OPDS cover's JPEG copy removed by a rescan as it is written answers the placeholder", async () => {
  await using app = await startWithOneArchive()
  const cookie = await app.login()
  const id = Object.values(await app.idsByTitle(cookie))[0]!
  expect(findThumbnailFile(app.deps, id, 0)?.contentType).toBe('image/webp')
  // The rescan drops the archive's thumbnail folder right after the copy was written into it.
  const deps = withThumbnailer(app.deps, {
    thumbnail: async (...args) => {
      const written = await app.deps.thumbnailer.thumbnail(...args)
      await rewriteAndRescan(app, cookie, 2)
      return written
    },
  })
  expect(await opdsCover(deps, findArchive(app.deps.db, id)!)).toEqual({ kind: 'placeholder' })
  await app.jobsDone()
  // Asked again, the copy is made from the new cover.
  const res = await app.req(`/api/opds/${id}/thumbnail`, { cookie })
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toBe('image/jpeg')
  expect(res.headers.get('cache-control')).not.toBe('no-store')
})

it('a cover made from the old pages and written after the rescan is made again from the new', async () => {
  await using app = await startWithOneArchive()
  const cookie = await app.login()
  const id = Object.values(await app.idsByTitle(cookie))[0]!
  // The page was read before the rewrite; the rescan ends (its covers job finds no cover to keep)
  // before the worker writes the picture of the old page.
  let makes = 0
  const deps = withThumbnailer(app.deps, {
    thumbnail: async (...args) => {
      if (makes++ === 0) {
        await rewriteAndRescan(app, cookie, 2)
        await app.jobsDone()
      }
      return app.deps.thumbnailer.thumbnail(...args)
    },
  })
  await makeThumbnail(deps, findArchive(app.deps.db, id)!, 0)
  // The cover is the new first page's picture (as its page thumbnail, made now, is), and its
  // hash is that file's.
  const cover = await readThumbnailFile(app.deps, id, 0)
  await makeThumbnail(app.deps, findArchive(app.deps.db, id)!, 1)
  const firstPage = await readThumbnailFile(app.deps, id, 1)
  expect(cover!.bytes).toEqual(firstPage!.bytes)
  const sha1 = new Bun.CryptoHasher('sha1').update(cover!.bytes).digest('hex')
  expect(findArchive(app.deps.db, id)!.thumbhash).toBe(sha1)
  expect(makes).toBe(2)
})
