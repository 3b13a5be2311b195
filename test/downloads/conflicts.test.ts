// What a download meets in the library: the same file (error with the existing id), another file
// under its name (the item waits with its staged file; overwrite carries progress, categories and
// rating tags over, optionally keeping old pages in a patch; rename catalogues under a new name or
// raises a new conflict), and a newer revision already catalogued (the item asks first).
import { beforeAll, describe, expect, it } from 'bun:test'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { rm } from 'node:fs/promises'
import { seedArchive } from '../helpers/seed.ts'
import type { TestServer, Wire } from '../helpers/server.ts'
import {
  addItem,
  getItem,
  inState,
  stagedDownloads,
  useDownloadTestWorld,
  waitForItem,
  type FakeSite,
} from './fake-site.ts'

const world = useDownloadTestWorld()
const { post } = world
let app: TestServer
let cookie: string
let site: FakeSite
beforeAll(() => void ({ app, cookie, site } = world))
let served = 0

/** Serves a fresh CBZ (its own bytes) under /files/<key>; answers the key. */
async function serveCbz(pages = 3): Promise<string> {
  const key = `f${++served}.cbz`
  await world.serveCbz(key, pages)
  return key
}

/** Downloads /files/<key> named `name`; answers the item once it settles. */
async function download(key: string, name: string, settled = inState('done', 'error', 'waiting')) {
  const item = await addItem(
    app,
    cookie,
    `${site.base}/files/${key}?name=${encodeURIComponent(name)}`,
  )
  expect((await post(`/api/download_queue/${item.id}/start`)).status).toBe(200)
  return waitForItem(app, cookie, item.id, settled)
}

/** A library archive named `name` and an item waiting on its name with other bytes. */
async function nameConflict(name: string): Promise<{ existing: Wire; item: Wire }> {
  const existing = await download(await serveCbz(), name)
  expect(existing.state).toBe('done')
  const item = await download(await serveCbz(), name)
  return { existing, item }
}

beforeAll(() => app.idle())

describe('same content as an archive in the library', () => {
  it('ends the item in error with the existing archive id, nothing catalogued', async () => {
    const key = await serveCbz()
    const first = await download(key, 'original.cbz')
    const again = await download(key, 'copy.cbz')
    expect(again.state).toBe('error')
    expect(again.existing_id).toBe(first.archive_ids[0])
    expect(again.error).toContain(first.archive_ids[0])
    expect(await Bun.file(join(app.contentDir, 'copy.cbz')).exists()).toBe(false)
    expect(stagedDownloads(app)).toEqual([])
  })
})

describe('another file under the same name', () => {
  it('parks the item waiting, its staged file kept; start is 409', async () => {
    const { existing, item } = await nameConflict('clash.cbz')
    expect(item.state).toBe('waiting')
    expect(item.pending_filename_conflict).toEqual({
      existing_id: existing.archive_ids[0],
      filename: 'clash.cbz',
    })
    expect(item.existing_id).toBe(existing.archive_ids[0])
    expect(stagedDownloads(app)).toHaveLength(1)
    expect((await post(`/api/download_queue/${item.id}/start`)).status).toBe(409)
    // Deleting the item removes its staged file.
    expect(
      (await app.req(`/api/download_queue/${item.id}`, { method: 'DELETE', cookie })).status,
    ).toBe(200)
    expect(stagedDownloads(app)).toEqual([])
  })

  it('rename catalogues it under the new name; a taken name is a new conflict', async () => {
    const { existing, item } = await nameConflict('rename-me.cbz')
    const other = await download(await serveCbz(), 'taken.cbz')
    const clash = await post(`/api/download_queue/${item.id}/rename`, { filename: 'taken.cbz' })
    expect(clash.status).toBe(200)
    expect(clash.body).toMatchObject({ state: 'waiting', existing_id: other.archive_ids[0] })
    expect((await getItem(app, cookie, item.id))!.pending_filename_conflict).toEqual({
      existing_id: other.archive_ids[0],
      filename: 'taken.cbz',
    })
    expect(stagedDownloads(app)).toHaveLength(1)

    const bad = await post(`/api/download_queue/${item.id}/rename`, { filename: '../x.cbz' })
    expect(bad.status).toBe(400)

    const renamed = await post(`/api/download_queue/${item.id}/rename`, { filename: 'Renamed.cbz' })
    expect(renamed.status).toBe(200)
    expect(renamed.body.state).toBe('done')
    const done = await getItem(app, cookie, item.id)
    expect(done).toMatchObject({ state: 'done', archive_ids: [renamed.body.archive_id] })
    expect(done!.pending_filename_conflict).toBeUndefined()
    const { body: archive } = await app.json(`/api/archives/${renamed.body.archive_id}`, { cookie })
    expect(archive.filename).toBe('Renamed')
    // The archive holding the name stays.
    expect((await app.req(`/api/archives/${existing.archive_ids[0]}`, { cookie })).status).toBe(200)
    expect(stagedDownloads(app)).toEqual([])
  })

  it('overwrite replaces the archive, carrying progress, static categories and rating tags', async () => {
    const { existing, item } = await nameConflict('replace.cbz')
    const oldId = existing.archive_ids[0]
    expect(
      (await app.req(`/api/archives/${oldId}/progress/2`, { method: 'PUT', cookie })).status,
    ).toBe(200)
    await app.req(`/api/archives/${oldId}/metadata`, {
      method: 'PUT',
      cookie,
      body: new URLSearchParams({ tags: 'rating:⭐⭐⭐, artist:someone' }),
    })
    const { body: category } = await app.json('/api/categories', {
      method: 'PUT',
      cookie,
      body: new URLSearchParams({ name: 'Kept' }),
    })
    await app.req(`/api/categories/${category.category_id}/${oldId}`, { method: 'PUT', cookie })

    const { status, body } = await post(`/api/download_queue/${item.id}/overwrite`)
    expect(status).toBe(200)
    expect(body.state).toBe('done')
    const newId = body.archive_id
    expect(newId).not.toBe(oldId)
    expect((await app.req(`/api/archives/${oldId}`, { cookie })).status).not.toBe(200)
    const { body: archive } = await app.json(`/api/archives/${newId}`, { cookie })
    expect(archive.filename).toBe('replace')
    expect(archive.progress).toBe(2)
    expect(archive.tags).toContain('rating:⭐⭐⭐')
    expect(archive.tags).not.toContain('artist:someone')
    const { body: kept } = await app.json(`/api/categories/${category.category_id}`, { cookie })
    expect(kept.archives).toEqual([newId])
    expect((await getItem(app, cookie, item.id))!).toMatchObject({
      state: 'done',
      archive_ids: [newId],
    })
    expect(stagedDownloads(app)).toEqual([])
  })

  it('overwrite with insertions keeps the picked old pages in a patch of the new archive', async () => {
    const { existing, item } = await nameConflict('patched.cbz')
    const bad = await post(`/api/download_queue/${item.id}/overwrite`, {
      insertions: [{ b_index: 99, after_filename: '001.jpg' }],
    })
    expect(bad.status).toBe(400)
    expect((await app.req(`/api/archives/${existing.archive_ids[0]}`, { cookie })).status).toBe(200)

    const { status, body } = await post(`/api/download_queue/${item.id}/overwrite`, {
      insertions: [{ b_index: 0, after_filename: '001.jpg' }],
    })
    expect(status).toBe(200)
    const { body: files } = await app.json(`/api/archives/${body.archive_id}/files`, { cookie })
    expect(files.pages).toHaveLength(4)
  })

  it('overwrite of a staged file that cannot be read is 422 and keeps the old archive', async () => {
    const { existing, item } = await nameConflict('unreadable.cbz')
    const [staged] = stagedDownloads(app)
    await Bun.write(join(app.deps.config.tempDir, staged!), 'PK\u0003\u0004 not really a zip')
    const { status, body } = await post(`/api/download_queue/${item.id}/overwrite`)
    expect(status).toBe(422)
    expect(body.success).toBe(0)
    expect((await app.req(`/api/archives/${existing.archive_ids[0]}`, { cookie })).status).toBe(200)
    expect((await getItem(app, cookie, item.id))!.state).toBe('waiting')
    await app.req(`/api/download_queue/${item.id}`, { method: 'DELETE', cookie })
    expect(stagedDownloads(app)).toEqual([])
  })

  it('a staged file removed behind its back ends the item in error, startable again', async () => {
    const { existing, item } = await nameConflict('vanished.cbz')
    const [staged] = stagedDownloads(app)
    await rm(join(app.deps.config.tempDir, staged!))
    const { status, body } = await post(`/api/download_queue/${item.id}/rename`, {
      filename: 'elsewhere.cbz',
    })
    expect(status).toBe(409)
    expect(body).toMatchObject({ success: 0 })
    expect(body.error).toContain('staged download file is gone')
    const after = (await getItem(app, cookie, item.id))!
    expect(after).toMatchObject({ state: 'error', error: expect.stringContaining('gone') })
    expect(after.pending_filename_conflict).toBeUndefined()
    expect((await post(`/api/download_queue/${item.id}/overwrite`)).status).toBe(409)
    expect((await app.req(`/api/archives/${existing.archive_ids[0]}`, { cookie })).status).toBe(200)
    // Started again, it downloads anew and waits on the name again.
    expect((await post(`/api/download_queue/${item.id}/start`)).status).toBe(200)
    const again = await waitForItem(app, cookie, item.id, inState('done', 'error', 'waiting'))
    expect(again.state).toBe('waiting')
    expect(
      (await app.req(`/api/download_queue/${item.id}`, { method: 'DELETE', cookie })).status,
    ).toBe(200)
  })

  it('overwrite that cannot place the download (disk full) puts the old archive back as it was', async () => {
    const { existing, item } = await nameConflict('kept-on-failure.cbz')
    const oldId = existing.archive_ids[0]
    await app.req(`/api/archives/${oldId}/metadata`, {
      method: 'PUT',
      cookie,
      body: new URLSearchParams({ tags: 'artist:kept' }),
    })
    const before = await Bun.file(join(app.contentDir, 'kept-on-failure.cbz')).bytes()
    app.deps.archives.uploads.placementFault = () =>
      Object.assign(new Error('no space left on device'), { code: 'ENOSPC' })
    try {
      const { status, body } = await post(`/api/download_queue/${item.id}/overwrite`)
      expect(status).toBe(500)
      expect(body.success).toBe(0)
    } finally {
      app.deps.archives.uploads.placementFault = undefined
    }
    const { status, body: archive } = await app.json(`/api/archives/${oldId}`, { cookie })
    expect(status).toBe(200)
    expect(archive.filename).toBe('kept-on-failure')
    expect(archive.tags).toContain('artist:kept')
    expect(await Bun.file(join(app.contentDir, 'kept-on-failure.cbz')).bytes()).toEqual(before)
    const page = await app.req(`/api/archives/${oldId}/thumbnail?page=1`, { cookie })
    expect([200, 202]).toContain(page.status)
    const found = await app.json(`/api/search?filter=${encodeURIComponent('artist:kept')}`, {
      cookie,
    })
    expect(found.body.data.map((a: Wire) => a.arcid)).toEqual([oldId])
    expect(readdirSync(app.contentDir).filter((name) => name.includes('.tankobun-tmp-'))).toEqual(
      [],
    )
  })

  it('can be compared page by page and answered with keep-b (compare routes of download-compare.ts)', async () => {
    const { existing, item } = await nameConflict('compare-me.cbz')
    const compared = await post(`/api/download_queue/${item.id}/compare`)
    expect(compared.status).toBe(200)
    const keep = await post(`/api/download_queue/${item.id}/compare/keep-b`, {})
    expect(keep.status).toBe(200)
    expect(await getItem(app, cookie, item.id)).toBeUndefined()
    expect(stagedDownloads(app)).toEqual([])
    expect((await app.req(`/api/archives/${existing.archive_ids[0]}`, { cookie })).status).toBe(200)
  })

  it('overwrite or rename of an item without a waiting conflict is 409', async () => {
    const item = await addItem(app, cookie, `${site.base}/files/none.cbz`)
    expect((await post(`/api/download_queue/${item.id}/overwrite`)).status).toBe(409)
    expect(
      (await post(`/api/download_queue/${item.id}/rename`, { filename: 'a.cbz' })).status,
    ).toBe(409)
    expect((await post('/api/download_queue/nope/overwrite')).status).toBe(404)
  })
})

describe('an older revision of an archive in the library', () => {
  it('asks before any byte moves; no cancels, yes downloads once, other starts ask again', async () => {
    const newer = seedArchive(app.deps, { tags: `source:${site.base}/g/2/`.replace('http://', '') })
    const key = await serveCbz()
    const history = [
      { source: `${site.base}/g/1/`, posted_at: '2020-01-01T00:00:00Z' },
      { source: `${site.base}/g/2/`, posted_at: '2021-06-01T00:00:00Z' },
    ]
    const url = `${site.base}/files/${key}?name=old.cbz&vh=${encodeURIComponent(JSON.stringify(history))}`
    const item = await addItem(app, cookie, url)
    await post(`/api/download_queue/${item.id}/start`)
    const parked = await waitForItem(
      app,
      cookie,
      item.id,
      inState('awaiting_revision_confirmation', 'done', 'error'),
    )
    expect(parked.state).toBe('awaiting_revision_confirmation')
    expect(parked.pending_revision_confirmation).toEqual({ newer_archive_id: newer.id })
    expect(site.seen).not.toContain(`GET /files/${key}`)

    expect((await post(`/api/download_queue/${item.id}/start`)).status).toBe(409)
    expect(
      (await post(`/api/download_queue/${item.id}/confirm-older`, { proceed: 'yes' })).status,
    ).toBe(400)

    const no = await post(`/api/download_queue/${item.id}/confirm-older`, { proceed: false })
    expect(no.status).toBe(200)
    expect(await getItem(app, cookie, item.id)).toMatchObject({
      state: 'cancelled',
      revision_confirmed: false,
    })
    expect(
      (await post(`/api/download_queue/${item.id}/confirm-older`, { proceed: true })).status,
    ).toBe(409)

    // A plain start clears the earlier answer: the question comes back.
    await post(`/api/download_queue/${item.id}/start`)
    await waitForItem(app, cookie, item.id, inState('awaiting_revision_confirmation'))

    const yes = await post(`/api/download_queue/${item.id}/confirm-older`, { proceed: true })
    expect(yes.status).toBe(200)
    expect(typeof yes.body.job).toBe('number')
    const done = await waitForItem(
      app,
      cookie,
      item.id,
      inState('done', 'error', 'awaiting_revision_confirmation'),
    )
    expect(done.state).toBe('done')
    expect(done.revision_confirmed).toBe(true)
    expect(site.seen).toContain(`GET /files/${key}`)
  })
})
