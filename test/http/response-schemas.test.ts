// Response schemas of the routes whose answers are LANraragi's contract (src/http/models): every
// live answer passes its schema and carries exactly the schema's keys, and the routes that declare
// one answer byte for byte what their converter writes (a declared schema cleans an answer into
// the schema's key order and drops keys it does not name, so a wrong schema would show here).
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import type { TObject, TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { findArchive } from '../../src/db/repos/archives.repo.ts'
import { listCategories } from '../../src/domain/collections/categories.ts'
import { tankArchiveMetadata } from '../../src/domain/collections/tank-as-archive.ts'
import { listTankoubons } from '../../src/domain/collections/tankoubons.ts'
import { serverInfo } from '../../src/domain/info.ts'
import {
  ArchiveListResponse,
  ArchiveMetadata,
  FilesResponse,
  toWireArchive,
} from '../../src/http/models/archives.ts'
import { CategoryListResponse, toWireCategory } from '../../src/http/models/categories.ts'
import { InfoResponse, toWireInfo } from '../../src/http/models/info.ts'
import { MinionJobResponse, toWireMinionJob } from '../../src/http/models/jobs.ts'
import { SearchResponse, toWireTankArchive } from '../../src/http/models/search.ts'
import { TankoubonListResponse, toWireTankoubon } from '../../src/http/models/tankoubons.ts'
import { makeCbz } from '../helpers/fixtures.ts'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'

let app: TestServer
let cookie: string
let ids: string[]
let tank: string
let job: number

beforeAll(async () => {
  app = await startTestServer({
    beforeStart: async (dir) => {
      await makeCbz(join(dir, 'One.cbz'), { pages: 3 })
      await makeCbz(join(dir, 'Two.cbz'), { pages: 2 })
    },
  })
  cookie = await app.login()
  await app.idle()
  ids = ((await app.json<Wire[]>('/api/archives', { cookie })).body as Wire[]).map((a) => a.arcid)
  const put = (path: string) => app.json(path, { method: 'PUT', cookie })
  expect((await put(`/api/archives/${ids[0]}/toc?page=2&title=Chapter`)).status).toBe(200)
  const category = await app.json('/api/categories', {
    method: 'PUT',
    cookie,
    body: new URLSearchParams({ name: 'Static' }),
  })
  expect((await put(`/api/categories/${category.body.category_id}/${ids[0]}`)).status).toBe(200)
  await app.json('/api/categories', {
    method: 'PUT',
    cookie,
    body: new URLSearchParams({ name: 'Dynamic', search: 'one' }),
  })
  const created = await app.json('/api/tankoubons', {
    method: 'PUT',
    cookie,
    body: new URLSearchParams({ name: 'Tank' }),
  })
  tank = created.body.tankoubon_id
  for (const id of ids) expect((await put(`/api/tankoubons/${tank}/${id}`)).status).toBe(200)
  job = (await app.json('/api/regen_thumbs', { method: 'POST', cookie })).body.job
  await app.deps.jobs.waitFor(job)
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

async function text(path: string): Promise<string> {
  const res = await app.req(path, { cookie })
  expect({ path, status: res.status }).toEqual({ path, status: 200 })
  return res.text()
}

/** Passes the schema, and each object named by it has exactly the schema's keys, in its order. */
function conforms(schema: TSchema, value: unknown): void {
  expect(Value.Check(schema, value)).toBe(true)
  if (schema.type === 'array') for (const item of value as unknown[]) conforms(schema.items, item)
  if (schema.type !== 'object' || Object.keys(schema.properties ?? {}).length === 0) return
  const properties = (schema as TObject).properties
  const keys = Object.keys(value as object)
  expect(keys).toEqual(Object.keys(properties).filter((key) => keys.includes(key)))
  for (const key of keys) conforms(properties[key]!, (value as Record<string, unknown>)[key])
}

describe('response schemas', () => {
  it('GET /api/archives/:id/metadata (and /api/archives/:id): the converter bytes', async () => {
    for (const id of ids)
      for (const path of [`/api/archives/${id}/metadata`, `/api/archives/${id}`]) {
        const body = await text(path)
        expect(body).toBe(JSON.stringify(toWireArchive(findArchive(app.deps.db, id)!)))
        conforms(ArchiveMetadata, JSON.parse(body))
      }
    expect(JSON.parse(await text(`/api/archives/${ids[0]}/metadata`)).toc).toEqual([
      { name: 'Chapter', page: 2 },
    ])
  })

  it('GET /api/archives/:id/metadata of a Tankoubon read as an archive', async () => {
    await app.json('/api/settings', {
      method: 'PUT',
      cookie,
      json: { tankoubons_as_archives: true },
    })
    try {
      const body = await text(`/api/archives/${tank}/metadata`)
      const { tank: hit, toc } = tankArchiveMetadata(app.deps, tank, false)
      expect(body).toBe(JSON.stringify({ ...toWireTankArchive(hit), toc }))
      conforms(ArchiveMetadata, JSON.parse(body))
    } finally {
      const off = { tankoubons_as_archives: false }
      await app.json('/api/settings', { method: 'PUT', cookie, json: off })
    }
  })

  it('GET /api/archives/:id/files', async () => {
    const body = await text(`/api/archives/${ids[0]}/files`)
    const parsed = JSON.parse(body)
    expect(body).toBe(JSON.stringify({ job: parsed.job, pages: parsed.pages }))
    expect(parsed.pages).toHaveLength(3)
    conforms(FilesResponse, parsed)
  })

  it('GET /api/categories', async () => {
    const body = await text('/api/categories')
    expect(body).toBe(JSON.stringify(listCategories(app.deps, null).map(toWireCategory)))
    const parsed = JSON.parse(body) as Wire[]
    expect(parsed.map((c) => c.name).sort()).toEqual(['Dynamic', 'Static'])
    conforms(CategoryListResponse, parsed)
  })

  it('GET /api/tankoubons', async () => {
    const body = await text('/api/tankoubons')
    const list = listTankoubons(app.deps, 0, null)
    const expected = {
      filtered: list.filtered,
      result: list.result.map(toWireTankoubon),
      total: list.total,
    }
    expect(body).toBe(JSON.stringify(expected))
    expect(expected.result).toHaveLength(1)
    conforms(TankoubonListResponse, JSON.parse(body))
  })

  it('GET /api/minion/:id and /detail', async () => {
    // `time` is the clock at the answer.
    const untimed = (json: string) => json.replace(/"time":"\d+"/, '"time":"T"')
    for (const path of [`/api/minion/${job}`, `/api/minion/${job}/detail`]) {
      const body = await text(path)
      const expected = JSON.stringify(toWireMinionJob(app.deps.jobs.get(job)!))
      expect(untimed(body)).toBe(untimed(expected))
      const parsed = JSON.parse(body)
      expect(parsed).toMatchObject({ id: job, state: 'finished' })
      expect(typeof parsed.started_at).toBe('number')
      conforms(MinionJobResponse, parsed)
    }
  })

  it('GET /api/info', async () => {
    const body = await text('/api/info')
    expect(body).toBe(JSON.stringify(toWireInfo(serverInfo(app.deps))))
    conforms(InfoResponse, JSON.parse(body))
  })

  it('GET /api/search and GET /api/archives answer the shapes their models document', async () => {
    const search = JSON.parse(await text('/api/search?groupby_tanks=false'))
    expect(search.data).toHaveLength(2)
    conforms(SearchResponse, search)
    const grouped = JSON.parse(await text('/api/search'))
    expect(grouped.data.map((a: Wire) => a.arcid)).toEqual([tank])
    conforms(SearchResponse, grouped)
    const list = JSON.parse(await text('/api/archives'))
    expect(list).toHaveLength(2)
    conforms(ArchiveListResponse, list)
  })
})
