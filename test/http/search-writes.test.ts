// Every write path seen by the very next search, all through HTTP: scan, upload, rename, metadata,
// New flag, progress, delete, Tankoubon and category edits. No cache purge in between.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { makeCbz } from '../helpers/fixtures.ts'

let app: TestServer
let cookie: string

async function call(method: string, path: string, init: RequestInit & { json?: unknown } = {}) {
  const res = await app.req(path, { method, cookie, ...init })
  expect({ method, path, status: res.status }).toEqual({ method, path, status: 200 })
  return (await res.json()) as Wire
}

async function search(query: string): Promise<Wire> {
  const res = await app.req(`/api/search?${query}`, { cookie })
  expect(res.status).toBe(200)
  return (await res.json()) as Wire
}

const titles = async (query: string) => ((await search(query)).data as Wire[]).map((a) => a.title)

function form(fields: Record<string, string>): { body: FormData } {
  const body = new FormData()
  for (const [key, value] of Object.entries(fields)) body.set(key, value)
  return { body }
}

async function rescan(): Promise<void> {
  const { job } = await call('POST', '/api/shinobu/rescan')
  await app.deps.jobs.waitFor(job)
}

beforeAll(async () => {
  app = await startTestServer()
  await app.idle()
  cookie = await app.login()
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

describe('search after archive writes', () => {
  it('sees a scanned file, then its removal', async () => {
    await makeCbz(join(app.contentDir, 'Scanned Volume.cbz'), { pages: 2 })
    await rescan()
    expect(await titles('filter=scanned volume')).toEqual(['Scanned Volume'])
    await rm(join(app.contentDir, 'Scanned Volume.cbz'))
    await rescan()
    expect(await titles('filter=scanned volume')).toEqual([])
  })

  it('sees an upload, a rename, edits, the New flag, progress and a delete', async () => {
    const source = join(app.root, 'upload-source.cbz')
    await makeCbz(source, { pages: 3 })
    const body = form({ tags: 'artist:uploader' }).body
    body.set('file', new File([await Bun.file(source).bytes()], 'Uploaded Book.cbz'))
    const { id } = await call('PUT', '/api/archives/upload', { body })
    expect(await titles('filter=artist:uploader')).toEqual(['Uploaded Book'])

    await call('PUT', `/api/archives/${id}/rename`, { json: { filename: 'Renamed File.cbz' } })
    expect((await search('filter=artist:uploader')).data[0].filename).toBe('Renamed File')

    const edit = { title: 'Edited Book', tags: 'female:edited' }
    await call('PUT', `/api/archives/${id}/metadata`, { json: edit })
    expect(await titles('filter=female:edited')).toEqual(['Edited Book'])
    expect(await titles('filter=artist:uploader')).toEqual([])

    expect(await titles('newonly=true')).toEqual(['Edited Book'])
    await call('DELETE', `/api/archives/${id}/isnew`)
    expect(await titles('newonly=true')).toEqual([])
    await call('PUT', `/api/archives/${id}/isnew`)
    expect(await titles('newonly=true')).toEqual(['Edited Book'])
    await call('DELETE', '/api/database/isnew')
    expect(await titles('newonly=true')).toEqual([])

    await call('PUT', `/api/archives/${id}/progress/3`)
    expect(await titles('filter=read:3')).toEqual(['Edited Book'])
    expect(await titles('sortby=lastread')).toEqual(['Edited Book'])
    expect(await titles('hidecompleted=true&filter=edited')).toEqual([])

    await call('DELETE', `/api/archives/${id}`)
    expect(await titles('filter=edited')).toEqual([])
    expect((await search('')).recordsTotal).toBe(0)
  })
})

describe('search after Tankoubon and category writes', () => {
  it('follows a Tankoubon from creation through member and metadata edits to its end', async () => {
    await makeCbz(join(app.contentDir, 'Part One.cbz'), { pages: 2 })
    await makeCbz(join(app.contentDir, 'Part Two.cbz'), { pages: 2 })
    await rescan()
    const ids = (await search('filter=part&groupby_tanks=false')).data.map((a: Wire) => a.arcid)
    expect(ids).toHaveLength(2)
    const [one, two] = ids as [string, string]

    const { tankoubon_id: tank } = await call('PUT', '/api/tankoubons', form({ name: 'Omnibus' }))
    // An empty Tankoubon is not part of the grouped view (LANraragi's LRR_TANKGROUPED).
    expect(await titles('')).toEqual(['Part One', 'Part Two'])
    await call('PUT', `/api/tankoubons/${tank}/${one}`)
    expect(await titles('')).toEqual(['Omnibus', 'Part Two'])
    await call('PUT', `/api/tankoubons/${tank}/${two}`)
    expect(await titles('')).toEqual(['Omnibus'])
    expect((await search('')).recordsTotal).toBe(1)

    const metadata = { name: 'Box Set', tags: 'series:box' }
    await call('PUT', `/api/tankoubons/${tank}`, { json: { metadata } })
    expect(await titles('filter=series:box')).toEqual(['Box Set'])
    await call('DELETE', `/api/tankoubons/${tank}/${one}`)
    expect(await titles('')).toEqual(['Box Set', 'Part One'])
    await call('PUT', `/api/tankoubons/${tank}`, { json: { archives: [one, two] } })
    expect(await titles('')).toEqual(['Box Set'])
    await call('DELETE', `/api/tankoubons/${tank}`)
    expect(await titles('')).toEqual(['Part One', 'Part Two'])
  })

  it('follows static and dynamic categories through their edits', async () => {
    const ids = (await search('filter=part&groupby_tanks=false')).data.map((a: Wire) => a.arcid)
    const [one, two] = ids as [string, string]
    const created = await call('PUT', '/api/categories', form({ name: 'Picks' }))
    const category: string = created.category_id
    expect(await titles(`category=${category}`)).toEqual([])
    await call('PUT', `/api/categories/${category}/${one}`)
    expect(await titles(`category=${category}`)).toEqual(['Part One'])
    await call('PUT', `/api/categories/${category}/${two}`)
    await call('DELETE', `/api/categories/${category}/${one}`)
    expect(await titles(`category=${category}`)).toEqual(['Part Two'])

    await call('PUT', `/api/categories/${category}`, form({ search: 'part one' }))
    expect(await titles(`category=${category}`)).toEqual(['Part One'])
    await call('PUT', `/api/categories/${category}`, form({ search: '-part one' }))
    expect(await titles(`category=${category}`)).toEqual(['Part Two'])

    await call('DELETE', `/api/categories/${category}`)
    const gone = await app.req(`/api/search?category=${category}`, { cookie })
    expect(gone.status).toBe(400)
    expect(await gone.json()).toMatchObject({ operation: 'search', success: 0 })
  })
})

describe('search after cascading and maintenance writes', () => {
  const idOf = async (filter: string): Promise<string> =>
    (await search(`filter=${filter}&groupby_tanks=false`)).data[0].arcid

  it('sees an archive delete leave its category and Tankoubon, then Tankoubon progress', async () => {
    await makeCbz(join(app.contentDir, 'Doomed Volume.cbz'), { pages: 2 })
    await makeCbz(join(app.contentDir, 'Kept Volume.cbz'), { pages: 3 })
    await rescan()
    const [doomed, kept] = [await idOf('doomed'), await idOf('kept')]
    const { tankoubon_id: tank } = await call('PUT', '/api/tankoubons', form({ name: 'Pair' }))
    await call('PUT', `/api/tankoubons/${tank}`, { json: { archives: [doomed, kept] } })
    const picks = (await call('PUT', '/api/categories', form({ name: 'Doomed picks' }))).category_id
    await call('PUT', `/api/categories/${picks}/${doomed}`)
    expect(await titles(`category=${picks}&groupby_tanks=false`)).toEqual(['Doomed Volume'])
    expect(await titles('filter=pages:5')).toEqual(['Pair'])

    await call('DELETE', `/api/archives/${doomed}`)
    expect(await titles(`category=${picks}&groupby_tanks=false`)).toEqual([])
    expect(await titles('filter=pages:5')).toEqual([])
    expect(await titles('filter=pages:3')).toEqual(['Pair'])

    // The member's progress alone would not do: the folded Tankoubon carries its own.
    await call('PUT', `/api/tankoubons/${tank}/progress/2`)
    expect(await titles('filter=read:2')).toEqual(['Pair'])
  })

  it('sees a deleted Tankoubon leave the category that listed it', async () => {
    const kept = await idOf('kept')
    const { tankoubon_id: tank } = await call('PUT', '/api/tankoubons', form({ name: 'Solo' }))
    await call('PUT', `/api/tankoubons/${tank}/${kept}`)
    const shelf = (await call('PUT', '/api/categories', form({ name: 'Tank shelf' }))).category_id
    await call('PUT', `/api/categories/${shelf}/${tank}`)
    expect(await titles(`category=${shelf}&filter=solo`)).toEqual(['Solo'])
    await call('DELETE', `/api/tankoubons/${tank}`)
    expect(await titles(`category=${shelf}&filter=solo`)).toEqual([])
  })

  it('sees database/clean hide a vanished file, then forget it and its category place', async () => {
    await makeCbz(join(app.contentDir, 'Vanishing Volume.cbz'), { pages: 2 })
    await rescan()
    const id = await idOf('vanishing')
    const shelf = (await call('PUT', '/api/categories', form({ name: 'Clean shelf' }))).category_id
    await call('PUT', `/api/categories/${shelf}/${id}`)
    expect(await titles(`category=${shelf}`)).toEqual(['Vanishing Volume'])

    await rm(join(app.contentDir, 'Vanishing Volume.cbz'))
    expect(await call('POST', '/api/database/clean')).toMatchObject({ unlinked: 1 })
    // Counted by the index itself, not only left out when the rows are read.
    expect(await search('filter=vanishing')).toMatchObject({ data: [], recordsFiltered: 0 })
    expect(await titles(`category=${shelf}`)).toEqual([])

    expect(await call('POST', '/api/database/clean')).toMatchObject({ deleted: 1, unlinked: 0 })
    expect((await call('GET', `/api/categories/${shelf}`)).archives).toEqual([])
  })
})
