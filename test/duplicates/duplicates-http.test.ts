// Duplicate detection through the server: a re-encoded, resized copy of a book is found with its
// original, a different book (even one with the same cover) is not; reading groups prunes deleted
// archives; DELETE clears; the scan and DELETE are admin-only.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { createApiToken } from '../../src/domain/auth/tokens.ts'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { largerWebp, smallerJpeg, writeBook } from './books.ts'

const BOOK = [11, 12, 13, 14, 15, 16, 17, 18]
const OTHER_BOOK = [41, 42, 43, 44, 45, 46]

let app: TestServer
let cookie: string
let guest: string
const ids: Record<string, string> = {}

async function waitForJob(job: number): Promise<Wire> {
  for (let waited = 0; waited < 30_000; waited += 50) {
    const { body } = await app.json(`/api/jobqueue/${job}`, { cookie })
    if (body.state === 'finished' || body.state === 'failed') return body
    await Bun.sleep(50)
  }
  throw new Error(`job ${job} did not end`)
}

async function scan(): Promise<Wire> {
  const { status, body } = await app.json('/api/database/duplicates/scan', {
    method: 'POST',
    cookie,
  })
  expect(status).toBe(200)
  expect(body).toMatchObject({ operation: 'find_duplicates', success: 1 })
  const job = await waitForJob(body.job)
  expect(job.state).toBe('finished')
  return job
}

/** Groups as sorted lists of file names, sorted: easy to compare whole. */
async function groupNames(): Promise<string[][]> {
  const { status, body } = await app.json<Wire[][]>('/api/database/duplicates', { cookie })
  expect(status).toBe(200)
  return body.map((group) => group.map((a) => a.filename as string).sort()).sort()
}

beforeAll(async () => {
  app = await startTestServer({
    async beforeStart(content) {
      await writeBook(join(content, 'original.cbz'), BOOK)
      await writeBook(join(content, 'copy-small.cbz'), BOOK, smallerJpeg)
      await writeBook(join(content, 'scans', 'copy-large.cbz'), BOOK, largerWebp)
      // Same cover as the book, other pages: a cover alone must not merge two books.
      await writeBook(join(content, 'same-cover.cbz'), [11, 51, 52, 53, 54, 55, 56, 57])
      await writeBook(join(content, 'other.cbz'), OTHER_BOOK)
      await writeBook(join(content, 'other-copy.cbz'), OTHER_BOOK, smallerJpeg)
      await writeBook(join(content, 'unrelated.cbz'), [71, 72, 73, 74, 75])
    },
  })
  cookie = await app.login()
  guest = createApiToken(app.deps, { name: 'g', role: 'guest' }).secret
  await app.idle()
  await app.jobsDone()
  const { body } = await app.json<Wire>('/api/archives', { cookie })
  for (const archive of body as Wire[]) ids[archive.filename] = archive.arcid
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

describe('POST /api/database/duplicates/scan', () => {
  it('groups a re-encoded, resized copy with its original, and no other book', async () => {
    expect(Object.keys(ids).sort()).toHaveLength(7)
    const job = await scan()
    expect(job.result).toMatchObject({ archives: 7, groups: 2, duplicates: 5, failed: [] })
    // The same-cover book is a cover candidate of the original: compared page by page, rejected.
    expect(job.result.compared).toBeGreaterThanOrEqual(6)
    expect(await groupNames()).toEqual([
      ['copy-large', 'copy-small', 'original'],
      ['other', 'other-copy'],
    ])
  })

  it('answers each member as archive metadata', async () => {
    const { body } = await app.json<Wire[][]>('/api/database/duplicates', { cookie })
    const book = body.find((group) => group.some((a) => a.filename === 'original'))!
    expect(book[0]).toMatchObject({
      arcid: expect.stringMatching(/^[0-9a-f]{40}$/),
      title: expect.any(String),
      tags: expect.any(String),
      pagecount: 8,
      extension: 'cbz',
      isnew: expect.any(String),
    })
  })

  it('reuses the hashes stored with the covers and by the last scan', async () => {
    const job = await scan()
    expect(job.result).toMatchObject({ covers_hashed: 0, groups: 2 })
    expect(job.progress).toBe(1)
  })

  it('hashes covers that have no stored hash (covers made before hashing, or removed)', async () => {
    app.deps.db.$client.run('DELETE FROM archive_hashes')
    const job = await scan()
    expect(job.result).toMatchObject({ covers_hashed: 7, groups: 2, duplicates: 5 })
  })
})

describe('GET /api/database/duplicates after archives are deleted', () => {
  it('removes a deleted member from its group and drops a group left with one', async () => {
    await scan()
    for (const name of ['copy-large', 'other-copy']) {
      const res = await app.req(`/api/archives/${ids[name]}`, { method: 'DELETE', cookie })
      expect(res.status).toBe(200)
    }
    expect(await groupNames()).toEqual([['copy-small', 'original']])
    // The prune was written: the stored rows hold what the answer showed.
    const stored = app.deps.db.$client
      .query<{ archive_ids: string }, []>('SELECT archive_ids FROM duplicate_groups')
      .all()
      .map((row) => (JSON.parse(row.archive_ids) as string[]).sort())
    expect(stored).toEqual([[ids['copy-small']!, ids['original']!].sort()])
  })
})

describe('DELETE /api/database/duplicates', () => {
  it('clears the stored groups', async () => {
    const { status, body } = await app.json('/api/database/duplicates', {
      method: 'DELETE',
      cookie,
    })
    expect(status).toBe(200)
    expect(body).toMatchObject({ operation: 'clear_duplicates', success: 1, cleared: 1 })
    expect(await groupNames()).toEqual([])
  })
})

describe('duplicates access', () => {
  it('refuses the scan and DELETE to a guest token, and lets it read', async () => {
    const scanAsGuest = await app.json('/api/database/duplicates/scan', {
      method: 'POST',
      token: guest,
    })
    expect(scanAsGuest.status).toBe(403)
    expect(scanAsGuest.body).toMatchObject({ operation: 'find_duplicates', success: 0 })
    const clearAsGuest = await app.json('/api/database/duplicates', {
      method: 'DELETE',
      token: guest,
    })
    expect(clearAsGuest.status).toBe(403)
    expect((await app.json('/api/database/duplicates', { token: guest })).status).toBe(200)
  })

  it('refuses anonymous callers the scan', async () => {
    const { status, body } = await app.json('/api/database/duplicates/scan', { method: 'POST' })
    expect(status).toBe(401)
    expect(body).toMatchObject({ operation: 'find_duplicates', success: 0 })
  })
})
