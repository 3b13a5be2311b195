import { describe, expect, it, beforeAll, afterAll } from 'bun:test'
import { existsSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { INFO_KEYS } from '../helpers/wire-keys.ts'
import { makeCbz } from '../helpers/fixtures.ts'
import { seedArchive, seedTankoubon } from '../helpers/seed.ts'

let app: TestServer
let cookie: string
let ids: Record<string, string>

async function json(res: Response): Promise<Wire> {
  return (await res.json()) as Wire
}

beforeAll(async () => {
  app = await startTestServer({
    beforeStart: async (content) => {
      await makeCbz(join(content, 'Alpha Story.cbz'), { pages: 3 })
      await makeCbz(join(content, 'sub', 'Beta Tale.zip'), { pages: 5, compression: 'deflate' })
      await writeFile(join(content, 'broken.cbz'), 'this is not a zip file at all')
    },
  })
  await app.idle()
  // The covers' jobs write the archives (thumbhash): done before a test reads the index version.
  await app.jobsDone()
  cookie = await app.login()
  const list = await json(await app.req('/api/archives', { cookie }))
  ids = Object.fromEntries((list as Wire[]).map((a) => [a.title, a.arcid]))
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

describe('GET /api/archives', () => {
  it('lists the archives found by the initial scan with the spec fields', async () => {
    const res = await app.req('/api/archives', { cookie })
    expect(res.status).toBe(200)
    const list = (await res.json()) as Wire[]
    expect(list.map((a) => a.title).sort()).toEqual(['Alpha Story', 'Beta Tale'])
    const alpha = list.find((a) => a.title === 'Alpha Story')!
    expect(alpha.arcid).toMatch(/^[0-9a-f]{40}$/)
    expect(alpha).toMatchObject({
      filename: 'Alpha Story',
      extension: 'cbz',
      isnew: 'true',
      pagecount: 3,
      progress: 0,
      lastreadtime: 0,
    })
    expect(alpha.size).toBeGreaterThan(0)
    expect(alpha.tags).toMatch(/^date_added:\d+$/)
    expect(Array.isArray(alpha.toc)).toBe(true)
  })

  it('answers 401 Env without credentials while nofun_mode is on', async () => {
    const res = await app.req('/api/archives')
    expect(res.status).toBe(401)
    expect(await json(res)).toMatchObject({ operation: 'list_archives', success: 0 })
  })

  it('computes the LANraragi id: SHA-1 of the first 512,000 bytes', async () => {
    const bytes = await Bun.file(join(app.contentDir, 'Alpha Story.cbz')).bytes()
    const expected = new Bun.CryptoHasher('sha1').update(bytes.subarray(0, 512_000)).digest('hex')
    expect(ids['Alpha Story']).toBe(expected)
  })
})

describe('GET/PUT /api/archives/:id/metadata', () => {
  it('answers 400 Env for a malformed id and for an unknown id', async () => {
    const bad = await app.req('/api/archives/xyz/metadata', { cookie })
    expect(bad.status).toBe(400)
    expect(await json(bad)).toMatchObject({ operation: 'metadata', success: 0 })
    const unknown = await app.req(`/api/archives/${'a'.repeat(40)}/metadata`, { cookie })
    expect(unknown.status).toBe(400)
    expect((await json(unknown)).error).toBe("This ID doesn't exist on the server.")
  })

  it('overwrites title, tags and summary from the query', async () => {
    const id = ids['Beta Tale']
    const put = await app.req(
      `/api/archives/${id}/metadata?title=${encodeURIComponent('Beta, Revised')}&tags=${encodeURIComponent('artist:someone, female:glasses ,artist:someone')}&summary=hello`,
      { method: 'PUT', cookie },
    )
    expect(put.status).toBe(200)
    expect(await json(put)).toMatchObject({ operation: 'update_metadata', success: 1 })
    const meta = await json(await app.req(`/api/archives/${id}/metadata`, { cookie }))
    expect(meta).toMatchObject({
      title: 'Beta, Revised',
      tags: 'artist:someone, female:glasses',
      summary: 'hello',
    })
  })

  it('also takes the fields from a form body, as LANraragi clients send them', async () => {
    const id = ids['Beta Tale']
    const body = new URLSearchParams({ summary: 'from a form' })
    const put = await app.req(`/api/archives/${id}/metadata`, { method: 'PUT', cookie, body })
    expect(put.status).toBe(200)
    const meta = await json(await app.req(`/api/archives/${id}/metadata`, { cookie }))
    expect(meta).toMatchObject({ title: 'Beta, Revised', summary: 'from a form' })
  })

  it('refuses metadata writes without credentials (401)', async () => {
    const res = await app.req(`/api/archives/${ids['Alpha Story']}/metadata?title=x`, {
      method: 'PUT',
    })
    expect(res.status).toBe(401)
  })

  it('answers 423 while another write holds the archive', async () => {
    const id = ids['Alpha Story']!
    let release!: () => void
    const held = app.deps.locks.withLock(id, () => new Promise<void>((r) => (release = r)))
    const res = await app.req(`/api/archives/${id}/metadata?title=x`, { method: 'PUT', cookie })
    release()
    await held
    expect(res.status).toBe(423)
    expect(await json(res)).toMatchObject({ success: 0 })
  })
})

describe('pages', () => {
  it('lists root-relative page URLs in natural order and serves them with an ETag', async () => {
    const id = ids['Alpha Story']
    const version = app.deps.search.version
    const files = await json(await app.req(`/api/archives/${id}/files`, { cookie }))
    // An integer job even for a ZIP (LANraragi clients parse and poll it); it only opens the file.
    expect(files.job).toEqual(expect.any(Number))
    const job = await json(await app.req(`/api/minion/${files.job}`, { cookie }))
    expect(job).toMatchObject({ name: 'extract', task: 'extract' })
    await app.deps.jobs.waitFor(files.job)
    expect(await json(await app.req(`/api/jobqueue/${files.job}`, { cookie }))).toMatchObject({
      state: 'finished',
      result: { id, pages: 3 },
    })
    // Opening an archive is not a write: cached searches survive it.
    expect(app.deps.search.version).toBe(version)
    expect(files.pages).toHaveLength(3)
    expect(files.pages[0]).toBe(`/api/archives/${id}/page?path=${encodeURIComponent('001.jpg')}`)
    const page = await app.req(files.pages[1], { cookie })
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('image/jpeg')
    // Bytes from user archives are never sniffed into HTML or script.
    expect(page.headers.get('x-content-type-options')).toBe('nosniff')
    const etag = page.headers.get('etag')!
    expect(etag).toMatch(/^"/)
    const bytes = new Uint8Array(await page.arrayBuffer())
    expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8])
    const again = await app.req(files.pages[1], { cookie, headers: { 'if-none-match': etag } })
    expect(again.status).toBe(304)
  })

  it('answers 400 for paths that are not pages of the archive', async () => {
    const id = ids['Alpha Story']
    for (const path of ['../../etc/passwd', '/etc/passwd', 'missing.jpg', '001.jpg\0x', '']) {
      const res = await app.req(`/api/archives/${id}/page?path=${encodeURIComponent(path)}`, {
        cookie,
      })
      expect(res.status).toBe(400)
      expect(await json(res)).toMatchObject({ operation: 'serve_page', success: 0 })
    }
    const none = await app.req(`/api/archives/${id}/page`, { cookie })
    expect(none.status).toBe(400)
  })

  it('reports the natural size of the first pages', async () => {
    const res = await json(
      await app.req(`/api/archives/${ids['Alpha Story']}/page-dimensions?count=2`, { cookie }),
    )
    expect(res.dimensions).toHaveLength(2)
    expect(res.dimensions[0]).toMatchObject({ page: 1, path: '001.jpg' })
    expect(res.dimensions[0].width).toBeGreaterThan(0)
    expect(res.dimensions[0].height).toBeGreaterThan(0)
  })

  it('downloads the archive file', async () => {
    const res = await app.req(`/api/archives/${ids['Alpha Story']}/download`, { cookie })
    expect(res.status).toBe(200)
    const body = new Uint8Array(await res.arrayBuffer())
    expect(body.length).toBe(Bun.file(join(app.contentDir, 'Alpha Story.cbz')).size)
  })
})

describe('New flag, toc and progress', () => {
  it('sets and clears the New flag', async () => {
    const id = ids['Alpha Story']
    const cleared = await app.req(`/api/archives/${id}/isnew`, { method: 'DELETE', cookie })
    expect(await json(cleared)).toMatchObject({ id, operation: 'clear_new', success: 1 })
    expect((await json(await app.req(`/api/archives/${id}/metadata`, { cookie }))).isnew).toBe(
      'false',
    )
    await app.req(`/api/archives/${id}/isnew`, { method: 'PUT', cookie })
    expect((await json(await app.req(`/api/archives/${id}/metadata`, { cookie }))).isnew).toBe(
      'true',
    )
  })

  it('adds and removes toc entries shown in metadata', async () => {
    const id = ids['Alpha Story']
    const add = await app.req(`/api/archives/${id}/toc?page=2&title=Chapter%20Two`, {
      method: 'PUT',
      cookie,
    })
    expect(await json(add)).toMatchObject({ operation: 'add_toc', success: 1 })
    expect((await json(await app.req(`/api/archives/${id}/metadata`, { cookie }))).toc).toEqual([
      { name: 'Chapter Two', page: 2 },
    ])
    const missingTitle = await app.req(`/api/archives/${id}/toc?page=2`, { method: 'PUT', cookie })
    expect(missingTitle.status).toBe(400)
    const remove = await app.req(`/api/archives/${id}/toc?page=2`, { method: 'DELETE', cookie })
    expect(remove.status).toBe(200)
    expect((await json(await app.req(`/api/archives/${id}/metadata`, { cookie }))).toc).toEqual([])
  })

  it('records progress with server time and refuses pages past the end', async () => {
    const id = ids['Alpha Story']
    const before = Math.floor(Date.now() / 1000)
    const res = await json(
      await app.req(`/api/archives/${id}/progress/2`, { method: 'PUT', cookie }),
    )
    expect(res).toMatchObject({ id, page: 2, operation: 'update_progress', success: 1 })
    expect(res.lastreadtime).toBeGreaterThanOrEqual(before)
    expect(
      (await app.req(`/api/archives/${id}/progress/4`, { method: 'PUT', cookie })).status,
    ).toBe(400)
    expect(
      (await app.req(`/api/archives/${id}/progress/0`, { method: 'PUT', cookie })).status,
    ).toBe(400)
  })

  it('answers 400 when server-side progress tracking is disabled', async () => {
    app.deps.settings.update({ server_tracks_progress: false })
    const res = await app.req(`/api/archives/${ids['Alpha Story']}/progress/1`, {
      method: 'PUT',
      cookie,
    })
    app.deps.settings.update({ server_tracks_progress: true })
    expect(res.status).toBe(400)
    expect((await json(res)).error).toBe(
      'Server-side Progress Tracking is disabled on this instance.',
    )
  })
})

describe('thumbnails', () => {
  it('answers 202 with a job under no_fallback, then the WebP cover', async () => {
    const id = ids['Alpha Story']
    let res = await app.req(`/api/archives/${id}/thumbnail?no_fallback=true`, { cookie })
    if (res.status === 202) {
      const body = await json(res)
      expect(body).toMatchObject({ operation: 'serve_thumbnail', success: 1 })
      await app.deps.jobs.waitFor(body.job)
      res = await app.req(`/api/archives/${id}/thumbnail?no_fallback=true`, { cookie })
    }
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/webp')
  })

  it('answers a PNG placeholder for a thumbnail not made yet, and queues it', async () => {
    const id = ids['Beta Tale']
    const res = await app.req(`/api/archives/${id}/thumbnail?page=2`, { cookie })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/png')
    const bytes = new Uint8Array(await res.arrayBuffer())
    expect([...bytes.subarray(1, 4)]).toEqual([0x50, 0x4e, 0x47])
    const queued = app.deps.jobs.list().find((j) => j.name === 'thumbnails' && j.args.includes(id!))
    expect(queued).toBeDefined()
  })

  it('makes page thumbnails on demand and remakes the cover from another page', async () => {
    const id = ids['Alpha Story']
    const first = await app.req(`/api/archives/${id}/thumbnail?page=3&no_fallback=true`, { cookie })
    expect([200, 202]).toContain(first.status)
    if (first.status === 202) await app.deps.jobs.waitFor((await json(first)).job)
    const page = await app.req(`/api/archives/${id}/thumbnail?page=3`, { cookie })
    expect(page.headers.get('content-type')).toBe('image/webp')
    const put = await json(
      await app.req(`/api/archives/${id}/thumbnail?page=2`, { method: 'PUT', cookie }),
    )
    expect(put).toMatchObject({ operation: 'update_thumbnail', success: 1 })
    expect(put.new_thumbnail).toContain(id)
    expect((await app.req(`/api/archives/${id}/thumbnail?page=9`, { cookie })).status).toBe(400)
  })

  it('queues all page thumbnails, then reports that they exist', async () => {
    const id = ids['Alpha Story']
    const queued = await app.req(`/api/archives/${id}/files/thumbnails`, { method: 'POST', cookie })
    expect(queued.status).toBe(202)
    const { job } = await json(queued)
    const done = await app.deps.jobs.waitFor(job)
    expect(done.state).toBe('finished')
    const again = await app.req(`/api/archives/${id}/files/thumbnails`, { method: 'POST', cookie })
    expect(again.status).toBe(200)
    const body = await json(again)
    expect(body).toMatchObject({ operation: 'generate_page_thumbnails', success: 1 })
    expect(typeof body.message).toBe('string')
  })
})

describe('jobs', () => {
  it('exposes a finished job with JobStatus fields and LANraragi minion fields', async () => {
    const { job } = await json(
      await app.req('/api/regen_thumbs?force=false', { method: 'POST', cookie }),
    )
    await app.deps.jobs.waitFor(job)
    const status = await json(await app.req(`/api/jobqueue/${job}`, { cookie }))
    expect(status).toMatchObject({
      id: String(job),
      name: 'regen_thumbs',
      state: 'finished',
      progress: 1,
      result_truncated: false,
      task: 'regen_thumbs',
    })
    expect(status.started_at).toBeGreaterThan(0)
    expect(status.finished_at).toBeGreaterThanOrEqual(status.started_at)
    expect('error' in status).toBe(false)
    // The minion path speaks LANraragi's dialect: a numeric id.
    expect(await json(await app.req(`/api/minion/${job}`, { cookie }))).toMatchObject({
      id: job,
      state: 'finished',
      task: 'regen_thumbs',
    })
    const list = await json(await app.req('/api/jobs', { cookie }))
    expect(list.jobs.some((j: Wire) => j.id === String(job))).toBe(true)
    const cleared = await app.req(`/api/jobs/${job}`, { method: 'DELETE', cookie })
    expect(cleared.status).toBe(200)
    expect((await app.req(`/api/jobqueue/${job}`, { cookie })).status).toBe(400)
  })
})

describe('server info', () => {
  it('answers every field of the spec without credentials', async () => {
    const res = await app.req('/api/info')
    expect(res.status).toBe(200)
    const info = await json(res)
    for (const key of INFO_KEYS) expect(info).toHaveProperty(key)
    const [major, minor] = String(info.version).split('.').map(Number)
    expect(major! > 0 || minor! >= 9).toBe(true)
    expect(info.version_name).toContain('Tankobun')
    expect(info.total_archives).toBe(2)
    expect(info.has_password).toBe(true)
  })

  it('counts archives (not Tankoubons) in total_archives and follows writes at once', async () => {
    await using other = await startTestServer()
    await other.idle()
    const session = await other.login()
    const [a, b, c] = [seedArchive(other.deps), seedArchive(other.deps), seedArchive(other.deps)]
    seedTankoubon(other.deps, { name: 'Holds two', members: [a.id, b.id] })
    const total = async () => (await json(await other.req('/api/info'))).total_archives
    expect(await total()).toBe(3)
    await other.req(`/api/archives/${c.id}`, { method: 'DELETE', cookie: session })
    expect(await total()).toBe(2)
  })

  it('serves the web UI at the root, so clients that probe the base URL see a 2xx', async () => {
    for (const method of ['GET', 'HEAD']) {
      const res = await app.req('/', { method, redirect: 'manual' })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toStartWith('text/html')
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'")
    }
  })

  it('cleans the temp folder, but not the working files of uploads, downloads and splits', async () => {
    const temp = app.deps.config.tempDir
    const working = ['upload-1', 'download-2', 'split-3']
    for (const name of working) await writeFile(join(temp, name), 'in use')
    await writeFile(join(temp, 'stray'), 'left over')
    const res = await json(await app.req('/api/tempfolder', { method: 'DELETE', cookie }))
    expect(res).toMatchObject({ operation: 'cleantemp', success: 1, error: null })
    expect(typeof res.newsize).toBe('number')
    for (const name of working) expect(existsSync(join(temp, name))).toBe(true)
    expect(existsSync(join(temp, 'stray'))).toBe(false)
  })

  it('the unreadable file was not catalogued and the rest is served', async () => {
    const scans = (await json(await app.req('/api/jobs', { cookie }))).jobs.filter(
      (j: Wire) => j.name === 'rescan',
    )
    const result = scans.at(-1).result
    expect(result.unreadable.map((u: Wire) => u.path)).toContain('broken.cbz')
    expect(existsSync(join(app.contentDir, 'broken.cbz'))).toBe(true)
  })
})
