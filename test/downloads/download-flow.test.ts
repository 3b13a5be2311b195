// A download through the queue end to end: the test plugin answers the fake site's URL, the bytes
// stream to a staged file with the job's transfer fields, and the archive is catalogued into the
// item's category; failures of the remote site end the item in error with nothing left behind.
import { beforeAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import type { TestServer } from '../helpers/server.ts'
import {
  PLUGIN,
  addItem,
  inState,
  stagedDownloads,
  useDownloadTestWorld,
  waitForItem,
  type FakeSite,
} from './fake-site.ts'

const world = useDownloadTestWorld()
const { serveCbz } = world
let app: TestServer
let cookie: string
let site: FakeSite
beforeAll(() => void ({ app, cookie, site } = world))

describe('a queue download', () => {
  it('catalogues the archive into the item category, the job named after the plugin', async () => {
    const bytes = await serveCbz('book-one.cbz', 4)
    const { body: created } = await app.json('/api/categories', {
      method: 'PUT',
      cookie,
      body: new URLSearchParams({ name: 'Downloads' }),
    })
    const item = await addItem(app, cookie, `${site.base}/files/book-one.cbz`, {
      category: created.category_id,
    })
    expect(item.state).toBe('queued')
    expect(item.job_id).toBeNull()

    const start = await app.json(`/api/download_queue/${item.id}/start`, { method: 'POST', cookie })
    expect(start.status).toBe(200)
    expect(start.body.success).toBe(1)
    expect(typeof start.body.job).toBe('number')

    const done = await waitForItem(app, cookie, item.id, inState('done', 'error'))
    expect(done.error).toBeNull()
    expect(done.state).toBe('done')
    expect(done.job_id).toBe(start.body.job)
    expect(done.archive_ids).toHaveLength(1)
    const archiveId = done.archive_ids[0]

    const { body: archive } = await app.json(`/api/archives/${archiveId}`, { cookie })
    expect(archive.pagecount).toBe(4)
    expect(archive.filename).toBe('book-one')
    expect(await Bun.file(join(app.contentDir, 'book-one.cbz')).bytes()).toEqual(bytes)
    // The resource was fetched with the cookie of the plugin's login_from plugin.
    expect(site.cookies).toEqual(['member=42'])
    const { body: category } = await app.json(`/api/categories/${created.category_id}`, { cookie })
    expect(category.archives).toContain(archiveId)

    await app.jobsDone()
    const { body: job } = await app.json(`/api/jobqueue/${start.body.job}`, { cookie })
    expect(job.name).toBe(PLUGIN)
    expect(job.state).toBe('finished')
    expect(job.downloaded_bytes).toBe(bytes.byteLength)
    expect(job.total_bytes).toBe(bytes.byteLength)
    expect(job.rate_limit_bytes_per_sec).toBeUndefined()
    expect(stagedDownloads(app)).toEqual([])
  })

  it('follows a redirect and names the file after the plugin hint', async () => {
    await serveCbz('moved.cbz')
    const item = await addItem(
      app,
      cookie,
      `${site.base}/redirect/moved.cbz?name=Hinted%20Name.cbz`,
    )
    await app.json(`/api/download_queue/${item.id}/start`, { method: 'POST', cookie })
    const done = await waitForItem(app, cookie, item.id, inState('done', 'error'))
    expect(done.state).toBe('done')
    expect(done.title).toBe('Hinted Name')
    expect(await Bun.file(join(app.contentDir, 'Hinted Name.cbz')).exists()).toBe(true)
  })

  it('ends in error on a 500, a truncated body or a plugin refusal, leaving no file', async () => {
    await serveCbz('cut.cbz', 40)
    for (const [path, message] of [
      ['/error/x.cbz', 'HTTP 500'],
      ['/truncated/cut.cbz', 'Download failed after'],
      ['/files/x.cbz?fail=1', 'the fake site refused'],
    ] as const) {
      const item = await addItem(app, cookie, `${site.base}${path}`)
      await app.json(`/api/download_queue/${item.id}/start`, { method: 'POST', cookie })
      const failed = await waitForItem(app, cookie, item.id, inState('error', 'done'))
      expect(failed.state).toBe('error')
      expect(failed.error).toContain(message)
      expect(failed.error).not.toContain('For more information')
      expect(failed.archive_ids).toEqual([])
    }
    await app.jobsDone()
    expect(stagedDownloads(app)).toEqual([])
  })

  it('shows the domain rule of the host on the job', async () => {
    await serveCbz('limited.cbz', 2)
    const rules = await app.json(`/api/plugins/options?namespace=${PLUGIN}`, {
      method: 'PUT',
      cookie,
      json: { domain_rules: [{ pattern: '127.0.0.1', bytes_per_sec: 50_000_000 }] },
    })
    expect(rules.status).toBe(200)
    const item = await addItem(app, cookie, `${site.base}/files/limited.cbz`)
    const start = await app.json(`/api/download_queue/${item.id}/start`, { method: 'POST', cookie })
    await waitForItem(app, cookie, item.id, inState('done', 'error'))
    await app.jobsDone()
    const { body: job } = await app.json(`/api/jobqueue/${start.body.job}`, { cookie })
    expect(job.rate_limit_bytes_per_sec).toBe(50_000_000)
    expect(job.rate_limit_matched_pattern).toBe('127.0.0.1')
    await app.json(`/api/plugins/options?namespace=${PLUGIN}`, { method: 'DELETE', cookie })
  })
})
