// Downloads of several resources (bundled into one CBZ when the plugin's bundle_as_archive says so,
// catalogued one by one otherwise), the one-off POST /api/download_url job, and metadata previews
// (fetch-metadata, kept ten minutes and reused by the automatic fetch after the download).
import { beforeAll, describe, expect, it } from 'bun:test'
import { makeJpeg } from '../helpers/fixtures.ts'
import type { TestServer } from '../helpers/server.ts'
import { downloadRuntime, METADATA_PREVIEW_TTL_MS } from '../../src/domain/downloads/runtime.ts'
import {
  METADATA_PLUGIN,
  PLUGIN,
  addItem,
  inState,
  useDownloadTestWorld,
  waitForItem,
  type FakeSite,
} from './fake-site.ts'

const world = useDownloadTestWorld()
const { serveCbz, post } = world
let app: TestServer
let cookie: string
let site: FakeSite
beforeAll(() => void ({ app, cookie, site } = world))

describe('several resources', () => {
  it('are bundled into one CBZ in the plugin order when bundle_as_archive is on', async () => {
    let total = 0
    for (const [i, name] of ['p1.jpg', 'p2.jpg', 'p3.png'].entries()) {
      const bytes = await makeJpeg(20, 30, 700 + i)
      total += bytes.byteLength
      site.files.set(name, bytes)
    }
    const options = await app.json(`/api/plugins/options?namespace=${PLUGIN}`, {
      method: 'PUT',
      cookie,
      json: { bundle_as_archive: true },
    })
    expect(options.status).toBe(200)
    const item = await addItem(
      app,
      cookie,
      `${site.base}/files/gallery?part=/files/p1.jpg&part=/files/p2.jpg&part=/files/p3.png`,
    )
    const start = await post(`/api/download_queue/${item.id}/start`)
    const done = await waitForItem(app, cookie, item.id, inState('done', 'error'))
    expect(done.error).toBeNull()
    expect(done.archive_ids).toHaveLength(1)
    const { body: files } = await app.json(`/api/archives/${done.archive_ids[0]}/files`, { cookie })
    expect(files.pages).toHaveLength(3)
    const { body: archive } = await app.json(`/api/archives/${done.archive_ids[0]}`, { cookie })
    expect(archive.filename).toBe('gallery')
    expect(archive.extension).toBe('cbz')
    await app.jobsDone()
    const { body: job } = await app.json(`/api/jobqueue/${start.body.job}`, { cookie })
    expect(job.total_bytes).toBe(total)
    expect(job.downloaded_bytes).toBe(total)
    await app.json(`/api/plugins/options?namespace=${PLUGIN}`, { method: 'DELETE', cookie })
  })

  it('are catalogued one by one without bundling', async () => {
    await serveCbz('vol1.cbz')
    await serveCbz('vol2.cbz', 2)
    const item = await addItem(
      app,
      cookie,
      `${site.base}/files/series?part=/files/vol1.cbz&part=/files/vol2.cbz`,
    )
    await post(`/api/download_queue/${item.id}/start`)
    const done = await waitForItem(app, cookie, item.id, inState('done', 'error'))
    expect(done.state).toBe('done')
    expect(done.archive_ids).toHaveLength(2)
  })
})

describe('POST /api/download_url', () => {
  it('queues a download_url job with the plugin whose url_regex matches', async () => {
    await serveCbz('oneoff.cbz', 2)
    const { body: category } = await app.json('/api/categories', {
      method: 'PUT',
      cookie,
      body: new URLSearchParams({ name: 'One-offs' }),
    })
    const url = `${site.base}/files/oneoff.cbz`
    const { status, body } = await post(
      `/api/download_url?url=${encodeURIComponent(url)}&catid=${category.category_id}`,
    )
    expect(status).toBe(200)
    expect(body).toMatchObject({ success: 1, operation: 'download_url', url })
    expect([PLUGIN, 'download/direct']).toContain(body.plugin)
    const job = await app.deps.jobs.waitFor(body.job)
    expect(job.name).toBe('download_url')
    expect(job.state).toBe('finished')
    const [id] = JSON.parse(job.result!).archive_ids
    const { body: members } = await app.json(`/api/categories/${category.category_id}`, { cookie })
    expect(members.archives).toEqual([id])

    // The same file again: the job fails with the existing id.
    const again = await post(`/api/download_url?url=${encodeURIComponent(url)}`)
    const failed = await app.deps.jobs.waitFor(again.body.job)
    expect(failed.state).toBe('failed')
    expect(failed.error).toContain(id)
  })

  it('answers 400 when no download plugin matches the URL, or it is not http(s)', async () => {
    for (const url of ['https://example.com/gallery/1', 'ftp://x/a.zip', '']) {
      const { status, body } = await post(`/api/download_url?url=${encodeURIComponent(url)}`)
      expect(status).toBe(400)
      expect(body).toMatchObject({ success: 0, operation: 'download_url' })
    }
  })
})

describe('POST /api/download_queue/:id/fetch-metadata', () => {
  it('runs the matching metadata plugin, keeps the preview and applies it after download', async () => {
    await serveCbz('meta1.cbz')
    const item = await addItem(app, cookie, `${site.base}/files/meta1.cbz`, {
      auto_fetch_metadata: true,
    })
    const first = await post(`/api/download_queue/${item.id}/fetch-metadata`)
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({
      plugin: METADATA_PLUGIN,
      cached: false,
      data: { new_tags: 'fake:meta1, from:plugin' },
    })
    const second = await post(`/api/download_queue/${item.id}/fetch-metadata`)
    expect(second.body).toMatchObject({ cached: true, fetched_at: first.body.fetched_at })
    // Ten minutes later the preview is fetched again.
    const kept = downloadRuntime(app.deps).previews.get(item.id)!
    kept.fetchedAt -= METADATA_PREVIEW_TTL_MS
    const third = await post(`/api/download_queue/${item.id}/fetch-metadata`)
    expect(third.body.cached).toBe(false)
    expect(third.body.fetched_at).toBeGreaterThan(kept.fetchedAt)

    await post(`/api/download_queue/${item.id}/start`)
    const done = await waitForItem(app, cookie, item.id, inState('done', 'error'))
    await app.jobsDone()
    const { body: archive } = await app.json(`/api/archives/${done.archive_ids[0]}`, { cookie })
    expect(archive.tags).toContain('fake:meta1')
  })

  it('runs the plugin on the new archive when no preview was fetched', async () => {
    await serveCbz('meta2.cbz')
    const item = await addItem(app, cookie, `${site.base}/files/meta2.cbz`, {
      auto_fetch_metadata: true,
    })
    await post(`/api/download_queue/${item.id}/start`)
    const done = await waitForItem(app, cookie, item.id, inState('done', 'error'))
    await app.jobsDone()
    const { body: archive } = await app.json(`/api/archives/${done.archive_ids[0]}`, { cookie })
    expect(archive.tags).toContain('fake:meta2')
  })

  it('answers 400 when no metadata plugin matches and 404 for an unknown item', async () => {
    const item = await addItem(app, cookie, `${site.base}/files/x.cbz`)
    await app.json(`/api/download_queue/${item.id}`, {
      method: 'PATCH',
      cookie,
      json: { url: 'https://example.com/x.cbz' },
    })
    expect((await post(`/api/download_queue/${item.id}/fetch-metadata`)).status).toBe(400)
    expect((await post('/api/download_queue/nope/fetch-metadata')).status).toBe(404)
  })
})
