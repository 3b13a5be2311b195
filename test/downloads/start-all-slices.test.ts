// POST /api/download_queue/start_all over thousands of items: 11,009 starts in one go held every
// other request for 21.5 s. They go a slice at a time now; a request sent once the starts have
// begun is answered before the last of them.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type { TestServer, Wire } from '../helpers/server.ts'
import { PLUGIN, startDownloadServer } from './fake-site.ts'

const ITEMS = 3000

let app: TestServer
let cookie: string

beforeAll(async () => {
  app = await startDownloadServer()
  cookie = await app.login()
  for (let at = 0; at < ITEMS; at += 1000) {
    const items = Array.from({ length: 1000 }, (_, i) => ({
      // Port 9 (discard) refuses: each download fails fast once its job runs.
      url: `http://127.0.0.1:9/gallery/${at + i}`,
      plugin_namespace: PLUGIN,
    }))
    const { status } = await app.json('/api/download_queue', {
      method: 'POST',
      cookie,
      json: { items },
    })
    expect(status).toBe(200)
  }
}, 60_000)

afterAll(() => app[Symbol.asyncDispose]())

describe('POST /api/download_queue/start_all', () => {
  it('lets other requests through while it starts thousands of items', async () => {
    const finished: string[] = []
    let info: Promise<void> | null = null
    // Sent from inside the first start, so it surely arrives while the others are under way.
    const stop = app.deps.events.subscribe('download.saved', () => {
      info ??= app.req('/api/info').then(async (res) => {
        expect(res.status).toBe(200)
        await res.arrayBuffer()
        finished.push('info')
      })
    })
    const startAll = app
      .json('/api/download_queue/start_all', { method: 'POST', cookie })
      .then((answer) => {
        finished.push('start_all')
        return answer
      })
    const { status, body } = await startAll
    await info
    stop()
    expect(status).toBe(200)
    expect((body.started as Wire[]).length).toBe(ITEMS)
    expect(body.skipped).toEqual([])
    expect(finished).toEqual(['info', 'start_all'])
  }, 120_000)
})
