import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { copyFile, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { commit } from '../../src/domain/commit.ts'
import { insertDownloadRow } from '../../src/domain/downloads/item-save.ts'
import { findDownloadItem } from '../../src/db/repos/downloads.repo.ts'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { makeComparisonCbz, makeTexturedPage, numbered } from './pages.ts'

let app: TestServer
let cookie: string
let existingId: string
let downloadSource: string

const EXISTING = numbered([51, 52, 53, 54])
// The download has one page more (after the existing 002.jpg) and a blurred 004.
const DOWNLOAD = numbered([51, 52, 77, 53, { seed: 54, blur: 2 }])

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

/** An item waiting on a filename conflict, as the queue leaves it: a staged copy of the download. */
async function conflictItem(options: { staged?: boolean; existing?: string | null } = {}) {
  const id = crypto.randomUUID()
  const tempPath = join(app.deps.config.tempDir, `download-${crypto.randomUUID()}`)
  if (options.staged !== false) await copyFile(downloadSource, tempPath)
  const existing = options.existing === undefined ? existingId : options.existing
  const now = Date.now()
  commit(app.deps, (w) =>
    insertDownloadRow(w, {
      id,
      url: 'https://example.test/g/1',
      pluginNamespace: 'download/direct',
      state: 'waiting',
      tempPath: options.staged === false ? null : tempPath,
      existingId: existing,
      pendingFilenameConflict: JSON.stringify({ existing_id: existing, filename: 'Book.cbz' }),
      createdAt: now,
      updatedAt: now,
    }),
  )
  return { id, tempPath }
}

type SseEvent = { event: string; data: Wire }

async function readStream(path: string): Promise<SseEvent[]> {
  const res = await app.req(path, { cookie })
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toContain('text/event-stream')
  const text = await res.text()
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('event: '))
    .map((block) => {
      const [eventLine, dataLine] = block.split('\n')
      return { event: eventLine!.slice(7), data: JSON.parse(dataLine!.slice(6)) as Wire }
    })
}

describe('POST /api/download_queue/:id/compare', () => {
  it('aligns the download with the existing archive and rates each pair', async () => {
    const { id } = await conflictItem()
    const { status, body } = await app.json(`/api/download_queue/${id}/compare`, {
      method: 'POST',
      cookie,
    })
    expect(status).toBe(200)
    expect(body).toMatchObject({ success: 1, a_total: 5, b_total: 4, unmatched_b: [] })
    expect(body.pairs.map((p: Wire) => [p.a_index, p.b_index])).toEqual([
      [0, 0],
      [1, 1],
      [3, 2],
      [4, 3],
    ])
    expect(body.pairs[3]).toMatchObject({
      a_filename: '005.jpg',
      b_filename: '004.jpg',
      better: 'b',
    })
    expect(body.unmatched_a).toEqual([
      { index: 2, filename: '003.jpg', after_filename: '002.jpg', before_filename: '003.jpg' },
    ])
    expect(body.recommendation).toBe('keep_b_with_insertions')
    expect(typeof body.reason).toBe('string')
  })

  it('answers the exact wire keys, in order, for the result, its pairs and the stream events', async () => {
    const { id } = await conflictItem()
    const { body } = await app.json(`/api/download_queue/${id}/compare`, { method: 'POST', cookie })
    const RESULT = ['a_total', 'b_total', 'unmatched_a', 'unmatched_b', 'recommendation', 'reason']
    const PAIR = [
      'a_index',
      'b_index',
      'a_filename',
      'b_filename',
      'distance',
      'a_sharpness',
      'b_sharpness',
      'better',
    ]
    expect(Object.keys(body)).toEqual(['operation', 'success', 'pairs', ...RESULT])
    for (const pair of body.pairs as Wire[]) expect(Object.keys(pair)).toEqual(PAIR)
    expect(Object.keys(body.unmatched_a[0])).toEqual([
      'index',
      'filename',
      'after_filename',
      'before_filename',
    ])
    const events = await readStream(`/api/download_queue/${id}/compare/stream`)
    for (const { event, data } of events) {
      if (event === 'sample') {
        expect(Object.keys(data)).toEqual(['sample_index', 'phase', 'sample'])
        expect(Object.keys(data.sample)).toEqual(PAIR)
      }
      if (event === 'done') expect(Object.keys(data)).toEqual(['pairs', ...RESULT])
    }
    expect(events.map((e) => e.event).slice(-2)).toEqual(['done', 'end'])
  })

  it('compares again once a file changed', async () => {
    const { id, tempPath } = await conflictItem()
    const post = () => app.json(`/api/download_queue/${id}/compare`, { method: 'POST', cookie })
    expect((await post()).body.a_total).toBe(5)
    await copyFile(join(app.contentDir, 'Book.cbz'), tempPath)
    const again = await post()
    expect(again.body).toMatchObject({ a_total: 4, unmatched_a: [], recommendation: 'keep_b' })
  })

  it('answers 404 Env for an unknown item', async () => {
    const { status, body } = await app.json(`/api/download_queue/nope/compare`, {
      method: 'POST',
      cookie,
    })
    expect(status).toBe(404)
    expect(body).toMatchObject({ operation: 'compare_download', success: 0 })
  })

  it('answers 400 Env for an item without a staged download', async () => {
    const { id } = await conflictItem({ staged: false })
    const { status, body } = await app.json(`/api/download_queue/${id}/compare`, {
      method: 'POST',
      cookie,
    })
    expect(status).toBe(400)
    expect(body).toMatchObject({ operation: 'compare_download', success: 0 })
  })

  it('answers 400 Env for an item without an existing archive', async () => {
    const { id } = await conflictItem({ existing: null })
    const { status } = await app.json(`/api/download_queue/${id}/compare`, {
      method: 'POST',
      cookie,
    })
    expect(status).toBe(400)
  })

  it('answers 401 without credentials', async () => {
    const { id } = await conflictItem()
    const res = await app.req(`/api/download_queue/${id}/compare`, { method: 'POST' })
    expect(res.status).toBe(401)
  })
})

describe('GET /api/download_queue/:id/compare/stream', () => {
  it('sends coarse samples, precise replacements, done and end; a kept result replays', async () => {
    const { id } = await conflictItem()
    const first = await readStream(`/api/download_queue/${id}/compare/stream`)
    const names = first.map((e) => e.event)
    expect(names.slice(-2)).toEqual(['done', 'end'])
    const samples = first.filter((e) => e.event === 'sample')
    expect(samples.map((e) => e.data.phase)).toEqual([
      ...Array(4).fill('coarse'),
      ...Array(4).fill('precise'),
    ])
    expect(samples[0]!.data).toMatchObject({ sample_index: 0, sample: { a_index: 0, b_index: 0 } })
    const done = first.at(-2)!.data
    expect(done).toMatchObject({ a_total: 5, b_total: 4, recommendation: 'keep_b_with_insertions' })

    const replay = await readStream(`/api/download_queue/${id}/compare/stream`)
    expect(replay.map((e) => e.event)).toEqual([...Array(4).fill('sample'), 'done', 'end'])
    expect(replay.every((e) => e.event !== 'sample' || e.data.phase === 'coarse')).toBe(true)
    // The burst carries the final (precise) figures.
    expect(replay.map((e) => e.data.sample).slice(0, 4)).toEqual(done.pairs)

    // The kept comparison goes with the item.
    expect(app.deps.downloads.comparisons.get(id)?.settled).toBeDefined()
    const kept = await app.json(`/api/download_queue/${id}/compare/keep-b`, {
      method: 'POST',
      cookie,
    })
    expect(kept.status).toBe(200)
    expect(app.deps.downloads.comparisons.get(id)).toBeUndefined()
  })

  it('answers 404 Env for an unknown item instead of a stream', async () => {
    const { status, body } = await app.json(`/api/download_queue/nope/compare/stream`, { cookie })
    expect(status).toBe(404)
    expect(body).toMatchObject({ operation: 'compare_download_stream', success: 0 })
  })
})

describe('GET /api/download_queue/:id/compare/pages and /page', () => {
  it('lists each side in natural order and serves a page by position', async () => {
    const { id } = await conflictItem()
    const a = await app.json(`/api/download_queue/${id}/compare/pages?side=a`, { cookie })
    expect(a.body.pages).toEqual(['001.jpg', '002.jpg', '003.jpg', '004.jpg', '005.jpg'])
    const b = await app.json(`/api/download_queue/${id}/compare/pages?side=b`, { cookie })
    expect(b.body.pages).toEqual(['001.jpg', '002.jpg', '003.jpg', '004.jpg'])

    const res = await app.req(`/api/download_queue/${id}/compare/page?side=a&index=2`, { cookie })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/jpeg')
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(await makeTexturedPage(77))
  })

  it('answers 400 Env for a bad side or a page past the end', async () => {
    const { id } = await conflictItem()
    const bad = await app.json(`/api/download_queue/${id}/compare/pages?side=c`, { cookie })
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({ operation: 'compare_pages', success: 0 })
    const past = await app.json(`/api/download_queue/${id}/compare/page?side=b&index=4`, {
      cookie,
    })
    expect(past.status).toBe(400)
    expect(past.body).toMatchObject({ operation: 'compare_page', success: 0 })
  })
})

describe('POST /api/download_queue/:id/compare/export-patch', () => {
  it('answers a patch zip of the picked pages and writes nothing', async () => {
    const { id } = await conflictItem()
    const before = await readdir(app.contentDir)
    const res = await app.req(`/api/download_queue/${id}/compare/export-patch`, {
      method: 'POST',
      cookie,
      json: { insertions: [{ a_index: 2, after_filename: '002.jpg' }] },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/zip')
    const zipPath = join(app.root, 'exported.zip')
    await writeFile(zipPath, new Uint8Array(await res.arrayBuffer()))
    const pages = await app.deps.reader.listPages(zipPath)
    expect(pages).toHaveLength(1)
    expect(pages[0]).toMatch(/-003\.jpg$/)
    expect(await app.deps.reader.readPage(zipPath, pages[0]!)).toEqual(await makeTexturedPage(77))
    const manifest = await app.deps.reader.readEntry(zipPath, 'manifest.json', 65536)
    expect(JSON.parse(new TextDecoder().decode(manifest!))).toEqual({
      pages: [{ name: pages[0], after_filename: '002.jpg' }],
    })
    expect(await readdir(app.contentDir)).toEqual(before)
    expect(findDownloadItem(app.deps.db, id)).toBeDefined()
  })

  it('answers 400 Env for a page or anchor that is not there', async () => {
    const { id } = await conflictItem()
    for (const insertion of [
      { a_index: 9, after_filename: '002.jpg' },
      { a_filename: '003.jpg', after_filename: 'nope.jpg' },
      { a_filename: '003.jpg' },
      { a_index: 2, a_filename: '003.jpg', after_filename: '002.jpg' },
    ]) {
      const { status, body } = await app.json(`/api/download_queue/${id}/compare/export-patch`, {
        method: 'POST',
        cookie,
        json: { insertions: [insertion] },
      })
      expect(status).toBe(400)
      expect(body).toMatchObject({ operation: 'export_patch', success: 0 })
    }
    const empty = await app.json(`/api/download_queue/${id}/compare/export-patch`, {
      method: 'POST',
      cookie,
      json: { insertions: [] },
    })
    expect(empty.status).toBe(400)
  })
})
