// Backup and restore through the real server: the backup document, the backup job and its
// download, restore as a job (matched by id, then file name), the round trip backup -> drop ->
// rescan -> restore, a LANraragi-written backup, bad uploads, and a restore that fails part way.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { existsSync, mkdirSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { makeCbz } from '../helpers/fixtures.ts'
import { rescan } from '../helpers/rescan.ts'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'

let app: TestServer
let cookie: string
/** Archive ids by file stem. */
const ids: Record<string, string> = {}

const form = (fields: Record<string, string>) => new URLSearchParams(fields)

async function setMetadata(id: string, fields: Record<string, string>) {
  const query = new URLSearchParams(fields).toString()
  const res = await app.req(`/api/archives/${id}/metadata?${query}`, { method: 'PUT', cookie })
  expect(res.status).toBe(200)
}

function backupForm(doc: unknown, name = 'backup.json'): FormData {
  const body = new FormData()
  const text = typeof doc === 'string' ? doc : JSON.stringify(doc)
  body.set('file', new File([text], name, { type: 'application/json' }))
  return body
}

/** POST /api/database/restore, then the finished (or failed) job row. */
async function restore(doc: unknown) {
  const res = await app.json('/api/database/restore', {
    method: 'POST',
    cookie,
    body: backupForm(doc),
  })
  expect(res.status).toBe(200)
  expect(res.body).toMatchObject({ operation: 'restore_database', success: 1 })
  return app.deps.jobs.waitFor(res.body.job)
}

async function restored(doc: unknown): Promise<Wire> {
  const job = await restore(doc)
  expect(job.error).toBeNull()
  expect(job.state).toBe('finished')
  return JSON.parse(job.result ?? '{}')
}

async function backupDocument(): Promise<Wire> {
  const res = await app.json('/api/database/backup', { cookie })
  expect(res.status).toBe(200)
  return res.body
}

async function metadataOf(id: string): Promise<Wire> {
  return (await app.json(`/api/archives/${id}/metadata`, { cookie })).body
}

/** Archive ids by file name, from the live catalogue. */
async function catalogue(): Promise<Record<string, string>> {
  const res = await app.json('/api/archives', { cookie })
  const out: Record<string, string> = {}
  for (const a of res.body as Wire[]) out[a.filename] = a.arcid
  return out
}

/** A backup document in a comparable form: every list sorted by id. */
function sorted(doc: Wire): Wire {
  const by = (key: string) => (a: Wire, b: Wire) => (a[key] < b[key] ? -1 : 1)
  return {
    archives: [...doc.archives].sort(by('arcid')),
    categories: [...doc.categories].sort(by('catid')),
    tankoubons: [...doc.tankoubons].sort(by('tankid')),
  }
}

beforeAll(async () => {
  app = await startTestServer({
    beforeStart: async (dir) => {
      mkdirSync(join(dir, 'series'))
      await makeCbz(join(dir, 'Alpha.cbz'))
      await makeCbz(join(dir, 'Beta.cbz'))
      await makeCbz(join(dir, 'series', 'Gamma.cbz'))
    },
  })
  cookie = await app.login()
  await app.idle()
  Object.assign(ids, await catalogue())
  expect(Object.keys(ids).sort()).toEqual(['Alpha', 'Beta', 'Gamma'])
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

describe('GET /api/database/backup', () => {
  it('answers the backup document: archives, categories and Tankoubons', async () => {
    await setMetadata(ids.Alpha!, {
      title: 'Alpha Title',
      tags: 'artist:someone, female:glasses',
      summary: 'first',
    })
    const doc = await backupDocument()
    expect(Object.keys(doc).sort()).toEqual(['archives', 'categories', 'tankoubons'])
    const alpha = doc.archives.find((a: Wire) => a.arcid === ids.Alpha)
    expect(alpha).toMatchObject({
      arcid: ids.Alpha,
      title: 'Alpha Title',
      summary: 'first',
      filename: 'Alpha',
    })
    expect(alpha.tags).toContain('artist:someone, female:glasses')
    expect(alpha.thumbhash === null || /^[0-9a-f]{40}$/.test(alpha.thumbhash)).toBe(true)
    expect(doc.archives).toHaveLength(3)
  })
})

describe('POST /api/database/backup and GET /api/database/backup/{jobid}', () => {
  it('runs a backup job whose document downloads as JSON or as a file', async () => {
    const queued = await app.json('/api/database/backup', { method: 'POST', cookie })
    expect(queued.status).toBe(200)
    expect(queued.body).toMatchObject({ operation: 'queue_backup', success: 1 })
    const job = await app.deps.jobs.waitFor(queued.body.job)
    expect(job.state).toBe('finished')
    expect(JSON.parse(job.result ?? '{}')).toMatchObject({ archives: 3 })

    const asJson = await app.req(`/api/database/backup/${job.id}?format=json`, { cookie })
    expect(asJson.status).toBe(200)
    expect(asJson.headers.get('content-disposition')).toBeNull()
    expect(sorted((await asJson.json()) as Wire)).toEqual(sorted(await backupDocument()))

    const asFile = await app.req(`/api/database/backup/${job.id}`, { cookie })
    expect(asFile.status).toBe(200)
    expect(asFile.headers.get('content-disposition')).toMatch(
      /^attachment; filename="backup-\d{8}-\d{6}\.json"$/,
    )
    expect(((await asFile.json()) as Wire).archives).toHaveLength(3)
  })

  it('answers 400 for an unknown job, a job of another kind, or an unknown format', async () => {
    const unknown = await app.json('/api/database/backup/987654', { cookie })
    expect(unknown.status).toBe(400)
    expect(unknown.body).toMatchObject({ operation: 'get_backup', success: 0 })
    expect(unknown.body.error).toContain('No backup job')

    const other = app.deps.jobs.enqueue('rebuild_index', {})
    await app.deps.jobs.waitFor(other)
    const wrongKind = await app.json(`/api/database/backup/${other}`, { cookie })
    expect(wrongKind.status).toBe(400)

    const queued = await app.json('/api/database/backup', { method: 'POST', cookie })
    await app.deps.jobs.waitFor(queued.body.job)
    const badFormat = await app.json(`/api/database/backup/${queued.body.job}?format=xml`, {
      cookie,
    })
    expect(badFormat.status).toBe(400)
    expect(badFormat.body.error).toContain('format')
  })

  it('answers 400 while the backup job is not complete', async () => {
    // A job row that is still queued: the queue's own table, as a job waiting behind others is.
    const row = app.deps.db.$client
      .query<{ id: number }, []>(
        `INSERT INTO jobs (name, state, created_at) VALUES ('backup', 'queued', 0) RETURNING id`,
      )
      .get()!
    const res = await app.json(`/api/database/backup/${row.id}`, { cookie })
    expect(res.status).toBe(400)
    expect(res.body.error).toContain('not complete')
    app.deps.db.$client.run(`DELETE FROM jobs WHERE id = ${row.id}`)
  })
})

describe('POST /api/database/restore', () => {
  it('answers 400 without a file, for a file that is not JSON, and for a bad record', async () => {
    const none = await app.json('/api/database/restore', { method: 'POST', cookie, json: {} })
    expect(none.status).toBe(400)
    expect(none.body).toMatchObject({ operation: 'restore_database', success: 0 })

    const notJson = await app.json('/api/database/restore', {
      method: 'POST',
      cookie,
      body: backupForm('{"archives": ['),
    })
    expect(notJson.status).toBe(400)
    expect(notJson.body.error).toContain('not JSON')

    const badId = await app.json('/api/database/restore', {
      method: 'POST',
      cookie,
      body: backupForm({ archives: [{ arcid: 'nope', title: 'x', tags: '' }], categories: [] }),
    })
    expect(badId.status).toBe(400)
    expect(badId.body.error).toContain('arcid')

    const noCategories = await app.json('/api/database/restore', {
      method: 'POST',
      cookie,
      body: backupForm({ archives: [] }),
    })
    expect(noCategories.status).toBe(400)
    expect(noCategories.body.error).toContain('categories')
  })

  it('sweeps uploads a crashed job left behind, once they are an hour old', async () => {
    const dir = join(app.deps.config.dataDir, 'backups')
    mkdirSync(dir, { recursive: true })
    const old = join(dir, `upload-${crypto.randomUUID()}.json`)
    const young = join(dir, `upload-${crypto.randomUUID()}.json`)
    writeFileSync(old, '{}')
    writeFileSync(young, '{}')
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000)
    utimesSync(old, twoHoursAgo, twoHoursAgo)
    const result = await restored({ archives: [], categories: [] })
    expect(result).toMatchObject({ updated: 0, document: { archives: 0 } })
    expect(existsSync(old)).toBe(false)
    expect(existsSync(young)).toBe(true)
    // The job removed its own upload when it ended.
    expect(readdirSync(dir).filter((name) => name.startsWith('upload-'))).toEqual([
      young.slice(dir.length + 1),
    ])
    rmSync(young)
  })

  it('is refused to a guest token', async () => {
    const created = await app.json('/api/tokens', {
      method: 'POST',
      cookie,
      json: { name: 'reader', role: 'guest' },
    })
    const res = await app.json('/api/database/restore', {
      method: 'POST',
      token: created.body.data.token,
      body: backupForm({ archives: [], categories: [] }),
    })
    expect(res.status).toBe(403)
  })

  it('restores a backup LANraragi wrote: matched by id, then by file name', async () => {
    // LANraragi's own shape: no tankoubons key, no summary, name-only filename, an id this
    // library does not have for Beta (its file was re-packed), and an archive with no file here.
    const lrr = {
      categories: [
        {
          catid: 'SET_1600000000',
          name: 'From LRR',
          search: '',
          archives: [ids.Alpha, 'b'.repeat(40), 'c'.repeat(40)],
        },
        { catid: 'SET_1600000001', name: 'Dynamic', search: 'artist:someone', archives: [] },
      ],
      archives: [
        {
          arcid: ids.Alpha,
          title: 'Alpha from LRR',
          tags: 'artist:lrr, language:english',
          thumbhash: 'f'.repeat(40),
          filename: 'Alpha',
          toc: JSON.stringify({ '3': 'Chapter 3', cover: 'not a page' }),
        },
        {
          arcid: 'b'.repeat(40),
          title: 'Beta from LRR',
          tags: 'parody:original',
          thumbhash: null,
          filename: 'Beta',
          // LANraragi reads a broken toc as none; it does not refuse the backup over it.
          toc: '{broken',
        },
        { arcid: 'c'.repeat(40), title: 'Lost', tags: 'x', filename: 'Not here' },
        // Perl's JSON writer makes a numeric-looking title a number.
        { arcid: ids.Gamma, title: 1999, tags: null, summary: null, filename: 'Gamma' },
      ],
    }
    // Saved by an editor that writes a byte order mark.
    const result = await restored(`\uFEFF${JSON.stringify(lrr)}`)
    expect(result).toMatchObject({
      updated: 3,
      matched_by_filename: 1,
      skipped_missing: 1,
      categories_created: 2,
      skipped_memberships: 1,
    })
    expect(await metadataOf(ids.Alpha!)).toMatchObject({
      title: 'Alpha from LRR',
      tags: 'artist:lrr, language:english',
    })
    expect((await metadataOf(ids.Alpha!)).toc).toEqual([{ name: 'Chapter 3', page: 3 }])
    expect(await metadataOf(ids.Beta!)).toMatchObject({ title: 'Beta from LRR' })
    expect(await metadataOf(ids.Gamma!)).toMatchObject({ title: '1999', tags: '' })
    const category = (await app.json('/api/categories/SET_1600000000', { cookie })).body
    expect(category).toMatchObject({ name: 'From LRR', archives: [ids.Alpha, ids.Beta] })
    const dynamic = (await app.json('/api/categories/SET_1600000001', { cookie })).body
    expect(dynamic).toMatchObject({ search: 'artist:someone', archives: [] })
    // The index heard of the restore: a search finds the restored tag.
    const found = await app.json(`/api/search?filter=${encodeURIComponent('artist:lrr$')}`, {
      cookie,
    })
    expect(found.body.data.map((a: Wire) => a.arcid)).toEqual([ids.Alpha])
  })

  it('leaves the library as it was when the restore fails part way (one transaction)', async () => {
    const before = sorted(await backupDocument())
    // The database refuses the Tankoubon row, after the archives were written in the transaction.
    app.deps.db.$client.run(
      `CREATE TRIGGER refuse_tank BEFORE INSERT ON tankoubons WHEN NEW.name = 'Refused'
       BEGIN SELECT RAISE(ABORT, 'disk gone'); END`,
    )
    try {
      const job = await restore({
        archives: [
          { arcid: ids.Alpha, title: 'Half', tags: 'half', summary: '', filename: 'Alpha' },
          { arcid: ids.Gamma, title: 'Half too', tags: 'half', summary: '', filename: 'Gamma' },
        ],
        categories: [{ catid: 'SET_1700000000', name: 'Half', search: '', archives: [] }],
        tankoubons: [{ tankid: 'TANK_1700000000', name: 'Refused', archives: [ids.Alpha] }],
      })
      expect(job.state).toBe('failed')
    } finally {
      app.deps.db.$client.run('DROP TRIGGER refuse_tank')
    }
    expect(sorted(await backupDocument())).toEqual(before)
    expect((await metadataOf(ids.Alpha!)).title).toBe('Alpha from LRR')
    const search = await app.json(`/api/search?filter=half`, { cookie })
    expect(search.body.data).toEqual([])
  })
})

describe('backup -> drop -> rescan -> restore', () => {
  it('gives back the same metadata, categories and Tankoubons', async () => {
    await setMetadata(ids.Gamma!, { title: 'Gamma Title', tags: 'series:g', summary: 'third' })
    const tank = await app.json('/api/tankoubons', {
      method: 'PUT',
      cookie,
      body: form({ name: 'Volumes' }),
    })
    const tankId = tank.body.tankoubon_id as string
    const put = await app.json(`/api/tankoubons/${tankId}`, {
      method: 'PUT',
      cookie,
      json: { archives: [ids.Gamma, ids.Alpha], metadata: { summary: 'two', tags: 'x:y' } },
    })
    expect(put.status).toBe(200)
    const cat = await app.json('/api/categories', {
      method: 'PUT',
      cookie,
      body: form({ name: 'Mixed', pinned: 'true' }),
    })
    await app.req(`/api/categories/${cat.body.category_id}/${tankId}`, { method: 'PUT', cookie })
    await app.req(`/api/categories/${cat.body.category_id}/${ids.Beta}`, { method: 'PUT', cookie })
    await app.req(`/api/archives/${ids.Beta}/toc?page=2&title=Chapter%202`, {
      method: 'PUT',
      cookie,
    })

    const queued = await app.json('/api/database/backup', { method: 'POST', cookie })
    await app.deps.jobs.waitFor(queued.body.job)
    const file = await app.req(`/api/database/backup/${queued.body.job}`, { cookie })
    const saved = await file.text()
    const before = sorted(JSON.parse(saved))
    expect(before.tankoubons).toHaveLength(1)
    expect(before.archives.find((a: Wire) => a.arcid === ids.Beta).toc).toBe(
      JSON.stringify({ '2': 'Chapter 2' }),
    )

    const drop = await app.json('/api/database/drop', { method: 'POST', cookie })
    expect(drop.status).toBe(200)
    expect(drop.body).toMatchObject({ operation: 'drop_database', success: 1 })
    // The drop signed everyone out.
    expect((await app.json('/api/tokens', { cookie })).status).toBe(401)
    cookie = await app.login()
    expect(sorted(await backupDocument())).toEqual({ archives: [], categories: [], tankoubons: [] })

    await rescan(app, cookie)
    await app.jobsDone()
    expect((await metadataOf(ids.Gamma!)).title).toBe('Gamma')

    const result = await restored(saved)
    expect(result).toMatchObject({ updated: 3, skipped_missing: 0, tankoubons_created: 1 })
    expect(sorted(await backupDocument())).toEqual(before)
    expect(await metadataOf(ids.Gamma!)).toMatchObject({ title: 'Gamma Title', summary: 'third' })
  })
})
