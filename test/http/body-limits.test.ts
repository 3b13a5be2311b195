// Body caps: an upload past TANKOBUN_MAX_UPLOAD_MB and any other body past 1 MiB are refused with
// a 413 Env from their Content-Length, before the body is read; unmeasured bodies off the upload
// route are 411; an upload sent chunked is bounded by Bun's cap and then by the limit.
import { describe, expect, it } from 'bun:test'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { startTestServer, type TestServer } from '../helpers/server.ts'
import { makeCbz } from '../helpers/fixtures.ts'

const MiB = 1024 * 1024

function uploadForm(bytes: Uint8Array, name: string): FormData {
  const form = new FormData()
  form.set('file', new File([bytes as Uint8Array<ArrayBuffer>], name))
  return form
}

/** The same multipart body, sent chunked: a stream has no Content-Length. */
function chunked(form: FormData): { body: ReadableStream; headers: Record<string, string> } {
  const encoded = new Response(form)
  return {
    body: encoded.body!,
    headers: { 'content-type': encoded.headers.get('content-type')! },
  }
}

async function bigArchive(app: TestServer, mib: number): Promise<Uint8Array> {
  // A real archive padded past the limit: stored pages of random-looking bytes.
  const path = join(app.root, 'big.cbz')
  await makeCbz(path, {
    pages: 1,
    entries: [{ name: 'padding.bin', data: crypto.getRandomValues(new Uint8Array(mib * MiB)) }],
  })
  return Bun.file(path).bytes()
}

describe('PUT /api/archives/upload (size limit)', () => {
  it('answers 413 Env for a Content-Length past the limit and stores nothing', async () => {
    await using app = await startTestServer({ config: { maxUploadMb: 1 } })
    await app.idle()
    const cookie = await app.login()
    const res = await app.req('/api/archives/upload', {
      method: 'PUT',
      body: uploadForm(await bigArchive(app, 1), 'Big.cbz'),
      cookie,
    })
    expect(res.status).toBe(413)
    expect(await res.json()).toEqual({
      operation: 'upload',
      success: 0,
      error: "The upload is larger than this server's limit of 1 MiB.",
    })
    expect(readdirSync(app.contentDir)).toEqual([])

    const small = join(app.root, 'small.cbz')
    await makeCbz(small, { pages: 1 })
    const ok = await app.req('/api/archives/upload', {
      method: 'PUT',
      body: uploadForm(await Bun.file(small).bytes(), 'Small.cbz'),
      cookie,
    })
    expect(ok.status).toBe(200)
  })

  it('refuses a chunked upload past the limit: 413 Env, or Bun’s bare 413 past its own cap', async () => {
    await using app = await startTestServer({ config: { maxUploadMb: 1 } })
    await app.idle()
    const cookie = await app.login()
    const overLimit = await app.req('/api/archives/upload', {
      method: 'PUT',
      ...chunked(uploadForm(await bigArchive(app, 1), 'Big.cbz')),
      cookie,
    })
    expect(overLimit.status).toBe(413)
    expect(await overLimit.json()).toMatchObject({ operation: 'upload', success: 0 })

    // Bun's cap is twice the limit here, not its 128 MB default.
    const overCap = await app.req('/api/archives/upload', {
      method: 'PUT',
      ...chunked(uploadForm(await bigArchive(app, 3), 'Bigger.cbz')),
      cookie,
    })
    expect(overCap.status).toBe(413)
    expect(await overCap.text()).toBe('')
    expect(readdirSync(app.contentDir)).toEqual([])
  })
})

describe('request bodies off the upload route', () => {
  it('answers 413 Env for a Content-Length past 1 MiB, even on an open route', async () => {
    await using app = await startTestServer()
    const body = JSON.stringify({ password: 'x'.repeat(2 * MiB) })
    const res = await app.req('/api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    })
    expect(res.status).toBe(413)
    expect(await res.json()).toEqual({
      operation: 'login',
      success: 0,
      error: 'The request body is larger than 1 MiB.',
    })
  })

  it('answers 411 Env for a chunked body, which could only be measured by reading it', async () => {
    await using app = await startTestServer()
    const text = new TextEncoder().encode(JSON.stringify({ password: 'test-password' }))
    const res = await app.req('/api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(text)
          controller.close()
        },
      }),
    })
    expect(res.status).toBe(411)
    expect(await res.json()).toMatchObject({ operation: 'login', success: 0 })
  })

  it('still reads a body under the cap', async () => {
    await using app = await startTestServer()
    const res = await app.req('/api/login', {
      method: 'POST',
      json: { password: 'test-password' },
    })
    expect(res.status).toBe(200)
  })
})
