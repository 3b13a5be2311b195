// Archive, job and server endpoints as LANraragi clients see them: HEAD, metadata, the New flag
// and toc, files and pages, progress, jobs and thumbnails.
import { describe, expect, it, beforeAll, afterAll } from 'bun:test'
import { join } from 'node:path'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { makeCbz } from '../helpers/fixtures.ts'

let app: TestServer
let cookie: string
let id: string

async function json(res: Response): Promise<Wire> {
  return (await res.json()) as Wire
}

beforeAll(async () => {
  app = await startTestServer({
    beforeStart: async (content) => {
      await makeCbz(join(content, 'Gamma.cbz'), {
        names: ['sub/001.jpg', 'sub/002.jpg', 'sub/003.jpg'],
      })
    },
  })
  await app.idle()
  cookie = await app.login()
  const list = (await (await app.req('/api/archives', { cookie })).json()) as Wire[]
  id = list[0]!.arcid
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

describe('HEAD requests', () => {
  it('answers HEAD on page, thumbnail, download and metadata like GET, without a body', async () => {
    for (const path of [
      `/api/archives/${id}/page?path=sub/001.jpg`,
      `/api/archives/${id}/thumbnail`,
      `/api/archives/${id}/download`,
      `/api/archives/${id}/metadata`,
    ]) {
      const get = await app.req(path, { cookie })
      await get.arrayBuffer()
      const head = await app.req(path, { method: 'HEAD', cookie })
      expect(head.status).toBe(200)
      expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'))
      expect((await head.arrayBuffer()).byteLength).toBe(0)
    }
  })

  it('keeps the access rules of the GET route on HEAD', async () => {
    const res = await app.req(`/api/archives/${id}/metadata`, { method: 'HEAD' })
    expect(res.status).toBe(401)
  })
})

describe('metadata', () => {
  it('serves the deprecated GET /api/archives/{id} like /metadata', async () => {
    const res = await app.req(`/api/archives/${id}`, { cookie })
    expect(res.status).toBe(200)
    expect(await json(res)).toEqual(
      await json(await app.req(`/api/archives/${id}/metadata`, { cookie })),
    )
    const unknown = await app.req(`/api/archives/${'c'.repeat(40)}`, { cookie })
    expect(unknown.status).toBe(400)
    expect(await json(unknown)).toMatchObject({ operation: 'metadata', success: 0 })
  })

  it('answers 400 Env (not 500) to a metadata update that names no field', async () => {
    const res = await app.req(`/api/archives/${id}/metadata`, { method: 'PUT', cookie })
    expect(res.status).toBe(400)
    expect(await json(res)).toMatchObject({ operation: 'update_metadata', success: 0 })
  })
})

describe('New flag and toc', () => {
  it('names the operations as LANraragi does: add_new, clear_new', async () => {
    const set = await app.req(`/api/archives/${id}/isnew`, { method: 'PUT', cookie })
    expect(set.status).toBe(200)
    expect(await json(set)).toMatchObject({ operation: 'add_new', success: 1 })
    const clear = await app.req(`/api/archives/${id}/isnew`, { method: 'DELETE', cookie })
    expect(await json(clear)).toEqual({ operation: 'clear_new', success: 1, id })
    expect((await json(await app.req(`/api/archives/${id}/metadata`, { cookie }))).isnew).toBe(
      'false',
    )
  })

  it('adds and removes toc entries as add_toc / remove_toc, removal being idempotent', async () => {
    const add = await app.req(`/api/archives/${id}/toc?page=2&title=Two`, { method: 'PUT', cookie })
    expect(await json(add)).toMatchObject({
      operation: 'add_toc',
      success: 1,
      successMessage: expect.any(String),
    })
    const remove = await app.req(`/api/archives/${id}/toc?page=2`, { method: 'DELETE', cookie })
    expect(await json(remove)).toMatchObject({ operation: 'remove_toc', success: 1 })
    const again = await app.req(`/api/archives/${id}/toc?page=2`, { method: 'DELETE', cookie })
    expect(again.status).toBe(200)
    expect(await json(again)).toMatchObject({ operation: 'remove_toc', success: 1 })
    const noPage = await app.req(`/api/archives/${id}/toc`, { method: 'DELETE', cookie })
    expect(noPage.status).toBe(400)
  })
})

describe('files and pages', () => {
  it('keeps folder separators readable in page URLs, as LANraragi does, and serves them', async () => {
    const files = await json(await app.req(`/api/archives/${id}/files`, { cookie }))
    expect(files.pages[0]).toBe(`/api/archives/${id}/page?path=sub/001.jpg`)
    const page = await app.req(files.pages[0], { cookie })
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('image/jpeg')
    const encoded = await app.req(`/api/archives/${id}/page?path=sub%2F002.jpg`, { cookie })
    expect(encoded.status).toBe(200)
  })
})

describe('progress', () => {
  it('refuses page 0, pages past the end and non-numbers with 400 update_progress', async () => {
    for (const page of ['0', '4', 'abc', '-1']) {
      const res = await app.req(`/api/archives/${id}/progress/${page}`, { method: 'PUT', cookie })
      expect(res.status).toBe(400)
      expect(await json(res)).toMatchObject({ operation: 'update_progress', success: 0 })
    }
    const ok = await json(
      await app.req(`/api/archives/${id}/progress/3`, { method: 'PUT', cookie }),
    )
    expect(ok).toMatchObject({ operation: 'update_progress', success: 1, id, page: 3 })
    expect(Number.isInteger(ok.lastreadtime)).toBe(true)
  })
})

describe('jobs', () => {
  it('answers an unknown job with a 400 Env, as LANraragi does', async () => {
    const res = await app.req('/api/jobqueue/987654', { cookie })
    expect(res.status).toBe(400)
    expect(await json(res)).toMatchObject({
      operation: 'job_status',
      success: 0,
      error: 'No job with this ID.',
    })
    const minion = await app.req('/api/minion/987654', { cookie })
    expect(minion.status).toBe(400)
    expect(await json(minion)).toMatchObject({
      operation: 'minion_job_status',
      success: 0,
      error: 'No job with this ID.',
    })
  })

  it('returns the ongoing page-thumbnail job instead of queueing a second one', async () => {
    const first = await app.req(`/api/archives/${id}/files/thumbnails`, { method: 'POST', cookie })
    const second = await app.req(`/api/archives/${id}/files/thumbnails`, { method: 'POST', cookie })
    const a = await json(first)
    const b = await json(second)
    if (first.status === 202 && second.status === 202) expect(b.job).toBe(a.job)
    await app.deps.jobs.waitFor(a.job ?? b.job)
    const status = await json(await app.req(`/api/minion/${a.job}`, { cookie }))
    expect(status).toMatchObject({ state: 'finished', task: 'thumbnails', name: 'thumbnails' })
    expect(status.notes).toMatchObject({ progress: 3, pages: 3 })
  })

  it('answers 202 {job, operation, success} for a thumbnail under no_fallback', async () => {
    const res = await app.req(`/api/archives/${id}/thumbnail?no_fallback=true&page=0`, { cookie })
    if (res.status === 202) {
      expect(await json(res)).toEqual({
        operation: 'serve_thumbnail',
        success: 1,
        job: expect.any(Number),
      })
    } else {
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toStartWith('image/')
    }
  })
})

describe('thumbnails', () => {
  it('reads page=0 on a cover update as the default page 1, like LANraragi', async () => {
    const res = await app.req(`/api/archives/${id}/thumbnail?page=0`, { method: 'PUT', cookie })
    expect(res.status).toBe(200)
    expect(await json(res)).toMatchObject({
      operation: 'update_thumbnail',
      success: 1,
      new_thumbnail: expect.any(String),
    })
    const beyond = await app.req(`/api/archives/${id}/thumbnail?page=9`, { method: 'PUT', cookie })
    expect(beyond.status).toBe(400)
  })
})
