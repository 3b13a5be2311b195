// Wire details of the archive routes: conditional GETs, download headers, thumbnail format and
// validators, upload edge cases, LANraragi's minion detail view, and 423 on every locked write.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { makeCbz } from '../helpers/fixtures.ts'
import { insertJob } from '../../src/db/repos/jobs.repo.ts'

const ODD_NAME = 'Tall ☆ "quoted"'

let app: TestServer
let cookie: string
let tall: string
let small: string

async function json(res: Response): Promise<Wire> {
  return (await res.json()) as Wire
}

/** The cover of an archive, made first if needed. */
async function cover(id: string): Promise<Response> {
  const res = await app.req(`/api/archives/${id}/thumbnail?no_fallback=true`, { cookie })
  if (res.status !== 202) return res
  await app.deps.jobs.waitFor((await json(res)).job)
  return app.req(`/api/archives/${id}/thumbnail`, { cookie })
}

beforeAll(async () => {
  app = await startTestServer({
    beforeStart: async (content) => {
      await makeCbz(join(content, `${ODD_NAME}.cbz`), { pages: 2, width: 300, height: 1000 })
      await makeCbz(join(content, 'Small.zip'), { pages: 3 })
    },
  })
  await app.idle()
  cookie = await app.login()
  const list = (await json(await app.req('/api/archives', { cookie }))) as unknown as Wire[]
  tall = list.find((a) => a.title === ODD_NAME)!.arcid
  small = list.find((a) => a.title === 'Small')!.arcid
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

describe('GET /api/archives/:id/page conditional requests', () => {
  it('answers 304 to any If-None-Match form that names the ETag, 200 otherwise', async () => {
    const url = `/api/archives/${small}/page?path=002.jpg`
    const first = await app.req(url, { cookie })
    expect(first.status).toBe(200)
    const etag = first.headers.get('etag')!
    expect(first.headers.get('cache-control')).toContain('max-age')
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await app.req(url, { cookie, headers: { 'if-none-match': header } })
      expect(res.status).toBe(304)
      expect(res.headers.get('etag')).toBe(etag)
      expect((await res.arrayBuffer()).byteLength).toBe(0)
    }
    const stale = await app.req(url, { cookie, headers: { 'if-none-match': '"other"' } })
    expect(stale.status).toBe(200)
    expect(stale.headers.get('content-type')).toBe('image/jpeg')
  })
})

describe('GET /api/archives/:id/download', () => {
  it('names the file for every client (filename and filename*) with the archive type', async () => {
    const res = await app.req(`/api/archives/${tall}/download`, { cookie })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/vnd.comicbook+zip')
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="Tall _ _quoted_.cbz"; filename*=UTF-8''${encodeURIComponent(`${ODD_NAME}.cbz`)}`,
    )
    const zip = await app.req(`/api/archives/${small}/download`, { cookie })
    expect(zip.headers.get('content-type')).toBe('application/zip')
    expect(zip.headers.get('content-disposition')).toStartWith('attachment; filename="Small.zip"')
  })
})

describe('thumbnails', () => {
  it('gives the cover a validator and answers 304 when the client has it', async () => {
    const res = await cover(small)
    expect(res.status).toBe(200)
    const etag = res.headers.get('etag')
    expect(etag).toMatch(/^"[^"]+"$/)
    const again = await app.req(`/api/archives/${small}/thumbnail`, {
      cookie,
      headers: { 'if-none-match': etag! },
    })
    expect(again.status).toBe(304)
  })

  it('makes 500 px tall WebP covers by default and JPEG ones under the jpeg setting', async () => {
    const webp = await cover(tall)
    expect(webp.headers.get('content-type')).toBe('image/webp')
    expect((await sharp(new Uint8Array(await webp.arrayBuffer())).metadata()).height).toBe(500)

    const set = await app.req('/api/settings', {
      method: 'PUT',
      cookie,
      json: { thumbnail_format: 'jpeg' },
    })
    expect(set.status).toBe(200)
    try {
      const regen = await json(
        await app.req('/api/regen_thumbs?force=true', { method: 'POST', cookie }),
      )
      const job = regen.job as number
      expect(regen).toEqual({ operation: 'regen_thumbnails', success: 1, job: expect.any(Number) })
      expect((await app.deps.jobs.waitFor(job)).state).toBe('finished')
      const jpeg = await app.req(`/api/archives/${tall}/thumbnail`, { cookie })
      expect(jpeg.headers.get('content-type')).toBe('image/jpeg')
      const meta = await sharp(new Uint8Array(await jpeg.arrayBuffer())).metadata()
      expect(meta).toMatchObject({ format: 'jpeg', height: 500 })
    } finally {
      await app.req('/api/settings', { method: 'PUT', cookie, json: { thumbnail_format: 'webp' } })
    }
  })
})

describe('PUT /api/archives/upload edge cases', () => {
  it('answers 400 Env (not 500) to a body that is not multipart', async () => {
    for (const init of [
      {
        body: new Uint8Array([0x50, 0x4b, 3, 4]),
        headers: { 'content-type': 'application/octet-stream' },
      },
      { json: { file: 'not a file' } },
    ]) {
      const res = await app.req('/api/archives/upload', { method: 'PUT', cookie, ...init })
      expect(res.status).toBe(400)
      expect(await json(res)).toMatchObject({
        operation: 'upload',
        success: 0,
        error: expect.any(String),
      })
    }
  })

  it('keeps only the base name of a file name sent with a client path', async () => {
    const source = join(app.root, 'client.cbz')
    const cases: [string, string][] = [
      ['C:\\fakepath\\Client Path.cbz', 'Client Path.cbz'],
      ['../../Escaping.cbz', 'Escaping.cbz'],
    ]
    for (const [sent, stored] of cases) {
      // Distinct bytes per upload: the same file twice would be a 409 duplicate.
      await makeCbz(source, { pages: 1, seed: stored.length })
      const form = new FormData()
      form.set('file', new File([await Bun.file(source).bytes()], sent))
      const res = await app.req('/api/archives/upload', { method: 'PUT', body: form, cookie })
      expect(res.status).toBe(200)
      expect(existsSync(join(app.contentDir, stored))).toBe(true)
    }
    expect(existsSync(join(app.root, 'Escaping.cbz'))).toBe(false)
  })
})

describe('GET /api/minion/:id/detail', () => {
  it('answers the job with its result, as LANraragi clients poll it; 400 Env when unknown', async () => {
    const { job } = await json(await app.req('/api/regen_thumbs', { method: 'POST', cookie }))
    await app.deps.jobs.waitFor(job)
    const detail = await json(await app.req(`/api/minion/${job}/detail`, { cookie }))
    expect(detail).toMatchObject({
      id: job,
      state: 'finished',
      task: 'regen_thumbs',
      notes: expect.any(Object),
      result: expect.any(Object),
    })
    const unknown = await app.req('/api/minion/987654/detail', { cookie })
    expect(unknown.status).toBe(400)
    expect(await json(unknown)).toMatchObject({ operation: 'minion_job_detail', success: 0 })
    expect((await app.req(`/api/minion/${job}/detail`)).status).toBe(401)
  })
})

describe('writes to a locked archive', () => {
  it('answer 423 Env on delete, isnew, toc, rename, metadata and progress', async () => {
    let release!: () => void
    const held = app.deps.locks.withLock(small, () => new Promise<void>((r) => (release = r)))
    const attempts: [string, string, RequestInit & { json?: unknown }][] = [
      ['DELETE', `/api/archives/${small}`, {}],
      ['PUT', `/api/archives/${small}/isnew`, {}],
      ['DELETE', `/api/archives/${small}/isnew`, {}],
      ['PUT', `/api/archives/${small}/toc?page=1&title=One`, {}],
      ['DELETE', `/api/archives/${small}/toc?page=1`, {}],
      ['PUT', `/api/archives/${small}/rename`, { json: { filename: 'Other.zip' } }],
      ['PUT', `/api/archives/${small}/metadata?title=x`, {}],
      ['PUT', `/api/archives/${small}/progress/1`, {}],
    ]
    try {
      for (const [method, path, init] of attempts) {
        const res = await app.req(path, { method, cookie, ...init })
        expect([method, path, res.status]).toEqual([method, path, 423])
        expect(await json(res)).toMatchObject({ success: 0, error: expect.any(String) })
      }
    } finally {
      release()
      await held
    }
    expect(existsSync(join(app.contentDir, 'Small.zip'))).toBe(true)
  })
})

describe('GET /api/minion/:id of a job that waits', () => {
  it('says inactive and a numeric id (LANraragi), where /api/jobqueue says queued', async () => {
    // A row nobody runs: a job kind of a later step, written straight into the table.
    const row = insertJob(app.deps.db, {
      name: 'download_url',
      args: {},
      uniqueKey: null,
      priority: 0,
    })
    const minion = await json(await app.req(`/api/minion/${row.id}`, { cookie }))
    expect(minion).toMatchObject({ id: row.id, state: 'inactive', task: 'download_url' })
    const queue = await json(await app.req(`/api/jobqueue/${row.id}`, { cookie }))
    expect(queue).toMatchObject({ id: String(row.id), state: 'queued', name: 'download_url' })
    expect('started_at' in queue).toBe(false)
  })
})
