import { describe, expect, it } from 'bun:test'
import { existsSync } from 'node:fs'
import { copyFile, mkdir, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { rescan } from '../helpers/rescan.ts'
import { makeCbz, makeTarGz } from '../helpers/fixtures.ts'

async function titles(app: TestServer, cookie: string): Promise<string[]> {
  const list = (await (await app.req('/api/archives', { cookie })).json()) as Wire[]
  return list.map((a) => a.title).sort()
}

describe('POST /api/shinobu/rescan', () => {
  it('follows added, moved, changed and deleted files and reports duplicates', async () => {
    await using app = await startTestServer({
      beforeStart: async (content) => void (await makeCbz(join(content, 'One.cbz'), { pages: 2 })),
    })
    await app.idle()
    const cookie = await app.login()
    expect(await titles(app, cookie)).toEqual(['One'])
    const [one] = (await (await app.req('/api/archives', { cookie })).json()) as Wire[]

    await makeCbz(join(app.contentDir, 'Two.cbz'), { pages: 4 })
    let result = await rescan(app, cookie)
    expect(result.added).toBe(1)
    expect(await titles(app, cookie)).toEqual(['One', 'Two'])

    // Covers follow in the background as a `thumbnails` job (newest first in /api/jobs).
    const jobs = ((await (await app.req('/api/jobs', { cookie })).json()) as Wire).jobs as Wire[]
    // Each scan queues its own; two made in one millisecond may list in either order: wait for all.
    const covers = jobs.filter((j) => j.name === 'thumbnails')
    expect(covers.length).toBeGreaterThan(0)
    for (const job of covers)
      expect((await app.deps.jobs.waitFor(Number(job.id))).state).toBe('finished')
    const two = ((await (await app.req('/api/archives', { cookie })).json()) as Wire[]).find(
      (a) => a.title === 'Two',
    )!
    const cover = await app.req(`/api/archives/${two.arcid}/thumbnail?no_fallback=true`, { cookie })
    expect(cover.status).toBe(200)
    expect(cover.headers.get('content-type')).toBe('image/webp')

    // Unchanged files are not re-read.
    result = await rescan(app, cookie)
    expect(result).toMatchObject({ added: 0, updated: 0, moved: 0 })

    // A move keeps the id and its metadata.
    await app.req(`/api/archives/${one!.arcid}/metadata?tags=artist:kept`, {
      method: 'PUT',
      cookie,
    })
    await mkdir(join(app.contentDir, 'moved'), { recursive: true })
    await rename(join(app.contentDir, 'One.cbz'), join(app.contentDir, 'moved', 'One.cbz'))
    result = await rescan(app, cookie)
    expect(result.moved).toBe(1)
    const meta = (await (
      await app.req(`/api/archives/${one!.arcid}/metadata`, { cookie })
    ).json()) as Wire
    expect(meta.tags).toBe('artist:kept')

    // A second copy of a file is reported, not merged.
    await copyFile(join(app.contentDir, 'Two.cbz'), join(app.contentDir, 'Two copy.cbz'))
    result = await rescan(app, cookie)
    expect(result.duplicates).toEqual([
      { path: 'Two copy.cbz', existing_id: expect.stringMatching(/^[0-9a-f]{40}$/) },
    ])
    expect(await titles(app, cookie)).toEqual(['One', 'Two'])

    const form = new FormData()
    form.set('name', 'Holds One')
    const category = (
      (await (
        await app.req('/api/categories', { method: 'PUT', body: form, cookie })
      ).json()) as Wire
    ).category_id as string
    await app.req(`/api/categories/${category}/${one!.arcid}`, { method: 'PUT', cookie })

    // A deleted file disappears from listings.
    await rm(join(app.contentDir, 'moved', 'One.cbz'))
    result = await rescan(app, cookie)
    expect(result.unlinked).toBe(1)
    expect(await titles(app, cookie)).toEqual(['Two'])
    expect((await app.req(`/api/archives/${one!.arcid}/metadata`, { cookie })).status).toBe(400)

    // database/clean: the hidden row is deleted on the next run.
    const clean = (await (
      await app.req('/api/database/clean', { method: 'POST', cookie })
    ).json()) as Wire
    expect(clean).toMatchObject({
      operation: 'clean_database',
      success: 1,
      deleted: 1,
      unlinked: 0,
    })
    const held = (await (await app.req(`/api/categories/${category}`, { cookie })).json()) as Wire
    expect(held.archives).toEqual([])
  })

  it('catalogues the first of identical new files in walk order, however the stats finish', async () => {
    await using app = await startTestServer()
    await app.idle()
    const cookie = await app.login()
    // Files are stat'ed many at a time; which copy is kept must not depend on which ends first.
    await makeCbz(join(app.contentDir, 'copy-00.cbz'), { pages: 2 })
    const names = Array.from({ length: 40 }, (_, i) => `copy-${String(i).padStart(2, '0')}.cbz`)
    for (const name of names.slice(1))
      await copyFile(join(app.contentDir, names[0]!), join(app.contentDir, name))
    const result = await rescan(app, cookie)
    expect(result.added).toBe(1)
    expect(result.duplicates.map((d: Wire) => d.path)).toEqual(names.slice(1))
    const list = (await (await app.req('/api/archives', { cookie })).json()) as Wire[]
    expect(list.map((a) => a.filename)).toEqual(['copy-00'])
  })
})

describe('DELETE /api/archives/:id and batch delete', () => {
  it('deletes metadata and file, and reports per-id results in a batch', async () => {
    await using app = await startTestServer({
      beforeStart: async (content) => {
        await makeCbz(join(content, 'A.cbz'), { pages: 1 })
        await makeCbz(join(content, 'B.cbz'), { pages: 2 })
      },
    })
    await app.idle()
    const cookie = await app.login()
    const list = (await (await app.req('/api/archives', { cookie })).json()) as Wire[]
    const a = list.find((x) => x.title === 'A')!
    const b = list.find((x) => x.title === 'B')!
    const form = new FormData()
    form.set('name', 'Holds A')
    const category = (
      (await (
        await app.req('/api/categories', { method: 'PUT', body: form, cookie })
      ).json()) as Wire
    ).category_id as string
    await app.req(`/api/categories/${category}/${a.arcid}`, { method: 'PUT', cookie })
    await app.req(`/api/categories/${category}/${b.arcid}`, { method: 'PUT', cookie })
    const res = await app.req(`/api/archives/${a.arcid}`, { method: 'DELETE', cookie })
    expect(await res.json()).toEqual({
      operation: 'delete_archive',
      success: 1,
      filename: 'A.cbz',
      id: a.arcid,
    })
    expect(existsSync(join(app.contentDir, 'A.cbz'))).toBe(false)
    // Like LANraragi, the deleted archive leaves every category it was in.
    const held = (await (await app.req(`/api/categories/${category}`, { cookie })).json()) as Wire
    expect(held.archives).toEqual([b.arcid])
    expect((await app.req(`/api/archives/${a.arcid}`, { method: 'DELETE', cookie })).status).toBe(
      400,
    )

    const batch = (await (
      await app.req('/api/archives', {
        method: 'DELETE',
        cookie,
        json: { ids: [b.arcid, a.arcid, 'nope'] },
      })
    ).json()) as Wire
    expect(batch.success).toBe(1)
    expect(batch.results).toEqual([
      { id: b.arcid, success: 1 },
      { id: a.arcid, success: 0, error: expect.any(String) },
      { id: 'nope', success: 0, error: expect.any(String) },
    ])
    expect(existsSync(join(app.contentDir, 'B.cbz'))).toBe(false)
    const bad = await app.req('/api/archives', { method: 'DELETE', cookie, json: { nope: 1 } })
    expect(bad.status).toBe(400)
  })
})

describe('PUT /api/archives/:id/rename', () => {
  it('renames the file and its sidecar patch together; 409 when the name is taken', async () => {
    await using app = await startTestServer({
      beforeStart: async (content) => {
        await makeCbz(join(content, 'Old.cbz'), { pages: 1 })
        await makeCbz(join(content, 'Taken.cbz'), { pages: 2 })
        await makeCbz(join(content, 'Old.patch.zip'), { pages: 1 })
      },
    })
    await app.idle()
    const cookie = await app.login()
    const list = (await (await app.req('/api/archives', { cookie })).json()) as Wire[]
    expect(list.map((a) => a.title).sort()).toEqual(['Old', 'Taken'])
    const old = list.find((x) => x.title === 'Old')!
    const taken = await app.req(`/api/archives/${old.arcid}/rename`, {
      method: 'PUT',
      cookie,
      json: { filename: 'Taken.cbz' },
    })
    expect(taken.status).toBe(409)
    const traversal = await app.req(`/api/archives/${old.arcid}/rename`, {
      method: 'PUT',
      cookie,
      json: { filename: '../escape.cbz' },
    })
    expect(traversal.status).toBe(400)
    const res = await app.req(`/api/archives/${old.arcid}/rename`, {
      method: 'PUT',
      cookie,
      json: { filename: 'New' },
    })
    expect(await res.json()).toMatchObject({
      operation: 'rename_archive',
      success: 1,
      filename: 'New.cbz',
    })
    expect(existsSync(join(app.contentDir, 'New.cbz'))).toBe(true)
    expect(existsSync(join(app.contentDir, 'New.patch.zip'))).toBe(true)
    expect(existsSync(join(app.contentDir, 'Old.cbz'))).toBe(false)
    const meta = (await (
      await app.req(`/api/archives/${old.arcid}/metadata`, { cookie })
    ).json()) as Wire
    expect(meta.filename).toBe('New')
    const page = await app.req(`/api/archives/${old.arcid}/page?path=001.jpg`, { cookie })
    expect(page.status).toBe(200)
  })
})

describe('PUT /api/archives/:id/rename (another archive extension)', () => {
  it('stores the new extension: answer, metadata, search, download and pages follow', async () => {
    await using app = await startTestServer({
      beforeStart: async (content) => {
        await makeCbz(join(content, 'Plain.zip'), { pages: 2 })
        await makeCbz(join(content, 'Plain.patch.zip'), { pages: 1 })
        await makeTarGz(join(content, 'Packed.tar.gz'), { pages: 2 })
      },
    })
    await app.idle()
    const cookie = await app.login()
    const list = (await (await app.req('/api/archives', { cookie })).json()) as Wire[]
    const idOf = (title: string) => list.find((a) => a.title === title)!.arcid as string
    const rename = async (id: string, filename: string) => {
      const res = await app.req(`/api/archives/${id}/rename`, {
        method: 'PUT',
        cookie,
        json: { filename },
      })
      expect(res.status).toBe(200)
      return (await res.json()) as Wire
    }
    const expectRecord = async (id: string, filename: string, extension: string) => {
      const meta = (await (
        await app.req(`/api/archives/${id}/metadata`, { cookie })
      ).json()) as Wire
      expect({ filename: meta.filename, extension: meta.extension }).toEqual({
        filename,
        extension,
      })
      const hits = (await (
        await app.req(`/api/search?start=-1&filter=${encodeURIComponent(meta.title)}`, { cookie })
      ).json()) as Wire
      const hit = (hits.data as Wire[]).find((a) => a.arcid === id)!
      expect({ filename: hit.filename, extension: hit.extension }).toEqual({ filename, extension })
      const download = await app.req(`/api/archives/${id}/download`, { cookie })
      expect(download.status).toBe(200)
      expect(download.headers.get('content-disposition')).toContain(
        `filename="${filename}.${extension}"`,
      )
      const files = (await (await app.req(`/api/archives/${id}/files`, { cookie })).json()) as Wire
      const page = await app.req(files.pages[0], { cookie })
      expect(page.status).toBe(200)
      expect(page.headers.get('content-type')).toBe('image/jpeg')
    }

    const plain = idOf('Plain')
    expect(await rename(plain, 'x.cbz')).toMatchObject({ success: 1, filename: 'x.cbz' })
    expect(existsSync(join(app.contentDir, 'x.cbz'))).toBe(true)
    expect(existsSync(join(app.contentDir, 'x.patch.zip'))).toBe(true)
    expect(existsSync(join(app.contentDir, 'Plain.zip'))).toBe(false)
    expect(existsSync(join(app.contentDir, 'Plain.patch.zip'))).toBe(false)
    await expectRecord(plain, 'x', 'cbz')
    const download = await app.req(`/api/archives/${plain}/download`, { cookie })
    expect(download.headers.get('content-type')).toBe('application/vnd.comicbook+zip')
    // A name without an archive extension keeps the current one (now cbz).
    expect(await rename(plain, 'z')).toMatchObject({ filename: 'z.cbz' })
    await expectRecord(plain, 'z', 'cbz')

    // The reader goes by the file's bytes: a gzipped tar named .tar still reads.
    const packed = idOf('Packed')
    expect(await rename(packed, 'y.tar')).toMatchObject({ filename: 'y.tar' })
    expect(existsSync(join(app.contentDir, 'y.tar'))).toBe(true)
    await expectRecord(packed, 'y', 'tar')

    // The scan agrees with the renamed rows: nothing new, nothing moved.
    const rescanned = await rescan(app, cookie)
    expect(rescanned).toMatchObject({ added: 0, moved: 0, unlinked: 0, duplicates: [] })
    expect((await (await app.req('/api/archives', { cookie })).json()) as Wire[]).toHaveLength(2)
  })
})
