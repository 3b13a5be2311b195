// The upload pipeline under the upload route, driven directly as a download will drive it: a
// staged file is checked (a clash with the library is data, and the file stays staged), then
// ingested (placed, catalogued, added to its category; the staged file removed on every path).
import { describe, expect, it } from 'bun:test'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { startTestServer, type TestServer } from '../helpers/server.ts'
import { makeCbz } from '../helpers/fixtures.ts'
import { stageUpload } from '../../src/domain/archives/stage.ts'
import { checkStaged } from '../../src/domain/archives/check-staged.ts'
import { ingestStaged } from '../../src/domain/archives/upload.ts'
import { AppError } from '../../src/errors.ts'

async function* chunksOf(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  for (let at = 0; at < bytes.byteLength; at += 4096) yield bytes.subarray(at, at + 4096)
}

async function cbz(app: TestServer, pages: number): Promise<Uint8Array> {
  const source = join(app.root, `source-${crypto.randomUUID()}.cbz`)
  await makeCbz(source, { pages })
  return Bun.file(source).bytes()
}

const stage = (app: TestServer, name: string, bytes: Uint8Array) =>
  stageUpload(app.deps, name, chunksOf(bytes))

const stagedFiles = (app: TestServer) =>
  readdirSync(app.deps.config.tempDir).filter((name) => name.startsWith('upload-'))

describe('upload pipeline (stage -> check -> place)', () => {
  it('answers a duplicate and a taken name as data and keeps the staged file for the caller', async () => {
    await using app = await startTestServer()
    await app.idle()
    const bytes = await cbz(app, 2)
    const first = await stage(app, 'First.cbz', bytes)
    expect(await checkStaged(app.deps, first)).toEqual({
      kind: 'ready',
      pages: ['001.jpg', '002.jpg'],
    })
    const placed = await ingestStaged(app.deps, first, { title: 'One' })
    expect(placed).toMatchObject({ kind: 'placed', row: { id: first.id, title: 'One' } })
    expect(existsSync(first.path)).toBe(false)

    const again = await stage(app, 'Again.cbz', bytes)
    expect(await checkStaged(app.deps, again)).toEqual({ kind: 'duplicate', id: first.id })
    expect(existsSync(again.path)).toBe(true)

    const other = await stage(app, 'First.cbz', await cbz(app, 3))
    expect(await checkStaged(app.deps, other)).toEqual({ kind: 'name_taken', name: 'First.cbz' })
    expect(existsSync(other.path)).toBe(true)

    // Ingesting answers the same conflict, and the staged file is gone afterwards.
    expect(await ingestStaged(app.deps, other, {})).toEqual({
      kind: 'name_taken',
      name: 'First.cbz',
    })
    expect(await ingestStaged(app.deps, again, {})).toEqual({ kind: 'duplicate', id: first.id })
    expect(stagedFiles(app)).toEqual([])
    expect(readdirSync(app.contentDir)).toEqual(['First.cbz'])
  })

  it('refuses a file it cannot catalogue with an error and removes the staged file', async () => {
    await using app = await startTestServer()
    await app.idle()
    const staged = await stage(app, 'Checked.cbz', await cbz(app, 1))
    const refused = await ingestStaged(app.deps, staged, { checksum: 'f'.repeat(40) }).catch(
      (error: unknown) => error,
    )
    expect(refused).toBeInstanceOf(AppError)
    expect((refused as AppError).status).toBe(417)
    expect(stagedFiles(app)).toEqual([])
    expect(readdirSync(app.contentDir)).toEqual([])
  })

  it('adds the placed file to the category it was sent into', async () => {
    await using app = await startTestServer()
    await app.idle()
    const cookie = await app.login()
    const { body } = await app.json('/api/categories', {
      method: 'PUT',
      body: new URLSearchParams({ name: 'Inbox' }),
      cookie,
    })
    const staged = await stage(app, 'Sorted.cbz', await cbz(app, 1))
    const placed = await ingestStaged(app.deps, staged, { categoryId: body.category_id })
    expect(placed.kind).toBe('placed')
    const category = await app.json(`/api/categories/${body.category_id}`, { cookie })
    expect(category.body.archives).toEqual([staged.id])
  })
})
