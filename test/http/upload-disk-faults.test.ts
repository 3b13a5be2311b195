// A disk that fails while an upload is being staged (full, over quota, failing): 500 Env saying the
// upload could not be stored, never a 400 for a body that was well formed, and no file left. The
// faults are injected at the staged file's writes: a full disk cannot be made unprivileged.
import { describe, expect, it } from 'bun:test'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { startTestServer, type TestServer } from '../helpers/server.ts'
import { makeCbz } from '../helpers/fixtures.ts'

const MiB = 1024 * 1024

const stagedFiles = (app: TestServer) =>
  readdirSync(app.deps.config.tempDir).filter((name) => name.startsWith('upload-'))

/** From the `after`-th write of the staged file on, the disk answers `code`, as the kernel would. */
function failWritesAfter(app: TestServer, after: number, code: string) {
  let writes = 0
  app.deps.archives.uploads.stagingWriteFault = () =>
    ++writes > after
      ? Object.assign(new Error(`${code}: disk fault, write`), { code, syscall: 'write' })
      : undefined
}

/** A well-formed upload of an 8 MiB file that claims to be a CBZ. */
function bigUpload(app: TestServer, cookie: string) {
  const form = new FormData()
  form.set(
    'file',
    new File(
      [crypto.getRandomValues(new Uint8Array(64 * 1024)), new Uint8Array(8 * MiB)],
      'Big.cbz',
    ),
  )
  form.set('title', 'Big')
  return app.req('/api/archives/upload', { method: 'PUT', body: form, cookie })
}

describe('PUT /api/archives/upload (disk faults while staging)', () => {
  it('answers 500 Env "disk is full" for ENOSPC mid-upload and removes the partial file', async () => {
    await using app = await startTestServer()
    await app.idle()
    const cookie = await app.login()
    failWritesAfter(app, 2, 'ENOSPC')
    const res = await bigUpload(app, cookie)
    expect(res.status).toBe(500)
    expect(await res.json()).toEqual({
      operation: 'upload',
      success: 0,
      error: 'The upload could not be stored: the disk is full.',
    })
    expect(stagedFiles(app)).toEqual([])
    expect(readdirSync(app.contentDir)).toEqual([])
    expect(await (await app.req('/api/archives', { cookie })).json()).toEqual([])
  })

  it('names a quota or I/O fault, and answers any other write fault as not stored', async () => {
    await using app = await startTestServer()
    await app.idle()
    const cookie = await app.login()
    for (const [code, error] of [
      ['EDQUOT', 'The upload could not be stored: the disk quota is exceeded.'],
      ['EIO', 'The upload could not be stored: the disk reported an I/O error.'],
      ['EFBIG', 'The upload could not be stored.'],
    ] as const) {
      failWritesAfter(app, 0, code)
      const res = await bigUpload(app, cookie)
      expect(res.status).toBe(500)
      expect(await res.json()).toEqual({ operation: 'upload', success: 0, error })
      expect(stagedFiles(app)).toEqual([])
    }
    expect(readdirSync(app.contentDir)).toEqual([])
  })

  it('stores the next upload once the disk has room again', async () => {
    await using app = await startTestServer()
    await app.idle()
    const cookie = await app.login()
    failWritesAfter(app, 1, 'ENOSPC')
    expect((await bigUpload(app, cookie)).status).toBe(500)
    app.deps.archives.uploads.stagingWriteFault = undefined
    const source = join(app.root, 'small.cbz')
    await makeCbz(source, { pages: 1 })
    const form = new FormData()
    form.set('file', new File([await Bun.file(source).bytes()], 'Small.cbz'))
    const res = await app.req('/api/archives/upload', { method: 'PUT', body: form, cookie })
    expect(res.status).toBe(200)
    expect(readdirSync(app.contentDir)).toEqual(['Small.cbz'])
    expect(stagedFiles(app)).toEqual([])
  })
})
