// Legacy import through the real server: the three modes for records the library has, mojibake
// repair, the count, and the snapshots an import writes first (listed, downloaded, restored to
// roll the import back, deleted).
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { makeCbz } from '../helpers/fixtures.ts'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'

let app: TestServer
let cookie: string
const ids: Record<string, string> = {}

function upload(doc: unknown, fields: Record<string, string> = {}): FormData {
  const body = new FormData()
  body.set('file', new File([JSON.stringify(doc)], 'lrr-backup.json'))
  for (const [key, value] of Object.entries(fields)) body.set(key, value)
  return body
}

async function importLegacy(doc: unknown, fields: Record<string, string> = {}): Promise<Wire> {
  const res = await app.json('/api/database/import-legacy', {
    method: 'POST',
    cookie,
    body: upload(doc, fields),
  })
  expect(res.status).toBe(200)
  expect(res.body).toMatchObject({ operation: 'import_legacy', success: 1 })
  const job = await app.deps.jobs.waitFor(res.body.job)
  expect(job.error).toBeNull()
  expect(job.name).toBe('import_legacy')
  return JSON.parse(job.result ?? '{}')
}

async function metadataOf(id: string): Promise<Wire> {
  return (await app.json(`/api/archives/${id}/metadata`, { cookie })).body
}

async function setMetadata(id: string, fields: Record<string, string>) {
  const query = new URLSearchParams(fields).toString()
  const res = await app.req(`/api/archives/${id}/metadata?${query}`, { method: 'PUT', cookie })
  expect(res.status).toBe(200)
}

/** A LANraragi backup of the three archives, with the text LANraragi's encoding bug wrote. */
function lrrBackup(titles: Record<string, string>, tags: Record<string, string>) {
  return {
    categories: [
      { catid: 'SET_1500000000', name: 'CafÃ© shelf', search: '', archives: [ids.One, ids.Two] },
    ],
    archives: Object.keys(titles).map((name) => ({
      arcid: ids[name],
      title: titles[name],
      tags: tags[name],
      thumbhash: null,
      filename: name,
    })),
  }
}

beforeAll(async () => {
  app = await startTestServer({
    beforeStart: async (dir) => {
      await makeCbz(join(dir, 'One.cbz'))
      await makeCbz(join(dir, 'Two.cbz'))
      await makeCbz(join(dir, 'Three.cbz'))
    },
  })
  cookie = await app.login()
  await app.idle()
  for (const a of (await app.json('/api/archives', { cookie })).body as Wire[])
    ids[a.filename] = a.arcid
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

describe('POST /api/database/import-legacy', () => {
  it('is session only, and answers 400 without a file or for an unknown mode', async () => {
    const token = await app.json('/api/tokens', {
      method: 'POST',
      cookie,
      json: { name: 'admin', role: 'admin' },
    })
    const byToken = await app.json('/api/database/import-legacy', {
      method: 'POST',
      token: token.body.data.token,
      body: upload({ archives: [], categories: [] }),
    })
    expect(byToken.status).toBe(403)
    const anonymous = await app.json('/api/database/import-legacy/count')
    expect(anonymous.status).toBe(401)

    const noFile = await app.json('/api/database/import-legacy', {
      method: 'POST',
      cookie,
      body: new FormData(),
    })
    expect(noFile.status).toBe(400)
    expect(noFile.body).toMatchObject({ operation: 'import_legacy', success: 0 })

    const badMode = await app.json('/api/database/import-legacy', {
      method: 'POST',
      cookie,
      body: upload({ archives: [], categories: [] }, { mode: 'replace-all' }),
    })
    expect(badMode.status).toBe(400)
    expect(badMode.body.error).toContain('mode')

    const count = await app.json('/api/database/import-legacy/count', { cookie })
    expect(count.body).toMatchObject({ operation: 'import_legacy_count', success: 1, count: 0 })
  })

  it('merge (the default): tags unioned, an edited title kept, mojibake repaired', async () => {
    await setMetadata(ids.One!, { title: 'My own title', tags: 'mine:yes' })
    const result = await importLegacy(
      lrrBackup(
        { One: 'Legacy One', Two: 'TÃ­tulo' },
        { One: 'artist:lrr, mine:yes', Two: 'artist:Å½ofie' },
      ),
    )
    expect(result).toMatchObject({ mode: 'merge', updated: 2, categories_created: 1 })
    expect(result.repaired).toBeGreaterThanOrEqual(3)
    const one = await metadataOf(ids.One!)
    expect(one.title).toBe('My own title')
    expect(one.tags).toContain('mine:yes, artist:lrr')
    const two = await metadataOf(ids.Two!)
    expect(two.title).toBe('Título')
    expect(two.tags).toContain('artist:Žofie')
    const category = (await app.json('/api/categories/SET_1500000000', { cookie })).body
    expect(category).toMatchObject({ name: 'Café shelf', archives: [ids.One, ids.Two] })
    const count = await app.json('/api/database/import-legacy/count', { cookie })
    expect(count.body.count).toBe(1)
  })

  it('skip: archives edited here stay, untouched ones take the legacy metadata', async () => {
    const result = await importLegacy(
      lrrBackup(
        { One: 'Skipped', Three: 'Legacy Three' },
        { One: 'artist:other', Three: 'artist:three' },
      ),
      { mode: 'skip', repair_mojibake: 'false' },
    )
    expect(result).toMatchObject({
      mode: 'skip',
      updated: 1,
      skipped_existing: 1,
      categories_skipped: 1,
    })
    expect((await metadataOf(ids.One!)).title).toBe('My own title')
    expect((await metadataOf(ids.Three!)).title).toBe('Legacy Three')
    // The category the first import made was left as it was, its repaired name included.
    const category = (await app.json('/api/categories/SET_1500000000', { cookie })).body
    expect(category.name).toBe('Café shelf')
  })

  it('overwrite, then rolled back by restoring the snapshot it wrote first', async () => {
    const before = await Promise.all([ids.One!, ids.Two!].map(metadataOf))
    const legacy = lrrBackup({ One: 'Over One', Two: 'Over Two' }, { One: 'o:1', Two: 'o:2' })
    // The import adds a table of contents the archive did not have: the rollback takes it away.
    Object.assign(legacy.archives[0]!, { toc: JSON.stringify({ '1': 'Legacy chapter' }) })
    const result = await importLegacy(legacy, { mode: 'overwrite' })
    expect(result).toMatchObject({ mode: 'overwrite', updated: 2 })
    expect(await metadataOf(ids.One!)).toMatchObject({
      title: 'Over One',
      tags: 'o:1',
      toc: [{ name: 'Legacy chapter', page: 1 }],
    })

    const list = await app.json('/api/database/import-snapshots', { cookie })
    expect(list.status).toBe(200)
    const snapshots = list.body.snapshots as Wire[]
    expect(snapshots).toHaveLength(3)
    expect(snapshots.map((s) => s.id)).toEqual(
      [...snapshots.map((s) => s.id)].sort((a, b) => b - a),
    )
    expect(snapshots[0]).toMatchObject({
      id: result.snapshot,
      reason: 'import_legacy',
      archives: 3,
      categories: 1,
    })
    expect(snapshots[0]!.document).toBeUndefined()
    expect(snapshots[0]!.size).toBeGreaterThan(0)

    const download = await app.req(`/api/database/import-snapshots/${result.snapshot}`, {
      cookie,
    })
    expect(download.status).toBe(200)
    expect(download.headers.get('content-disposition')).toContain('attachment')
    const doc = await download.text()

    const restore = new FormData()
    restore.set('file', new File([doc], 'snapshot.json'))
    const res = await app.json('/api/database/restore', { method: 'POST', cookie, body: restore })
    expect(res.status).toBe(200)
    const job = await app.deps.jobs.waitFor(res.body.job)
    expect(job.state).toBe('finished')
    const after = await Promise.all([ids.One!, ids.Two!].map(metadataOf))
    expect(after.map((m) => [m.title, m.tags, m.summary, m.toc])).toEqual(
      before.map((m) => [m.title, m.tags, m.summary, m.toc]),
    )
  })

  it('deletes a snapshot; an unknown one is 404', async () => {
    const list = (await app.json('/api/database/import-snapshots', { cookie })).body.snapshots
    const id = list.at(-1).id
    const del = await app.json(`/api/database/import-snapshots/${id}`, {
      method: 'DELETE',
      cookie,
    })
    expect(del.status).toBe(200)
    expect(del.body).toMatchObject({ operation: 'delete_import_snapshot', success: 1 })
    const again = await app.json(`/api/database/import-snapshots/${id}`, { cookie })
    expect(again.status).toBe(404)
    expect(again.body).toMatchObject({ operation: 'get_import_snapshot', success: 0 })
    const bad = await app.json('/api/database/import-snapshots/abc', { method: 'DELETE', cookie })
    expect(bad.status).toBe(400)
    const left = (await app.json('/api/database/import-snapshots', { cookie })).body.snapshots
    expect(left.map((s: Wire) => s.id)).not.toContain(id)
  })
})
