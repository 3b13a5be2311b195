import { describe, expect, it } from 'bun:test'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { makeCbz } from '../helpers/fixtures.ts'

async function upload(
  app: TestServer,
  cookie: string,
  bytes: Uint8Array,
  name: string,
  fields: Record<string, string> = {},
) {
  const form = new FormData()
  form.set('file', new File([bytes as Uint8Array<ArrayBuffer>], name))
  for (const [k, v] of Object.entries(fields)) form.set(k, v)
  return app.req('/api/archives/upload', { method: 'PUT', body: form, cookie })
}

describe('PUT /api/archives/upload', () => {
  it('catalogues an upload with its metadata and refuses bad ones with the spec statuses', async () => {
    await using app = await startTestServer()
    await app.idle()
    const cookie = await app.login()
    const source = join(app.root, 'source.cbz')
    await makeCbz(source, { pages: 2 })
    const bytes = await Bun.file(source).bytes()
    const sha1 = new Bun.CryptoHasher('sha1').update(bytes).digest('hex')

    const mismatch = await upload(app, cookie, bytes, 'Up.cbz', { file_checksum: '0'.repeat(40) })
    expect(mismatch.status).toBe(417)
    expect(await mismatch.json()).toMatchObject({ operation: 'upload', success: 0 })

    const res = await upload(app, cookie, bytes, 'Up.cbz', {
      file_checksum: sha1,
      title: 'Uploaded',
      tags: 'artist:me',
      summary: 's',
    })
    expect(res.status).toBe(200)
    const body = (await res.json()) as Wire
    expect(body).toMatchObject({ operation: 'upload', success: 1 })
    expect(body.id).toMatch(/^[0-9a-f]{40}$/)
    expect(existsSync(join(app.contentDir, 'Up.cbz'))).toBe(true)
    const meta = (await (
      await app.req(`/api/archives/${body.id}/metadata`, { cookie })
    ).json()) as Wire
    expect(meta).toMatchObject({ title: 'Uploaded', summary: 's', pagecount: 2 })
    expect(meta.tags).toMatch(/^artist:me, date_added:\d+$/)

    const dup = await upload(app, cookie, bytes, 'Other name.cbz')
    expect(dup.status).toBe(409)
    expect(await dup.json()).toMatchObject({ success: 0, id: body.id })

    const unsupported = await upload(app, cookie, new TextEncoder().encode('hello'), 'notes.txt')
    expect(unsupported.status).toBe(415)

    const unreadable = await upload(
      app,
      cookie,
      new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5, 6]),
      'bad.cbz',
    )
    expect(unreadable.status).toBe(422)

    const noFile = await app.req('/api/archives/upload', {
      method: 'PUT',
      body: new FormData(),
      cookie,
    })
    expect(noFile.status).toBe(400)

    // No temp leftovers in the content folder after failures.
    expect(readdirSync(app.contentDir).sort()).toEqual(['Up.cbz'])
  })

  it('lets only one of two concurrent uploads of the same file in', async () => {
    await using app = await startTestServer()
    await app.idle()
    const cookie = await app.login()
    const source = join(app.root, 'same.cbz')
    await makeCbz(source, { pages: 3 })
    const bytes = await Bun.file(source).bytes()
    const results = await Promise.all([
      upload(app, cookie, bytes, 'Same.cbz'),
      upload(app, cookie, bytes, 'Same.cbz'),
    ])
    expect(results.map((r) => r.status).sort()).toEqual([200, 409])
    expect(readdirSync(app.contentDir)).toEqual(['Same.cbz'])
  })

  it('lets only one of two different files uploaded under one name at once in', async () => {
    await using app = await startTestServer()
    await app.idle()
    const cookie = await app.login()
    const a = join(app.root, 'a.cbz')
    const b = join(app.root, 'b.cbz')
    await makeCbz(a, { pages: 2 })
    await makeCbz(b, { pages: 3 })
    const results = await Promise.all([
      upload(app, cookie, await Bun.file(a).bytes(), 'Name.cbz'),
      upload(app, cookie, await Bun.file(b).bytes(), 'Name.cbz'),
    ])
    expect(results.map((r) => r.status).sort()).toEqual([200, 409])
    const loser = results.find((r) => r.status === 409)!
    expect(await loser.json()).toMatchObject({ operation: 'upload', success: 0 })
    expect(readdirSync(app.contentDir)).toEqual(['Name.cbz'])
    const list = (await (await app.req('/api/archives', { cookie })).json()) as Wire[]
    expect(list).toHaveLength(1)
  })

  it('adds the upload to a static category, and refuses an unknown category before storing', async () => {
    await using app = await startTestServer()
    await app.idle()
    const cookie = await app.login()
    const form = new FormData()
    form.set('name', 'Uploads')
    const created = (await (
      await app.req('/api/categories', { method: 'PUT', body: form, cookie })
    ).json()) as Wire
    expect(created.category_id).toMatch(/^SET_\d{10}$/)
    const source = join(app.root, 'cat.cbz')
    await makeCbz(source, { pages: 1 })
    const bytes = await Bun.file(source).bytes()

    const unknown = await upload(app, cookie, bytes, 'Cat.cbz', { category_id: 'SET_0000000001' })
    expect(unknown.status).toBe(400)
    expect(readdirSync(app.contentDir)).toEqual([])

    const res = (await (
      await upload(app, cookie, bytes, 'Cat.cbz', { category_id: created.category_id })
    ).json()) as Wire
    expect(res.success).toBe(1)
    const cats = (await (
      await app.req(`/api/archives/${res.id}/categories`, { cookie })
    ).json()) as Wire
    expect(cats.categories.map((c: Wire) => c.id)).toEqual([created.category_id])
  })

  it('answers the stored base name, never the client path sent with the file', async () => {
    await using app = await startTestServer()
    await app.idle()
    const cookie = await app.login()
    const source = join(app.root, 'evil.cbz')
    await makeCbz(source, { pages: 1 })
    const res = await upload(app, cookie, await Bun.file(source).bytes(), '../evil1.cbz')
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ operation: 'upload', success: 1, name: 'evil1.cbz' })
    expect(readdirSync(app.contentDir)).toEqual(['evil1.cbz'])
  })

  it('stores a name up to 255 bytes and refuses a longer one with 400 Env', async () => {
    await using app = await startTestServer()
    await app.idle()
    const cookie = await app.login()
    const source = join(app.root, 'long.cbz')
    await makeCbz(source, { pages: 1 })
    const bytes = await Bun.file(source).bytes()
    const longest = `${'y'.repeat(251)}.cbz`
    const res = await upload(app, cookie, bytes, longest)
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ success: 1, name: longest })
    const tooLong = await upload(app, cookie, bytes, `${'z'.repeat(252)}.cbz`)
    expect(tooLong.status).toBe(400)
    expect(await tooLong.json()).toEqual({
      operation: 'upload',
      success: 0,
      error: 'File name too long: at most 255 bytes in UTF-8 (this one is 256).',
    })
    expect(readdirSync(app.contentDir)).toEqual([longest])
  })

  it('stores a name whose NFD form passes 255 bytes (voiced kana) when its NFC form fits', async () => {
    await using app = await startTestServer()
    await app.idle()
    const cookie = await app.login()
    const source = join(app.root, 'kana.cbz')
    await makeCbz(source, { pages: 1 })
    // 80 characters, 240 bytes in NFC; each "ガ" is "カ" + U+3099 in NFD, 480 bytes.
    const title = 'ガギグゲゴ'.repeat(16)
    const name = `${title}.cbz`
    expect(Buffer.byteLength(name)).toBe(244)
    expect(Buffer.byteLength(name.normalize('NFD'))).toBeGreaterThan(255)
    const res = await upload(app, cookie, await Bun.file(source).bytes(), name)
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ success: 1, name })
    expect(readdirSync(app.contentDir)).toEqual([name])
    // The same name again is a clash (409), not a failure of the check.
    await makeCbz(source, { pages: 2 })
    const again = await upload(app, cookie, await Bun.file(source).bytes(), name)
    expect(again.status).toBe(409)
  })

  it('answers 422 for a supported extension whose bytes are no archive, 415 for an unsupported one', async () => {
    await using app = await startTestServer()
    await app.idle()
    const cookie = await app.login()
    const text = new TextEncoder().encode('hello, not an archive')
    for (const [bytes, name] of [
      [text, 'Notes.cbz'],
      [text, 'Notes.rar'],
      [text, 'Notes.tar.gz'],
      [new Uint8Array(0), 'Empty.zip'],
    ] as const) {
      const res = await upload(app, cookie, bytes, name)
      expect(res.status).toBe(422)
      expect(await res.json()).toEqual({
        operation: 'upload',
        success: 0,
        error: 'The file cannot be read as an archive: not a known archive format.',
      })
    }
    for (const name of ['notes.txt', 'Notes.pdf', 'Notes']) {
      const res = await upload(app, cookie, text, name)
      expect(res.status).toBe(415)
      expect(await res.json()).toEqual({
        operation: 'upload',
        success: 0,
        error: `Unsupported File Extension (${name})`,
      })
    }
    expect(readdirSync(app.contentDir)).toEqual([])
    expect(readdirSync(app.deps.config.tempDir).filter((n) => n.startsWith('upload-'))).toEqual([])
  })

  it('needs admin credentials', async () => {
    await using app = await startTestServer()
    const res = await upload(app, '', new Uint8Array([1]), 'x.cbz')
    expect(res.status).toBe(401)
  })
})

describe('interrupted and failed writes', () => {
  it('answers 500 Env when the upload cannot be stored, and leaves no file or row', async () => {
    await using app = await startTestServer()
    await app.idle()
    const cookie = await app.login()
    const source = join(app.root, 'full.cbz')
    await makeCbz(source, { pages: 1 })
    // The temp folder replaced by a file: every staged write fails, as on a full disk.
    const tempDir = app.deps.config.tempDir
    rmSync(tempDir, { recursive: true, force: true })
    writeFileSync(tempDir, '')
    try {
      const res = await upload(app, cookie, await Bun.file(source).bytes(), 'Full.cbz')
      expect(res.status).toBe(500)
      expect(await res.json()).toMatchObject({
        operation: 'upload',
        success: 0,
        error: expect.stringContaining('store'),
      })
    } finally {
      rmSync(tempDir, { force: true })
      mkdirSync(tempDir)
    }
    expect(readdirSync(app.contentDir)).toEqual([])
    expect(await (await app.req('/api/archives', { cookie })).json()).toEqual([])
  })

  it('removes what a crash left of uploads when the server starts again', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tankobun-crash-'))
    try {
      {
        await using app = await startTestServer({ root })
        await app.idle()
        // What a crash between the staged write and the rename leaves behind.
        writeFileSync(join(app.deps.config.tempDir, 'upload-0a1b'), 'partial')
        writeFileSync(join(app.contentDir, '.Half.cbz.tankobun-tmp-0a1b'), 'partial')
        mkdirSync(join(app.contentDir, 'sub'))
        writeFileSync(join(app.contentDir, 'sub', '.Deep.cbz.tankobun-tmp-0a1b'), 'partial')
        await makeCbz(join(app.contentDir, 'Kept.cbz'), { pages: 1 })
      }
      await using app = await startTestServer({ root })
      await app.idle()
      expect(readdirSync(app.contentDir).sort()).toEqual(['Kept.cbz', 'sub'])
      expect(readdirSync(join(app.contentDir, 'sub'))).toEqual([])
      expect(readdirSync(app.deps.config.tempDir).filter((n) => n.startsWith('upload-'))).toEqual(
        [],
      )
      const cookie = await app.login()
      const list = (await (await app.req('/api/archives', { cookie })).json()) as Wire[]
      expect(list.map((a) => a.title)).toEqual(['Kept'])
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})
