// The download queue item's state table (SPEC.md section 3), row by row, through the HTTP API:
// adds checked per entry, edits (session only), deletes, starts and stops, the bulk starts and
// deletes with their silent no-ops, and clear_completed.
import { beforeAll, describe, expect, it } from 'bun:test'
import type { Bytes } from '../helpers/fixtures.ts'
import type { TestServer, Wire } from '../helpers/server.ts'
import {
  PLUGIN,
  addItem,
  getItem,
  inState,
  stagedDownloads,
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

/** An item downloading from the slow stream (16 MiB at 4 KiB per 100 ms: never done in a test). */
async function downloadingItem(): Promise<Wire> {
  const item = await addItem(app, cookie, `${site.base}/slow/big.bin?name=big.cbz`)
  expect((await post(`/api/download_queue/${item.id}/start`)).status).toBe(200)
  return waitForItem(app, cookie, item.id, inState('downloading'))
}

async function doneItem(name: string): Promise<Wire> {
  await serveCbz(name)
  const item = await addItem(app, cookie, `${site.base}/files/${name}`)
  await post(`/api/download_queue/${item.id}/start`)
  const done = await waitForItem(app, cookie, item.id, inState('done', 'error'))
  expect(done.state).toBe('done')
  return done
}

async function errorItem(): Promise<Wire> {
  const item = await addItem(app, cookie, `${site.base}/error/x.cbz`)
  await post(`/api/download_queue/${item.id}/start`)
  return waitForItem(app, cookie, item.id, inState('error'))
}

beforeAll(() => {
  site.files.set('big.bin', new Uint8Array(16 * 1024 * 1024) as Bytes)
})

describe('POST /api/download_queue', () => {
  it('adds valid entries as queued items and rejects each invalid one with its reason', async () => {
    const good = `${site.base}/files/a.cbz`
    const { status, body } = await post('/api/download_queue', {
      items: [
        { url: good, plugin_namespace: PLUGIN, auto_fetch_metadata: true },
        { url: 'not a url', plugin_namespace: PLUGIN },
        { url: 'ftp://example.com/a.zip', plugin_namespace: PLUGIN },
        { url: good, plugin_namespace: 'custom/download/missing' },
        { url: good, plugin_namespace: 'metadata/comicinfo' },
        { url: good, plugin_namespace: PLUGIN, category: 'nope' },
        { url: `https://example.com/${'a'.repeat(8200)}`, plugin_namespace: PLUGIN },
        { url: 7, plugin_namespace: PLUGIN },
        { url: good },
        'https://example.com/bare-string',
        { url: good, plugin_namespace: PLUGIN, auto_fetch_metadata: 'yes' },
      ],
    })
    expect(status).toBe(200)
    expect(body.added).toHaveLength(1)
    expect(body.added[0]).toMatchObject({
      url: good,
      plugin_namespace: PLUGIN,
      state: 'queued',
      job_id: null,
      error: null,
      archive_ids: [],
      auto_fetch_metadata: true,
    })
    expect(body.rejected).toEqual([
      { url: 'not a url', reason: 'invalid_url' },
      { url: 'ftp://example.com/a.zip', reason: 'unsupported_scheme' },
      { url: good, reason: 'plugin_not_installed' },
      { url: good, reason: 'not_a_download_plugin' },
      { url: good, reason: 'invalid_category' },
      { url: `https://example.com/${'a'.repeat(8200)}`, reason: 'url_too_long' },
      { url: '', reason: 'invalid_entry' },
      { url: good, reason: 'invalid_entry' },
      { url: '', reason: 'invalid_entry' },
      { url: good, reason: 'invalid_entry' },
    ])
    expect(await getItem(app, cookie, body.added[0].id)).toMatchObject({ state: 'queued' })
  })

  it('answers 400 with the envelope for a body that is not a list of items', async () => {
    const { status, body } = await post('/api/download_queue', { items: 'x' })
    expect(status).toBe(400)
    expect(body).toMatchObject({ success: 0 })
  })
})

describe('PATCH /api/download_queue/:id', () => {
  it('changes only the fields sent, from a session', async () => {
    const item = await addItem(app, cookie, `${site.base}/files/p.cbz`)
    const { status, body } = await app.json(`/api/download_queue/${item.id}`, {
      method: 'PATCH',
      cookie,
      json: { title: 'Renamed' },
    })
    expect(status).toBe(200)
    expect(body.success).toBe(1)
    expect(await getItem(app, cookie, item.id)).toMatchObject({
      title: 'Renamed',
      url: item.url,
      plugin_namespace: PLUGIN,
      state: 'queued',
    })
  })

  it('answers 404 for an unknown item', async () => {
    const { status, body } = await app.json('/api/download_queue/nope', {
      method: 'PATCH',
      cookie,
      json: { title: 'x' },
    })
    expect(status).toBe(404)
    expect(body).toMatchObject({ success: 0, operation: 'update_download' })
  })

  it('refuses an API token (session only)', async () => {
    const { body: created } = await app.json('/api/tokens', {
      method: 'POST',
      cookie,
      json: { name: 'client', role: 'admin' },
    })
    const item = await addItem(app, cookie, `${site.base}/files/t.cbz`)
    const { status } = await app.json(`/api/download_queue/${item.id}`, {
      method: 'PATCH',
      token: created.data.token,
      json: { title: 'x' },
    })
    expect(status).toBe(403)
    expect((await getItem(app, cookie, item.id))!.title).toBeNull()
  })
})

describe('start and stop', () => {
  it('start of a non-startable item is 409 and changes nothing (done, downloading)', async () => {
    const done = await doneItem('start-done.cbz')
    const again = await post(`/api/download_queue/${done.id}/start`)
    expect(again.status).toBe(409)
    expect(again.body).toMatchObject({ success: 0, operation: 'start_download' })
    expect((await getItem(app, cookie, done.id))!.state).toBe('done')

    const running = await downloadingItem()
    expect((await post(`/api/download_queue/${running.id}/start`)).status).toBe(409)
    const edit = await app.json(`/api/download_queue/${running.id}`, {
      method: 'PATCH',
      cookie,
      json: { title: 'x' },
    })
    expect(edit.status).toBe(409)
    expect((await post(`/api/download_queue/${running.id}/stop`)).status).toBe(200)
  })

  it('start of an unknown item is 404', async () => {
    expect((await post('/api/download_queue/nope/start')).status).toBe(404)
  })

  it('an error or cancelled item starts again; the job id stays current', async () => {
    const failed = await errorItem()
    const restart = await post(`/api/download_queue/${failed.id}/start`)
    expect(restart.status).toBe(200)
    const again = await waitForItem(app, cookie, failed.id, (i) => i.job_id === restart.body.job)
    expect(['starting', 'downloading', 'error']).toContain(again.state)
    await waitForItem(app, cookie, failed.id, inState('error'))
  })

  it('stop of a download in flight queues the item again and removes its partial file', async () => {
    const running = await downloadingItem()
    const stop = await post(`/api/download_queue/${running.id}/stop`)
    expect(stop.status).toBe(200)
    expect(stop.body.stopped).toBe(true)
    expect((await getItem(app, cookie, running.id))!.state).toBe('queued')
    await app.jobsDone()
    expect(stagedDownloads(app)).toEqual([])
    expect((await getItem(app, cookie, running.id))!.state).toBe('queued')
  })

  it('stop without a running download changes nothing and is no error', async () => {
    const item = await addItem(app, cookie, `${site.base}/files/idle.cbz`)
    const stop = await post(`/api/download_queue/${item.id}/stop`)
    expect(stop.status).toBe(200)
    expect(stop.body.stopped).toBe(false)
    expect((await getItem(app, cookie, item.id))!.state).toBe('queued')
  })
})

describe('DELETE /api/download_queue/:id', () => {
  it('removes a queued or error item', async () => {
    const item = await addItem(app, cookie, `${site.base}/files/gone.cbz`)
    const { status, body } = await app.json(`/api/download_queue/${item.id}`, {
      method: 'DELETE',
      cookie,
    })
    expect(status).toBe(200)
    expect(body.success).toBe(1)
    expect(await getItem(app, cookie, item.id)).toBeUndefined()
    const failed = await errorItem()
    expect(
      (await app.req(`/api/download_queue/${failed.id}`, { method: 'DELETE', cookie })).status,
    ).toBe(200)
  })

  it('removes a starting item whose job waits for a slot; its job then does nothing', async () => {
    // Two downloads of the plugin run at once: a third waits in starting.
    const busy = [await downloadingItem(), await downloadingItem()]
    const waiting = await addItem(app, cookie, `${site.base}/files/never.cbz`)
    const { body: start } = await post(`/api/download_queue/${waiting.id}/start`)
    expect((await getItem(app, cookie, waiting.id))!.state).toBe('starting')
    const { status } = await app.json(`/api/download_queue/${waiting.id}`, {
      method: 'DELETE',
      cookie,
    })
    expect(status).toBe(200)
    expect(await getItem(app, cookie, waiting.id)).toBeUndefined()
    for (const item of busy) await post(`/api/download_queue/${item.id}/stop`)
    const job = await app.deps.jobs.waitFor(start.job)
    expect(job.state).toBe('finished')
    expect(site.seen).not.toContain('GET /files/never.cbz')
  })

  it('is 409 while downloading and for an ingested item; 404 for an unknown one', async () => {
    const running = await downloadingItem()
    const busy = await app.json(`/api/download_queue/${running.id}`, { method: 'DELETE', cookie })
    expect(busy.status).toBe(409)
    expect(busy.body).toMatchObject({ success: 0, operation: 'delete_download' })
    await post(`/api/download_queue/${running.id}/stop`)

    const done = await doneItem('ingested.cbz')
    const ingested = await app.json(`/api/download_queue/${done.id}`, { method: 'DELETE', cookie })
    expect(ingested.status).toBe(409)
    expect(await getItem(app, cookie, done.id)).toBeDefined()

    const unknown = await app.req('/api/download_queue/nope', { method: 'DELETE', cookie })
    expect(unknown.status).toBe(404)
  })
})

describe('bulk operations', () => {
  it('start_all starts queued items only and lists the others as skipped', async () => {
    await app.jobsDone()
    const { body: before } = await app.json('/api/download_queue', { cookie })
    const queued = (before.items as Wire[]).filter((i) => i.state === 'queued').map((i) => i.id)
    const failed = await errorItem()
    const { status, body } = await post('/api/download_queue/start_all')
    expect(status).toBe(200)
    expect((body.started as Wire[]).map((s) => s.id).sort()).toEqual(queued.sort())
    for (const started of body.started) expect(typeof started.job).toBe('number')
    expect(body.skipped).toContainEqual({ id: failed.id, reason: 'error' })
    expect((await getItem(app, cookie, failed.id))!.state).toBe('error')
    // Stop what started, so later tests see a quiet queue.
    for (const started of body.started) await post(`/api/download_queue/${started.id}/stop`)
    await app.jobsDone()
  })

  it('start_selected starts the startable ids; unknown and unstartable ids are no-ops', async () => {
    const done = await doneItem('selected-done.cbz')
    const failed = await errorItem()
    const { status, body } = await post('/api/download_queue/start_selected', {
      ids: [done.id, failed.id, 'nope'],
    })
    expect(status).toBe(200)
    expect((body.started as Wire[]).map((s) => s.id)).toEqual([failed.id])
    expect((await getItem(app, cookie, done.id))!.state).toBe('done')
    await waitForItem(app, cookie, failed.id, inState('error'))
  })

  it('delete_selected removes what it can; unknown and downloading ids are no-ops', async () => {
    const a = await addItem(app, cookie, `${site.base}/files/s1.cbz`)
    const running = await downloadingItem()
    const { status, body } = await post('/api/download_queue/delete_selected', {
      ids: [a.id, running.id, 'nope'],
    })
    expect(status).toBe(200)
    expect(body.deleted).toEqual([a.id])
    expect(await getItem(app, cookie, running.id)).toBeDefined()
    await post(`/api/download_queue/${running.id}/stop`)
  })

  it('clear_completed removes done items only and answers the count', async () => {
    await doneItem('clear-me.cbz')
    const failed = await errorItem()
    const { body: before } = await app.json('/api/download_queue', { cookie })
    const done = (before.items as Wire[]).filter((i) => i.state === 'done')
    expect(done.length).toBeGreaterThan(0)
    const { status, body } = await post('/api/download_queue/clear_completed')
    expect(status).toBe(200)
    expect(body.count).toBe(done.length)
    const { body: after } = await app.json('/api/download_queue', { cookie })
    expect((after.items as Wire[]).filter((i) => i.state === 'done')).toEqual([])
    expect(await getItem(app, cookie, failed.id)).toBeDefined()
    // The archives stay in the library.
    const { status: archive } = await app.json(`/api/archives/${done[0]!.archive_ids[0]}`, {
      cookie,
    })
    expect(archive).toBe(200)
  })
})
