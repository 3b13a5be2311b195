// The upload body is parsed as it arrives: fields before or after the file, the size limit on a
// chunked body (stopped there, nothing staged left), and malformed or doubled parts.
import { describe, expect, it } from 'bun:test'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { makeCbz } from '../helpers/fixtures.ts'

const MiB = 1024 * 1024

type Part = { name: string; value: string } | { name: string; file: Uint8Array; filename: string }

/** A multipart body with its parts in exactly this order. */
function formOf(parts: Part[]): FormData {
  const form = new FormData()
  for (const part of parts) {
    if ('file' in part)
      form.append(part.name, new File([part.file as Uint8Array<ArrayBuffer>], part.filename))
    else form.append(part.name, part.value)
  }
  return form
}

/** The same body sent chunked: a stream has no Content-Length. */
async function putChunked(app: TestServer, cookie: string, body: Uint8Array, contentType: string) {
  return app.req('/api/archives/upload', {
    method: 'PUT',
    cookie,
    headers: { 'content-type': contentType },
    body: new ReadableStream({
      start(controller) {
        for (let at = 0; at < body.byteLength; at += 64 * 1024)
          controller.enqueue(body.slice(at, at + 64 * 1024))
        controller.close()
      },
    }),
  })
}

async function encode(form: FormData): Promise<{ bytes: Uint8Array; contentType: string }> {
  const res = new Response(form)
  // Read first: Bun drops the generated header once the body is consumed.
  const contentType = res.headers.get('content-type')!
  return { bytes: await res.bytes(), contentType }
}

const stagedFiles = (app: TestServer) =>
  readdirSync(app.deps.config.tempDir).filter((name) => name.startsWith('upload-'))

describe('PUT /api/archives/upload (streamed body)', () => {
  it('reads the text fields whether they come before or after the file part', async () => {
    await using app = await startTestServer()
    await app.idle()
    const cookie = await app.login()
    for (const [order, pages] of [
      ['before', 1],
      ['after', 2],
    ] as const) {
      const source = join(app.root, `${order}.cbz`)
      await makeCbz(source, { pages })
      const bytes = await Bun.file(source).bytes()
      const sha1 = new Bun.CryptoHasher('sha1').update(bytes).digest('hex')
      const text = [
        { name: 'file_checksum', value: sha1 },
        { name: 'title', value: `Fields ${order}` },
        { name: 'tags', value: 'artist:streamed' },
        { name: 'summary', value: 'ünïcode summary' },
      ]
      const file = { name: 'file', file: bytes, filename: `${order}.cbz` }
      const res = await app.req('/api/archives/upload', {
        method: 'PUT',
        cookie,
        body: formOf(order === 'before' ? [...text, file] : [file, ...text]),
      })
      expect(res.status).toBe(200)
      const body = (await res.json()) as Wire
      expect(body).toMatchObject({ success: 1, name: `${order}.cbz`, title: `Fields ${order}` })
      const meta = (await (
        await app.req(`/api/archives/${body.id}/metadata`, { cookie })
      ).json()) as Wire
      expect(meta).toMatchObject({ summary: 'ünïcode summary', pagecount: pages })
      expect(meta.tags).toMatch(/^artist:streamed, date_added:\d+$/)
    }
    expect(readdirSync(app.contentDir).sort()).toEqual(['after.cbz', 'before.cbz'])
    expect(stagedFiles(app)).toEqual([])
  })

  it('answers 417 for a checksum sent after the file that does not match it', async () => {
    await using app = await startTestServer()
    await app.idle()
    const cookie = await app.login()
    const source = join(app.root, 'late.cbz')
    await makeCbz(source, { pages: 1 })
    const res = await app.req('/api/archives/upload', {
      method: 'PUT',
      cookie,
      body: formOf([
        { name: 'file', file: await Bun.file(source).bytes(), filename: 'Late.cbz' },
        { name: 'file_checksum', value: 'f'.repeat(40) },
      ]),
    })
    expect(res.status).toBe(417)
    expect(await res.json()).toMatchObject({ operation: 'upload', success: 0 })
    expect(readdirSync(app.contentDir)).toEqual([])
    expect(stagedFiles(app)).toEqual([])
  })

  it('stops a chunked upload at the limit with 413 Env and leaves no staged file', async () => {
    await using app = await startTestServer({ config: { maxUploadMb: 1 } })
    await app.idle()
    const cookie = await app.login()
    // Past the 1 MiB limit, under Bun's own cap (twice the limit): this server stops it.
    const { bytes, contentType } = await encode(
      formOf([
        { name: 'title', value: 'Too big' },
        {
          name: 'file',
          file: crypto.getRandomValues(new Uint8Array(MiB + MiB / 2)),
          filename: 'Big.cbz',
        },
      ]),
    )
    const res = await putChunked(app, cookie, bytes, contentType)
    expect(res.status).toBe(413)
    expect(await res.json()).toEqual({
      operation: 'upload',
      success: 0,
      error: "The upload is larger than this server's limit of 1 MiB.",
    })
    expect(stagedFiles(app)).toEqual([])
    expect(readdirSync(app.contentDir)).toEqual([])

    // A chunked upload under the limit still goes through.
    const small = join(app.root, 'small.cbz')
    await makeCbz(small, { pages: 1 })
    const ok = await encode(
      formOf([{ name: 'file', file: await Bun.file(small).bytes(), filename: 'Small.cbz' }]),
    )
    const accepted = await putChunked(app, cookie, ok.bytes, ok.contentType)
    expect(accepted.status).toBe(200)
    expect(readdirSync(app.contentDir)).toEqual(['Small.cbz'])
  })

  it('answers 400 Env for two file parts, a body cut inside the file, and a non-form body', async () => {
    await using app = await startTestServer()
    await app.idle()
    const cookie = await app.login()
    const source = join(app.root, 'one.cbz')
    await makeCbz(source, { pages: 1 })
    const bytes = await Bun.file(source).bytes()

    const two = await app.req('/api/archives/upload', {
      method: 'PUT',
      cookie,
      body: formOf([
        { name: 'file', file: bytes, filename: 'A.cbz' },
        { name: 'file', file: bytes, filename: 'B.cbz' },
      ]),
    })
    expect(two.status).toBe(400)
    expect(await two.json()).toMatchObject({ operation: 'upload', success: 0 })

    const whole = await encode(formOf([{ name: 'file', file: bytes, filename: 'Cut.cbz' }]))
    const cut = await putChunked(
      app,
      cookie,
      whole.bytes.subarray(0, whole.bytes.byteLength - 100),
      whole.contentType,
    )
    expect(cut.status).toBe(400)
    expect(await cut.json()).toEqual({
      operation: 'upload',
      success: 0,
      error: 'Malformed multipart body.',
    })

    const json = await app.req('/api/archives/upload', { method: 'PUT', cookie, json: {} })
    expect(json.status).toBe(400)
    expect(await json.json()).toMatchObject({ operation: 'upload', success: 0 })

    expect(readdirSync(app.contentDir)).toEqual([])
    expect(stagedFiles(app)).toEqual([])
  })

  it('answers 400 Env for a body cut right after the file part headers, staging nothing', async () => {
    await using app = await startTestServer()
    await app.idle()
    const cookie = await app.login()
    // The part fails before or while the staging starts reading it: still a malformed body.
    for (const content of ['', 'PK\x03\x04', 'x'.repeat(200_000)]) {
      const head =
        '--cut\r\nContent-Disposition: form-data; name="file"; filename="Cut.cbz"\r\n' +
        'Content-Type: application/octet-stream\r\n\r\n'
      const res = await putChunked(
        app,
        cookie,
        new TextEncoder().encode(head + content),
        'multipart/form-data; boundary=cut',
      )
      expect(res.status).toBe(400)
      expect(await res.json()).toEqual({
        operation: 'upload',
        success: 0,
        error: 'Malformed multipart body.',
      })
    }
    expect(readdirSync(app.contentDir)).toEqual([])
    expect(stagedFiles(app)).toEqual([])
  })

  it('answers 413 Env for a text field past 1 MiB', async () => {
    await using app = await startTestServer()
    await app.idle()
    const cookie = await app.login()
    const source = join(app.root, 'long.cbz')
    await makeCbz(source, { pages: 1 })
    const res = await app.req('/api/archives/upload', {
      method: 'PUT',
      cookie,
      body: formOf([
        { name: 'file', file: await Bun.file(source).bytes(), filename: 'Long.cbz' },
        { name: 'summary', value: 'x'.repeat(MiB + 1) },
      ]),
    })
    expect(res.status).toBe(413)
    expect(await res.json()).toEqual({
      operation: 'upload',
      success: 0,
      error: 'The field "summary" is larger than 1 MiB.',
    })
    expect(readdirSync(app.contentDir)).toEqual([])
    expect(stagedFiles(app)).toEqual([])
  })

  it('checks access on the headers, without waiting for the body', async () => {
    await using app = await startTestServer()
    // A body that never ends: the answer can only come from the headers.
    const res = await app.req('/api/archives/upload', {
      method: 'PUT',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('--x\r\n'))
        },
      }),
    })
    expect(res.status).toBe(401)
    expect(await res.json()).toMatchObject({ operation: 'upload', success: 0 })
  })
})
