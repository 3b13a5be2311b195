// The queue's event stream read by a real client (fetch, reading the body): `full` first, then a
// delta for every committed write and throttled transfer progress; a reconnect gets `full` again.
// And a server stopped mid-download: the next one on the same folders loses no item and leaves
// none in flight.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { makeCbz, type Bytes } from '../helpers/fixtures.ts'
import { TEST_PASSWORD, type TestServer, type Wire } from '../helpers/server.ts'
import {
  PLUGIN,
  addItem,
  getItem,
  inState,
  sideloadPlugins,
  stagedDownloads,
  startDownloadServer,
  startFakeSite,
  waitForItem,
  type FakeSite,
} from './fake-site.ts'
import { listeningUrl } from '../helpers/child-server.ts'

type SseEvent = { event: string; data: Wire }

/** A stream client: events as they arrive, `next` waits for one that matches. */
async function openStream(app: TestServer, cookie: string) {
  const abort = new AbortController()
  const res = await fetch(`${app.url}/api/download_queue/stream`, {
    headers: { cookie },
    signal: abort.signal,
  })
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toContain('text/event-stream')
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  const events: SseEvent[] = []
  let buffer = ''
  let read = 0
  const pump = async () => {
    const { done, value } = await reader.read()
    if (done) throw new Error('stream ended')
    buffer += decoder.decode(value, { stream: true })
    let cut: number
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut)
      buffer = buffer.slice(cut + 2)
      const event = block.match(/^event: (.*)$/m)?.[1]
      const data = block.match(/^data: (.*)$/m)?.[1]
      if (event && data) events.push({ event, data: JSON.parse(data) })
    }
  }
  return {
    events,
    /** The next event (after those already returned) matching `match`, within 10 s. */
    async next(match: (e: SseEvent) => boolean): Promise<SseEvent> {
      const until = Date.now() + 10_000
      for (;;) {
        while (read < events.length) {
          const e = events[read++]!
          if (match(e)) return e
        }
        if (Date.now() > until) throw new Error('no matching event')
        await pump()
      }
    },
    close: () => abort.abort(),
  }
}

const delta = (kind: string, id?: string) => (e: SseEvent) =>
  e.event === 'delta' &&
  e.data.kind === kind &&
  (id === undefined || (e.data.id ?? e.data.item?.id) === id)

let site: FakeSite
const scratch = mkdtempSync(join(tmpdir(), 'tankobun-dl-'))
let cbz: Bytes
let other: Bytes

beforeAll(async () => {
  site = await startFakeSite()
  site.files.set('big.bin', new Uint8Array(8 * 1024 * 1024) as Bytes)
  cbz = new Uint8Array(
    await readFile(await makeCbz(join(scratch, 'ok.cbz'), { pages: 3 })),
  ) as Bytes
  site.files.set('ok.cbz', cbz)
  other = new Uint8Array(
    await readFile(await makeCbz(join(scratch, 'other.cbz'), { pages: 2 })),
  ) as Bytes
})

afterAll(() => {
  site?.stop()
  rmSync(scratch, { recursive: true, force: true })
})

describe('GET /api/download_queue/stream', () => {
  let app: TestServer
  let cookie: string
  beforeAll(async () => {
    app = await startDownloadServer()
    cookie = await app.login()
  })
  afterAll(() => app?.[Symbol.asyncDispose]())

  it('sends full first, then add, update, progress and remove deltas', async () => {
    const before = await addItem(app, cookie, `${site.base}/files/ok.cbz?name=before.cbz`)
    const stream = await openStream(app, cookie)
    const full = await stream.next(() => true)
    expect(full.event).toBe('full')
    expect(full.data.type).toBe('full')
    expect((full.data.items as Wire[]).map((i) => i.id)).toEqual([before.id])

    const item = await addItem(app, cookie, `${site.base}/slow/big.bin?name=big.cbz`)
    const added = await stream.next(delta('add', item.id))
    expect(added.data).toMatchObject({ type: 'delta', item: { id: item.id, state: 'queued' } })

    const { body: start } = await app.json(`/api/download_queue/${item.id}/start`, {
      method: 'POST',
      cookie,
    })
    const starting = await stream.next(delta('update', item.id))
    expect(starting.data).toMatchObject({ state: 'starting', job_id: start.job, error: null })
    expect((await stream.next(delta('update', item.id))).data.state).toBe('downloading')
    const progress = await stream.next(delta('progress', item.id))
    expect(progress.data).toMatchObject({ job_id: start.job, total_bytes: 8 * 1024 * 1024 })
    expect(progress.data.downloaded_bytes).toBeGreaterThan(0)
    expect(progress.data.downloaded_bytes).toBeLessThan(8 * 1024 * 1024)
    // The job shows the same transfer fields while it runs.
    const { body: job } = await app.json(`/api/jobqueue/${start.job}`, { cookie })
    expect(job).toMatchObject({ state: 'active', total_bytes: 8 * 1024 * 1024 })
    expect(job.downloaded_bytes).toBeGreaterThan(0)

    await app.req(`/api/download_queue/${item.id}/stop`, { method: 'POST', cookie })
    expect((await stream.next(delta('update', item.id))).data.state).toBe('queued')
    await app.req(`/api/download_queue/${item.id}`, { method: 'DELETE', cookie })
    expect((await stream.next(delta('remove', item.id))).data).toEqual({
      type: 'delta',
      kind: 'remove',
      id: item.id,
    })
    stream.close()

    // A client that comes back gets the whole list again.
    const again = await openStream(app, cookie)
    const fullAgain = await again.next(() => true)
    expect(fullAgain.event).toBe('full')
    expect((fullAgain.data.items as Wire[]).map((i) => i.id)).toEqual([before.id])
    again.close()
  })

  it('needs credentials like the other dash routes', async () => {
    const res = await fetch(`${app.url}/api/download_queue/stream`)
    expect(res.status).toBe(401)
    await res.body?.cancel()
  })
})

describe('a server stopped mid-download', () => {
  it('comes back with the download marked stale_after_restart and nothing lost', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tankobun-restart-'))
    try {
      const first = await startDownloadServer(root)
      const cookie = await first.login()
      const done = await addItem(first, cookie, `${site.base}/files/ok.cbz?name=kept.cbz`)
      await first.req(`/api/download_queue/${done.id}/start`, { method: 'POST', cookie })
      await waitForItem(first, cookie, done.id, inState('done'))
      const waiting = await addItem(first, cookie, `${site.base}/files/ok.cbz?name=idle.cbz`)
      const running = await addItem(first, cookie, `${site.base}/slow/big.bin?name=big.cbz`)
      const { body: start } = await first.json(`/api/download_queue/${running.id}/start`, {
        method: 'POST',
        cookie,
      })
      await waitForItem(first, cookie, running.id, inState('downloading'))
      await first.stop()
      // What a crash would leave: a staged download no item points at.
      const orphan = join(first.deps.config.tempDir, 'download-left-by-a-crash')
      await Bun.write(orphan, 'partial')

      const second = await startDownloadServer(root)
      try {
        const cookie2 = await second.login()
        const { body } = await second.json('/api/download_queue', { cookie: cookie2 })
        const byId = new Map((body.items as Wire[]).map((i) => [i.id, i]))
        expect(byId.size).toBe(3)
        expect(byId.get(done.id)).toMatchObject({ state: 'done' })
        expect(byId.get(waiting.id)).toMatchObject({ state: 'queued' })
        expect(byId.get(running.id)).toMatchObject({ state: 'error', error: 'stale_after_restart' })
        expect(stagedDownloads(second)).toEqual([])
        expect(await Bun.file(orphan).exists()).toBe(false)
        const { body: job } = await second.json(`/api/jobqueue/${start.job}`, { cookie: cookie2 })
        expect(job.state).toBe('failed')

        // Startable again, and it completes this time.
        site.files.set('big.bin', other)
        await second.req(`/api/download_queue/${running.id}/start`, {
          method: 'POST',
          cookie: cookie2,
        })
        const retried = await waitForItem(second, cookie2, running.id, inState('done', 'error'))
        expect(retried.state).toBe('done')
        expect(await getItem(second, cookie2, waiting.id)).toMatchObject({ state: 'queued' })
      } finally {
        await second.stop()
      }
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
    // Two server starts, each with its own sandbox.
  }, 30_000)

  it('after a kill (SIGKILL mid-download) the next start leaves no item in flight', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tankobun-kill-'))
    try {
      const contentDir = join(root, 'content')
      mkdirSync(contentDir, { recursive: true })
      sideloadPlugins(contentDir)
      const proc = Bun.spawn(
        [
          process.execPath,
          join(import.meta.dir, '..', '..', 'src', 'main.ts'),
          ...['--port', '0', '--host', '127.0.0.1', '--password', TEST_PASSWORD],
          ...['--watch', 'false', '--log-level', 'silent', '--fetch-allow-private', '127.0.0.1'],
          ...['--data-dir', join(root, 'data'), '--content-dir', contentDir],
        ],
        { stdout: 'pipe', stderr: 'ignore' },
      )
      let item: Wire
      try {
        const url = await listeningUrl(proc.stdout)
        const login = await fetch(`${url}/api/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ password: TEST_PASSWORD }),
        })
        const cookie = login.headers
          .getSetCookie()
          .map((c) => c.split(';')[0])
          .join('; ')
        const api = (path: string, body?: unknown) =>
          fetch(url + path, {
            method: 'POST',
            headers: { cookie, 'content-type': 'application/json' },
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          }).then((r) => r.json() as Promise<Wire>)
        site.files.set('huge.bin', new Uint8Array(8 * 1024 * 1024) as Bytes)
        const added = await api('/api/download_queue', {
          items: [{ url: `${site.base}/slow/huge.bin?name=huge.cbz`, plugin_namespace: PLUGIN }],
        })
        item = added.added[0]
        await api(`/api/download_queue/${item.id}/start`)
        // Killed once bytes have landed in the staged file.
        const temp = join(root, 'data', 'temp')
        for (let waited = 0; waited < 20_000; waited += 25) {
          const partial = readdirSync(temp).find((n) => n.startsWith('download-'))
          if (partial && Bun.file(join(temp, partial)).size > 0) break
          await Bun.sleep(25)
        }
      } finally {
        proc.kill('SIGKILL')
        await proc.exited
      }
      // The killed server's partial file is still there.
      expect(readdirSync(join(root, 'data', 'temp')).some((n) => n.startsWith('download-'))).toBe(
        true,
      )

      const next = await startDownloadServer(root)
      try {
        const cookie = await next.login()
        expect(await getItem(next, cookie, item!.id)).toMatchObject({
          state: 'error',
          error: 'stale_after_restart',
        })
        expect(stagedDownloads(next)).toEqual([])
      } finally {
        await next.stop()
      }
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 30_000)
})
