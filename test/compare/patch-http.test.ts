import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { existsSync } from 'node:fs'
import { copyFile, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { commit } from '../../src/domain/commit.ts'
import { insertDownloadRow } from '../../src/domain/downloads/item-save.ts'
import { findDownloadItem } from '../../src/db/repos/downloads.repo.ts'
import { findArchive } from '../../src/db/repos/archives.repo.ts'
import { addToPatch } from '../../src/domain/archives/patch.ts'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { makeComparisonCbz, makeTexturedPage, numbered } from './pages.ts'

let app: TestServer
let cookie: string
let existingId: string
let downloadSource: string

const EXISTING = numbered([61, 62, 63])
// Two pages the existing archive lacks: after its 001.jpg and before its 003.jpg.
const DOWNLOAD = numbered([61, 88, 62, 89, 63])

beforeAll(async () => {
  app = await startTestServer({
    beforeStart: (content) => makeComparisonCbz(join(content, 'Book.cbz'), EXISTING).then(() => {}),
  })
  await app.idle()
  cookie = await app.login()
  const list = (await app.json<Wire[]>('/api/archives', { cookie })).body
  existingId = list.find((a) => a.title === 'Book')!.arcid
  downloadSource = await makeComparisonCbz(join(app.root, 'download-source.cbz'), DOWNLOAD)
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

async function conflictItem() {
  const id = crypto.randomUUID()
  const tempPath = join(app.deps.config.tempDir, `download-${crypto.randomUUID()}`)
  await copyFile(downloadSource, tempPath)
  const now = Date.now()
  commit(app.deps, (w) =>
    insertDownloadRow(w, {
      id,
      url: 'https://example.test/g/2',
      pluginNamespace: 'download/direct',
      state: 'waiting',
      tempPath,
      existingId,
      pendingFilenameConflict: JSON.stringify({ existing_id: existingId, filename: 'Book.cbz' }),
      createdAt: now,
      updatedAt: now,
    }),
  )
  return { id, tempPath }
}

async function pagePaths(): Promise<string[]> {
  const { body } = await app.json(`/api/archives/${existingId}/files`, { cookie })
  return (body.pages as string[]).map((url) => decodeURIComponent(url.split('?path=')[1]!))
}

async function pageBytes(path: string): Promise<Uint8Array> {
  const url = `/api/archives/${existingId}/page?path=${encodeURIComponent(path)}`
  const res = await app.req(url, { cookie })
  expect(res.status).toBe(200)
  return new Uint8Array(await res.arrayBuffer())
}

async function keepB(id: string, insertions: Wire[]) {
  return app.json(`/api/download_queue/${id}/compare/keep-b`, {
    method: 'POST',
    cookie,
    json: { insertions },
  })
}

const patchFile = () => join(app.contentDir, 'Book.patch.zip')

describe('POST /api/download_queue/:id/compare/keep-b with the patch in page lists', () => {
  it('writes the picked pages to the sidecar patch and deletes the item and its staged file', async () => {
    const { id, tempPath } = await conflictItem()
    const { status, body } = await keepB(id, [{ a_index: 1, after_filename: '001.jpg' }])
    expect(status).toBe(200)
    expect(body).toMatchObject({ success: 1, archive_id: existingId, inserted: 1 })
    expect(findDownloadItem(app.deps.db, id)).toBeUndefined()
    expect(existsSync(tempPath)).toBe(false)
    expect(existsSync(patchFile())).toBe(true)

    const pages = await pagePaths()
    expect(pages).toHaveLength(4)
    expect(pages[0]).toBe('001.jpg')
    expect(pages[1]).toMatch(/^\.patch\/.+-002\.jpg$/)
    expect(pages.slice(2)).toEqual(['002.jpg', '003.jpg'])
    expect(await pageBytes(pages[1]!)).toEqual(await makeTexturedPage(88))
    expect(await pageBytes('002.jpg')).toEqual(await makeTexturedPage(62))
    const meta = await app.json(`/api/archives/${existingId}/metadata`, { cookie })
    expect(meta.body.pagecount).toBe(4)
  })

  it('merges a later keep-b into the patch the archive already has', async () => {
    const { id } = await conflictItem()
    const { status } = await keepB(id, [{ a_filename: '004.jpg', before_filename: '003.jpg' }])
    expect(status).toBe(200)
    const pages = await pagePaths()
    expect(pages).toHaveLength(5)
    expect(pages[1]).toMatch(/^\.patch\/.+-002\.jpg$/)
    expect(pages[3]).toMatch(/^\.patch\/.+-004\.jpg$/)
    expect(pages[4]).toBe('003.jpg')
    expect(await pageBytes(pages[3]!)).toEqual(await makeTexturedPage(89))
  })

  it('serves only listed patch pages', async () => {
    const res = await app.req(
      `/api/archives/${existingId}/page?path=${encodeURIComponent('.patch/manifest.json')}`,
      { cookie },
    )
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ success: 0 })
  })

  it('makes the thumbnail of an inserted page', async () => {
    const pages = await pagePaths()
    expect(pages[3]).toMatch(/^\.patch\//)
    const queued = await app.req(`/api/archives/${existingId}/thumbnail?page=4&no_fallback=true`, {
      cookie,
    })
    expect([200, 202]).toContain(queued.status)
    await app.jobsDone()
    const res = await app.req(`/api/archives/${existingId}/thumbnail?page=4`, { cookie })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^image\//)
  })

  it('downloads the archive with the inserted pages in place', async () => {
    const res = await app.req(`/api/archives/${existingId}/download`, { cookie })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-disposition')).toContain('Book.cbz')
    const path = join(app.root, 'downloaded.cbz')
    await writeFile(path, new Uint8Array(await res.arrayBuffer()))
    const pages = await app.deps.reader.listPages(path)
    expect(pages).toHaveLength(5)
    const seeds = [61, 88, 62, 89, 63]
    for (const [i, page] of pages.entries())
      expect(await app.deps.reader.readPage(path, page)).toEqual(await makeTexturedPage(seeds[i]!))
  })

  it('is not taken for an archive by a rescan', async () => {
    const res = await app.req('/api/shinobu/rescan', { method: 'POST', cookie })
    expect(res.status).toBe(200)
    await app.idle()
    await app.jobsDone()
    const list = (await app.json<Wire[]>('/api/archives', { cookie })).body
    expect(list.map((a) => a.title)).toEqual(['Book'])
    expect((await pagePaths()).length).toBe(5)
  })

  it('keeps the patch pages in the count when a rescan refreshes the rewritten file', async () => {
    const cbz = join(app.contentDir, 'Book.cbz')
    const later = new Date(Date.now() + 60_000)
    await utimes(cbz, later, later)
    const res = await app.req('/api/shinobu/rescan', { method: 'POST', cookie })
    expect(res.status).toBe(200)
    await app.idle()
    await app.jobsDone()
    const meta = await app.json(`/api/archives/${existingId}/metadata`, { cookie })
    expect(meta.body.pagecount).toBe(5)
    expect((await pagePaths()).length).toBe(5)
  })

  it('answers 404 Env for an unknown item', async () => {
    const { status, body } = await keepB('nope', [])
    expect(status).toBe(404)
    expect(body).toMatchObject({ operation: 'compare_keep_b', success: 0 })
  })

  it('answers 400 Env for an anchor that is a patch page, and keeps the item', async () => {
    const { id } = await conflictItem()
    const patchPage = (await pagePaths())[1]!
    const { status } = await keepB(id, [{ a_index: 1, after_filename: patchPage }])
    expect(status).toBe(400)
    expect(findDownloadItem(app.deps.db, id)).toBeDefined()
  })
})

describe('DELETE /api/archives/:id/patch', () => {
  it('removes the patch: the page list and count are the archive own again', async () => {
    const res = await app.json(`/api/archives/${existingId}/patch`, { method: 'DELETE', cookie })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ operation: 'delete_patch', success: 1 })
    expect(existsSync(patchFile())).toBe(false)
    expect(await pagePaths()).toEqual(['001.jpg', '002.jpg', '003.jpg'])
    const meta = await app.json(`/api/archives/${existingId}/metadata`, { cookie })
    expect(meta.body.pagecount).toBe(3)
    const download = await app.req(`/api/archives/${existingId}/download`, { cookie })
    expect(download.headers.get('content-type')).not.toBeNull()
    expect((await download.arrayBuffer()).byteLength).toBe(
      (await Bun.file(join(app.contentDir, 'Book.cbz')).arrayBuffer()).byteLength,
    )
  })

  it('keep-b without insertions deletes the item and writes no patch', async () => {
    const { id } = await conflictItem()
    const { status, body } = await keepB(id, [])
    expect(status).toBe(200)
    expect(body).toMatchObject({ inserted: 0 })
    expect(findDownloadItem(app.deps.db, id)).toBeUndefined()
    expect(existsSync(patchFile())).toBe(false)
  })
})

describe('keep-b answers at once', () => {
  it('adds the pages of one item once when two answers to it race', async () => {
    const before = (await pagePaths()).length
    const { id } = await conflictItem()
    const answers = await Promise.all([
      keepB(id, [{ a_index: 1, after_filename: '001.jpg' }]),
      keepB(id, [{ a_index: 1, after_filename: '001.jpg' }]),
    ])
    const statuses = answers.map((answer) => answer.status).sort()
    expect(statuses[0]).toBe(200)
    expect([404, 423]).toContain(statuses[1]!)
    expect(await pagePaths()).toHaveLength(before + 1)
  })

  it('keeps the pages of every item answered when two items of one archive race', async () => {
    const before = (await pagePaths()).length
    const first = await conflictItem()
    const second = await conflictItem()
    const answers = await Promise.all([
      keepB(first.id, [{ a_index: 1, after_filename: '001.jpg' }]),
      keepB(second.id, [{ a_filename: '004.jpg', before_filename: '003.jpg' }]),
    ])
    for (const answer of answers) expect([200, 423]).toContain(answer.status)
    const kept = answers.filter((answer) => answer.status === 200).length
    expect(kept).toBeGreaterThan(0)
    expect(await pagePaths()).toHaveLength(before + kept)
    const meta = await app.json(`/api/archives/${existingId}/metadata`, { cookie })
    expect(meta.body.pagecount).toBe(before + kept)
  })

  it('merges into a patch written since the caller read the archive', async () => {
    await app.json(`/api/archives/${existingId}/patch`, { method: 'DELETE', cookie })
    const stale = findArchive(app.deps.db, existingId)!
    expect(stale.hasPatch).toBe(false)
    const before = (await pagePaths()).length
    const page = async (seed: number, name: string) => ({
      data: await makeTexturedPage(seed),
      sourceName: name,
      after_filename: '001.jpg',
    })
    await addToPatch(app.deps, stale, [await page(90, 'x.jpg')])
    await addToPatch(app.deps, stale, [await page(91, 'y.jpg')])
    expect(await pagePaths()).toHaveLength(before + 2)
  })

  it('refuses to delete an item while an answer to it is carried out', async () => {
    const { id } = await conflictItem()
    const [answer, removal] = await Promise.all([
      keepB(id, [{ a_index: 1, after_filename: '001.jpg' }]),
      app.json(`/api/download_queue/${id}`, { method: 'DELETE', cookie }),
    ])
    // One went first and the other found the item busy or gone; never both half-done.
    expect([answer.status, removal.status].filter((status) => status === 200)).toHaveLength(1)
    expect([200, 404, 423]).toContain(answer.status)
    expect([200, 404, 423]).toContain(removal.status)
    expect(findDownloadItem(app.deps.db, id)).toBeUndefined()
  })
})
