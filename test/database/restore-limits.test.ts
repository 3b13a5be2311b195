// What a restore document may carry, and the server answering while a big one is written:
// 20,030 categories held every request for 9.5 s, and a category of a million members after a
// 10 MB title held the server 13 minutes. A document is refused past the API's own caps, and a
// big one is written a slice at a time with the event loop turning between slices.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { MAX_TITLE_LENGTH } from '../../src/domain/archives/metadata-text.ts'
import { MAX_RESTORE_MEMBERS } from '../../src/domain/database/backup-document.ts'
import { RESTORE_SLICE_UNITS } from '../../src/domain/database/restore-slices.ts'
import { join } from 'node:path'
import { makeCbz } from '../helpers/fixtures.ts'
import { startTestServer, type TestServer } from '../helpers/server.ts'

let app: TestServer
let cookie: string

beforeAll(async () => {
  app = await startTestServer({
    beforeStart: (content) => makeCbz(join(content, 'Alpha.cbz')).then(() => undefined),
  })
  cookie = await app.login()
  await app.idle()
})

afterAll(() => app[Symbol.asyncDispose]())

function upload(doc: unknown) {
  const body = new FormData()
  body.set('file', new File([JSON.stringify(doc)], 'backup.json', { type: 'application/json' }))
  return app.json('/api/database/restore', { method: 'POST', cookie, body })
}

const ARCID = 'a'.repeat(40)
const archive = (fields: Record<string, unknown>) => ({
  arcid: ARCID,
  title: 't',
  tags: '',
  summary: '',
  filename: 'f',
  ...fields,
})

describe('POST /api/database/restore', () => {
  it('refuses, before anything is written, a document past the API caps', async () => {
    const cases: [unknown, string][] = [
      [
        { archives: [archive({ title: 'x'.repeat(MAX_TITLE_LENGTH + 1) })], categories: [] },
        `archive 1 'title' is longer than ${MAX_TITLE_LENGTH} characters.`,
      ],
      [
        { archives: [], categories: [{ catid: 'SET_1700000000', name: 'n'.repeat(256) }] },
        `category 1 'name' is longer than 255 characters.`,
      ],
      [
        {
          archives: [],
          categories: [],
          tankoubons: [{ tankid: 'TANK_1700000000', name: 'n'.repeat(256), archives: [] }],
        },
        `tankoubon 1 'name' is longer than 255 characters.`,
      ],
      [
        {
          archives: [],
          categories: [
            {
              catid: 'SET_1700000000',
              name: 'Many',
              archives: Array(MAX_RESTORE_MEMBERS + 1).fill(ARCID),
            },
          ],
        },
        `category 1 lists more than ${MAX_RESTORE_MEMBERS} members.`,
      ],
    ]
    for (const [doc, error] of cases) {
      const { status, body } = await upload(doc)
      expect(status).toBe(400)
      expect(body).toEqual({
        operation: 'restore_database',
        success: 0,
        error: `Invalid backup: ${error}`,
      })
    }
    const { body } = await app.json('/api/categories', { cookie })
    expect(body).toEqual([])
  })

  it('refuses a category or Tankoubon without a name, as the API does', async () => {
    for (const [doc, error] of [
      [{ archives: [], categories: [{ catid: 'SET_1700000000', name: ' ' }] }, 'category 1'],
      [
        {
          archives: [],
          categories: [],
          tankoubons: [{ tankid: 'TANK_1700000000', name: '', archives: [] }],
        },
        'tankoubon 1',
      ],
    ] as const) {
      const { status, body } = await upload(doc)
      expect(status).toBe(400)
      expect(body.error).toBe(`Invalid backup: ${error} has no name.`)
    }
  })

  it('keeps toc entries within the pages, and reads a line break in tags as a separator', async () => {
    const id = (await app.idsByTitle(cookie))['Alpha']!
    const toc = JSON.stringify({ '2': 'Two', '9': 'Past the end', '3': 'x'.repeat(257) })
    const { status, body } = await upload({
      archives: [archive({ arcid: id, title: 'Alpha', tags: 'artist:a\nseries:b\r\nc', toc })],
      categories: [],
    })
    expect(status).toBe(200)
    const job = await app.deps.jobs.waitFor(body.job)
    expect(job.state).toBe('finished')
    const meta = (await app.json(`/api/archives/${id}/metadata`, { cookie })).body
    expect(meta.toc).toEqual([{ name: 'Two', page: 2 }])
    expect(meta.tags).toBe('artist:a, series:b, c')
  })

  it('PUT metadata refuses a title past the same cap', async () => {
    const id = (await app.idsByTitle(cookie))['Alpha']!
    const { status, body } = await app.json(`/api/archives/${id}/metadata`, {
      method: 'PUT',
      cookie,
      body: new URLSearchParams({ title: 'x'.repeat(MAX_TITLE_LENGTH + 1) }),
    })
    expect(status).toBe(400)
    expect(body).toMatchObject({
      success: 0,
      error: `Too much metadata: a title of 2,001 characters; at most 2,000.`,
    })
  })

  it('writes a big document a slice at a time, answering requests between slices', async () => {
    const total = RESTORE_SLICE_UNITS * 6
    const categories = Array.from({ length: total }, (_, i) => ({
      catid: `SET_${1700000000 + i}`,
      name: `Category ${i}`,
      search: '',
      archives: [],
    }))
    const counted = () =>
      (app.deps.db.$client.query('SELECT count(*) AS n FROM categories').get() as { n: number }).n
    // A turn of the event loop that finds some categories written but not all is a turn taken
    // inside the restore; a request sent then must be answered before the restore ends.
    const seen: number[] = []
    const order: string[] = []
    let info: Promise<void> | null = null
    let watching = true
    const watch = () => {
      if (!watching) return
      const n = counted()
      if (n > 0 && n < total) {
        seen.push(n)
        info ??= app.req('/api/info').then(async (res) => {
          expect(res.status).toBe(200)
          await res.arrayBuffer()
          order.push('info')
        })
      }
      setImmediate(watch)
    }
    setImmediate(watch)
    const { status, body } = await upload({ archives: [], categories })
    expect(status).toBe(200)
    const job = await app.deps.jobs.waitFor(body.job)
    order.push('restore')
    watching = false
    await info
    expect(job.state).toBe('finished')
    expect(JSON.parse(job.result!)).toMatchObject({ categories_created: total })
    expect(counted()).toBe(total)
    expect(seen.length).toBeGreaterThan(0)
    expect(order).toEqual(['info', 'restore'])
  }, 120_000)
})
