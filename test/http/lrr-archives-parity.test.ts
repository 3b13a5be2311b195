// Archive, reader and job answers as real LANraragi gives them, in the flows of aio-lanraragi's
// integration tests (test_with_archives, test_reader, test_encoding, test_fs): its Python client
// sends raw UTF-8 multipart names and a base64 Bearer key, joins page URLs to the base URL and
// decodes their query like parse_qs, deletes concurrently, and queues Minion tasks by name.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { existsSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { buildZip, makePages, type Bytes } from '../helpers/fixtures.ts'

let app: TestServer
let cookie: string
/** The admin key as the Python client sends it: `Bearer <base64 of the key>`. */
let admin: Record<string, string>
let guest: Record<string, string>

async function key(role: 'admin' | 'guest') {
  const made = await app.json('/api/tokens', { method: 'POST', cookie, json: { name: role, role } })
  return { authorization: `Bearer ${btoa(made.body.data.token)}` }
}

beforeAll(async () => {
  app = await startTestServer()
  await app.idle()
  cookie = await app.login()
  admin = await key('admin')
  guest = await key('guest')
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

/** A zip of `pages` pages named as the test suite names them: `<name>-pg-<n>.png`. */
async function archive(name: string, names?: string[]): Promise<Bytes> {
  const pages = names ?? [1, 2, 3].map((n) => `${name}-pg-${n}.png`)
  return buildZip(await makePages(name, { names: pages }))
}

/** aiohttp's multipart with quote_fields=False: the file name raw UTF-8 in the part header. */
async function upload(filename: string, bytes: Bytes, fields: Record<string, string> = {}) {
  const boundary = 'lrr-parity-boundary'
  const encoder = new TextEncoder()
  const chunks: Uint8Array[] = [
    encoder.encode(
      `--${boundary}\r\nContent-Type: application/octet-stream\r\n` +
        `Content-Disposition: form-data; name="file"; filename="${filename}"\r\n\r\n`,
    ),
    bytes,
  ]
  for (const [name, value] of Object.entries(fields))
    chunks.push(
      encoder.encode(
        `\r\n--${boundary}\r\nContent-Type: text/plain; charset=utf-8\r\n` +
          `Content-Disposition: form-data; name="${name}"\r\n\r\n${value}`,
      ),
    )
  chunks.push(encoder.encode(`\r\n--${boundary}--\r\n`))
  const body = new Uint8Array(await new Blob(chunks as Bun.BlobPart[]).arrayBuffer())
  const headers = { ...admin, 'content-type': `multipart/form-data; boundary=${boundary}` }
  return app.json('/api/archives/upload', { method: 'PUT', body, headers })
}

const lrrId = (bytes: Bytes) =>
  new Bun.CryptoHasher('sha1').update(bytes.subarray(0, 512_000)).digest('hex')

const metadata = async (id: string) =>
  (await app.json(`/api/archives/${id}/metadata`, { headers: admin })).body

/** Repeats a write refused with 423 (the archive's lock was taken), as the client does. */
async function retryOnLock(send: () => Promise<Response>): Promise<Response> {
  for (;;) {
    const res = await send()
    if (res.status !== 423) return res
    await res.arrayBuffer()
    await Bun.sleep(20)
  }
}

describe('PUT /api/archives/upload (test_encoding)', () => {
  it('takes raw UTF-8 names, answers the LANraragi id and stores names and text in NFC', async () => {
    for (const base of ['test-☆', 'test-e\u0301', 'emoji-🚀', 'cjk-中文', '!Γÿå']) {
      const bytes = await archive(base)
      const res = await upload(`${base}.zip`, bytes, {
        title: `Title ${base}`,
        tags: 'artist:Cafe\u0301, 中文',
        summary: 'Re\u0301sume\u0301',
      })
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ operation: 'upload', success: 1, id: lrrId(bytes) })
      const meta = await metadata(res.body.id)
      expect(`${meta.filename}.${meta.extension}`).toBe(`${base}.zip`.normalize('NFC'))
      expect(meta.title).toBe(`Title ${base}`.normalize('NFC'))
      expect(meta.tags).toMatch(/^artist:Café, 中文, date_added:\d+$/)
      expect(meta.summary).toBe('Résumé')
      expect(meta.isnew).toBe('true')
    }
  })
})

describe('PUT /api/archives/upload of a file whose library copy is gone', () => {
  it('takes the file again, as LANraragi does, bringing its row back with its metadata', async () => {
    const bytes = await archive('lost')
    const { body: first } = await upload('lost.zip', bytes, { tags: 'artist:kept' })
    await app.req(`/api/archives/${first.id}/progress/2`, { method: 'PUT', headers: admin })

    // Gone from disk, still listed (no rescan yet): taken again under another name.
    rmSync(join(app.contentDir, 'lost.zip'))
    const again = await upload('found.zip', bytes)
    expect(again.status).toBe(200)
    expect(again.body).toMatchObject({ success: 1, id: first.id })
    expect(await metadata(first.id)).toMatchObject({ filename: 'found', progress: 2 })

    // Gone and hidden by a rescan: taken again under its old name.
    rmSync(join(app.contentDir, 'found.zip'))
    const rescan = await app.json('/api/shinobu/rescan', { method: 'POST', headers: admin })
    await app.deps.jobs.waitFor(rescan.body.job)
    expect((await app.json(`/api/archives/${first.id}/metadata`, { headers: admin })).status).toBe(
      400,
    )
    const back = await upload('lost.zip', bytes)
    expect(back.status).toBe(200)
    expect(back.body).toMatchObject({ success: 1, id: first.id, name: 'lost.zip' })
    const meta = await metadata(first.id)
    expect(meta).toMatchObject({ filename: 'lost', progress: 2, pagecount: 3 })
    expect(meta.tags).toMatch(/^artist:kept, date_added:\d+$/)
    const page = await app.req(`/api/archives/${first.id}/page?page=3`, { headers: admin })
    expect(page.status).toBe(200)

    const duplicate = await upload('lost copy.zip', bytes)
    expect(duplicate.status).toBe(409)
    expect(duplicate.body).toMatchObject({ operation: 'upload', success: 0, id: first.id })
  })
})

describe('GET /api/archives/:id/files (test_reader)', () => {
  it('lists page URLs a client joins to the base URL and decodes like parse_qs', async () => {
    const names = ['reader-pg-1.png', 'reader-pg-2.png', 'ページ 3+#&%.png']
    const { body: uploaded } = await upload('reader.zip', await archive('reader', names))
    const files = (await app.json(`/api/archives/${uploaded.id}/files`, { headers: admin })).body
    expect(files.job).toEqual(expect.any(Number))
    // The reader's page URL carries the entry name as is: `page?path=<name>-pg-2.png`.
    expect(files.pages[1]).toBe(`/api/archives/${uploaded.id}/page?path=reader-pg-2.png`)
    for (const [index, page] of (files.pages as string[]).entries()) {
      // URLSearchParams reads `+` as a space, as parse_qs does: a literal `+` must come escaped.
      const path = new URL(app.url + page).searchParams.get('path')
      expect(path).toBe(names[index]!)
      const resent = await app.req(
        `/api/archives/${uploaded.id}/page?${new URLSearchParams({ path: path! })}`,
        { headers: admin },
      )
      expect(resent.status).toBe(200)
      const byNumber = await app.req(`/api/archives/${uploaded.id}/page?page=${index + 1}`, {
        headers: admin,
      })
      expect(await resent.arrayBuffer()).toEqual(await byNumber.arrayBuffer())
    }
  })

  it('serves a read (clear New, metadata, files and pages, progress, thumbnail) at once', async () => {
    const { body: uploaded } = await upload('read.zip', await archive('read'))
    const id = uploaded.id as string
    const call = (path: string, method = 'GET') =>
      retryOnLock(() => app.req(path, { method, headers: admin }))
    const files = (await (await call(`/api/archives/${id}/files?force=false`)).json()) as Wire
    const answers = await Promise.all([
      call(`/api/archives/${id}/isnew`, 'DELETE'),
      call(`/api/archives/${id}/metadata`),
      call(`/api/archives/${id}/progress/1`, 'PUT'),
      call(`/api/archives/${id}/thumbnail`),
      ...(files.pages as string[]).map((page) => call(page)),
    ])
    expect(answers.map((res) => res.status)).toEqual(answers.map(() => 200))
    const meta = await metadata(id)
    expect(meta).toMatchObject({ isnew: 'false', progress: 1, pagecount: 3 })
    expect(Number.isInteger(meta.lastreadtime) && meta.lastreadtime > 0).toBe(true)
  })
})

describe('GET /api/archives/:id/thumbnail (test_archive_read)', () => {
  it('answers an image to the Python client, which spells the flag nofallback', async () => {
    const { body: uploaded } = await upload('thumb.zip', await archive('thumb'))
    const res = await app.req(`/api/archives/${uploaded.id}/thumbnail?nofallback=true`, {
      headers: admin,
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toStartWith('image/')
  })
})

describe('PUT /api/archives/:id/metadata (as LANraragi stores an edit)', () => {
  it('stores NFC text, drops line breaks from title and tags, trims tags, drops empty and repeated ones', async () => {
    const { body: uploaded } = await upload('edit.zip', await archive('edit'))
    const form = new FormData()
    form.set('title', '  Cafe\u0301\r\n Noir  ')
    form.set('tags', ' artist:Cafe\u0301, ,series:x\n y ,artist:Café, Tag , tag,,')
    form.set('summary', '  Re\u0301sume\u0301  ')
    const res = await app.json(`/api/archives/${uploaded.id}/metadata`, {
      method: 'PUT',
      body: form,
      headers: admin,
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      operation: 'update_metadata',
      success: 1,
      successMessage: 'Updated metadata for "Café Noir"!',
    })
    const meta = await metadata(uploaded.id)
    expect(meta.title).toBe('Café Noir')
    // Repeats differing only in case are one tag here (docs/api.md): LANraragi keeps both.
    expect(meta.tags).toBe('artist:Café, series:x y, Tag')
    expect(meta.summary).toBe('  Résumé  ')
  })

  it('clears every tag on an empty tags param, which makes the archive untagged (test_untagged_archives)', async () => {
    const { body: uploaded } = await upload('untagged.zip', await archive('untagged'))
    const untagged = async () =>
      (await app.json('/api/archives/untagged', { headers: admin })).body as string[]
    expect(await untagged()).toContain(uploaded.id)
    const tag = await app.req(`/api/archives/${uploaded.id}/metadata?tags=test`, {
      method: 'PUT',
      headers: admin,
    })
    expect(tag.status).toBe(200)
    expect(await untagged()).not.toContain(uploaded.id)
    const clear = await app.req(`/api/archives/${uploaded.id}/metadata?tags=`, {
      method: 'PUT',
      headers: admin,
    })
    expect(clear.status).toBe(200)
    expect((await metadata(uploaded.id)).tags).toBe('')
    expect(await untagged()).toContain(uploaded.id)
  })
})

describe('request params in a form body (LANraragi reads them from query or body)', () => {
  const form = (fields: Record<string, string>) => {
    const body = new FormData()
    for (const [name, value] of Object.entries(fields)) body.set(name, value)
    return body
  }
  const send = (method: string, path: string, fields: Record<string, string> = {}) =>
    app.json(path, { method, body: form(fields), headers: admin })

  it('adds, renames and removes toc entries from form fields (test_toc_reader)', async () => {
    const { body: uploaded } = await upload('toc.zip', await archive('toc'))
    const toc = `/api/archives/${uploaded.id}/toc`
    for (const [page, title] of [
      ['1', 'Chapter 1'],
      ['3', 'Chapter 2'],
      ['1', 'Chapter 1 Renamed'],
    ])
      expect((await send('PUT', toc, { page: page!, title: title! })).body).toMatchObject({
        operation: 'add_toc',
        success: 1,
      })
    expect((await metadata(uploaded.id)).toc).toEqual([
      { name: 'Chapter 1 Renamed', page: 1 },
      { name: 'Chapter 2', page: 3 },
    ])
    expect((await send('DELETE', toc, { page: '3' })).body).toMatchObject({ success: 1 })
    expect((await metadata(uploaded.id)).toc).toEqual([{ name: 'Chapter 1 Renamed', page: 1 }])
  })

  it('reads force from a form on page thumbnails, regen_thumbs and progress', async () => {
    const { body: uploaded } = await upload('force.zip', await archive('force'))
    const thumbs = `/api/archives/${uploaded.id}/files/thumbnails`
    const first = await send('POST', thumbs)
    expect(first.status).toBe(202)
    await app.deps.jobs.waitFor(first.body.job)
    expect((await send('POST', thumbs)).status).toBe(200)
    const forced = await send('POST', thumbs, { force: 'true' })
    expect(forced.status).toBe(202)
    expect(forced.body).toEqual({
      operation: 'generate_page_thumbnails',
      success: 1,
      job: expect.any(Number),
    })
    await app.deps.jobs.waitFor(forced.body.job)

    // Once every cover exists, only a forced regen (Python's `True` in the form) remakes them.
    const regen = async (fields: Record<string, string>) => {
      const { body } = await send('POST', '/api/regen_thumbs', fields)
      expect(body).toEqual({ operation: 'regen_thumbnails', success: 1, job: expect.any(Number) })
      await app.deps.jobs.waitFor(body.job)
      return (await app.json(`/api/minion/${body.job}`, { headers: admin })).body.result
    }
    await regen({})
    expect((await regen({ force: 'false' })).made).toBe(0)
    const forcedRegen = await regen({ force: 'True' })
    expect(forcedRegen.made).toBeGreaterThan(0)
    expect(forcedRegen.made).toBe(forcedRegen.total)

    await send('PUT', `/api/archives/${uploaded.id}/progress/2`)
    const cleared = await send('PUT', `/api/archives/${uploaded.id}/progress/0`, { force: '1' })
    expect(cleared.body).toMatchObject({ operation: 'update_progress', success: 1, page: 0 })
    expect(await metadata(uploaded.id)).toMatchObject({ progress: 0, lastreadtime: 0 })
  })
})

describe('DELETE /api/archives/:id (test_archive_upload, test_fs)', () => {
  it('deletes concurrently, leaving exactly the other files on disk and their covers', async () => {
    await using own = await startTestServer()
    await own.idle()
    const session = await own.login()
    const ids: string[] = []
    for (const n of [1, 2, 3, 4, 5, 6]) {
      const form = new FormData()
      form.set('file', new File([await archive(`del-${n}`)], `del-${n}.zip`))
      const res = await own.json('/api/archives/upload', {
        method: 'PUT',
        body: form,
        cookie: session,
      })
      ids.push(res.body.id)
    }
    const doomed = ids.slice(0, 4)
    const covers = (id: string) => {
      const dir = join(own.deps.config.thumbsDir, id.slice(0, 2))
      return existsSync(dir) ? readdirSync(dir).filter((f) => f.startsWith(id)) : []
    }
    for (const id of doomed) {
      await own.req(`/api/archives/${id}/thumbnail?page=1`, { method: 'PUT', cookie: session })
      expect(covers(id)).not.toEqual([])
    }
    const answers = await Promise.all(
      doomed.map((id) =>
        retryOnLock(() => own.req(`/api/archives/${id}`, { method: 'DELETE', cookie: session })),
      ),
    )
    for (const [index, res] of answers.entries())
      expect(await res.json()).toEqual({
        operation: 'delete_archive',
        success: 1,
        id: doomed[index],
        filename: `del-${index + 1}.zip`,
      })
    expect(readdirSync(own.contentDir).sort()).toEqual(['del-5.zip', 'del-6.zip'])
    const list = (await own.json('/api/archives', { cookie: session })).body as Wire[]
    expect(list.map((a) => a.arcid).sort()).toEqual(ids.slice(4).sort())
    for (const id of doomed) expect(covers(id)).toEqual([])
  })
})

describe('POST /api/minion/:task/queue (trigger_stat_rebuild)', () => {
  it('queues build_stat_hashes from query params; the job reads finished in the minion dialect', async () => {
    const res = await app.json('/api/minion/build_stat_hashes/queue?args=[]&priority=3', {
      method: 'POST',
      headers: admin,
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ operation: 'queue_minion_job', success: 1, job: expect.any(Number) })
    await app.deps.jobs.waitFor(res.body.job)
    const status = (await app.json(`/api/minion/${res.body.job}`, { headers: admin })).body
    expect(String(status.state).toLowerCase()).toBe('finished')
  })

  it("queues find_duplicates from a form body, as LANraragi's web client does", async () => {
    const form = new FormData()
    form.set('args', '[5]')
    form.set('priority', '0')
    const res = await app.json('/api/minion/find_duplicates/queue', {
      method: 'POST',
      body: form,
      cookie,
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ operation: 'queue_minion_job', success: 1 })
    await app.deps.jobs.waitFor(res.body.job)
    const status = (await app.json(`/api/minion/${res.body.job}`, { cookie })).body
    expect(status).toMatchObject({ state: 'finished', task: 'find_duplicates' })
  })

  it('refuses an unknown task, args that are no JSON array and callers without admin rights', async () => {
    const send = (path: string, headers: Record<string, string> = admin) =>
      app.json(path, { method: 'POST', headers })
    for (const path of [
      '/api/minion/warm_cache/queue?args=[]',
      '/api/minion/build_stat_hashes/queue?args={}',
      '/api/minion/build_stat_hashes/queue?args=nope',
      '/api/minion/build_stat_hashes/queue?priority=high',
    ]) {
      const res = await send(path)
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ operation: 'queue_minion_job', success: 0 })
      expect(res.body.error).toEqual(expect.any(String))
    }
    expect((await send('/api/minion/build_stat_hashes/queue', {})).status).toBe(401)
    expect((await send('/api/minion/build_stat_hashes/queue', guest)).status).toBe(403)
  })
})
