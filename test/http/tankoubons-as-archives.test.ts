// tankoubons_as_archives (issue 16): the reader's archive routes answer a TANK_ id as one long
// archive in global page order when the setting is on, and the spec's 400 when it is off.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { findArchive } from '../../src/db/repos/archives.repo.ts'
import { makeCbz, type Bytes } from '../helpers/fixtures.ts'
import { seedCategory } from '../helpers/seed.ts'
import { startTestServer, type TestServer } from '../helpers/server.ts'

let app: TestServer
let cookie: string
let byTitle: Record<string, string>
let tank: string

async function setTankSetting(on: boolean): Promise<void> {
  const res = await app.json('/api/settings', {
    method: 'PUT',
    cookie,
    json: { tankoubons_as_archives: on },
  })
  expect(res.status).toBe(200)
  expect(res.body.tankoubons_as_archives).toBe(on)
}

async function createTank(name: string, members: string[]): Promise<string> {
  const body = new URLSearchParams({ name })
  const res = await app.json('/api/tankoubons', { method: 'PUT', cookie, body })
  const id = res.body.tankoubon_id as string
  for (const member of members)
    expect(
      (await app.req(`/api/tankoubons/${id}/${member}`, { method: 'PUT', cookie })).status,
    ).toBe(200)
  return id
}

async function bytesOf(path: string, init: { cookie?: string } = { cookie }): Promise<Bytes> {
  const res = await app.req(path, init)
  expect({ path, status: res.status }).toEqual({ path, status: 200 })
  return new Uint8Array(await res.arrayBuffer())
}

beforeAll(async () => {
  app = await startTestServer({
    beforeStart: async (content) => {
      await makeCbz(join(content, 'Volume One.cbz'), { pages: 2 })
      await makeCbz(join(content, 'Volume Two.cbz'), { pages: 3 })
      await makeCbz(join(content, 'Elsewhere.cbz'), { pages: 1 })
    },
  })
  await app.idle()
  cookie = await app.login()
  byTitle = await app.idsByTitle(cookie)
  tank = await createTank('Long Read', [byTitle['Volume One']!, byTitle['Volume Two']!])
  await app.jobsDone()
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

describe('archive routes with a TANK_ id, tankoubons_as_archives off', () => {
  it('is off by default and every reader route answers the spec 400 Env', async () => {
    expect((await app.json('/api/settings', { cookie })).body.tankoubons_as_archives).toBe(false)
    const routes: [string, string, string][] = [
      ['GET', `/api/archives/${tank}/metadata`, 'metadata'],
      ['GET', `/api/archives/${tank}`, 'metadata'],
      ['GET', `/api/archives/${tank}/files`, 'get_file_list'],
      ['GET', `/api/archives/${tank}/page?page=1`, 'serve_page'],
      ['GET', `/api/archives/${tank}/thumbnail`, 'serve_thumbnail'],
      ['PUT', `/api/archives/${tank}/progress/1`, 'update_progress'],
      ['DELETE', `/api/archives/${tank}/isnew`, 'clear_new'],
    ]
    for (const [method, path, operation] of routes) {
      const res = await app.json(path, { method, cookie })
      expect({ path, status: res.status }).toEqual({ path, status: 400 })
      expect(res.body).toMatchObject({ operation, success: 0 })
      expect(res.body.error).toContain('Invalid archive ID')
    }
  })
})

describe('archive routes with a TANK_ id, tankoubons_as_archives on', () => {
  beforeAll(() => setTankSetting(true))
  afterAll(() => setTankSetting(false))

  it('answers metadata shaped like an archive, with members as chapters', async () => {
    const { status, body } = await app.json(`/api/archives/${tank}/metadata`, { cookie })
    expect(status).toBe(200)
    expect(body).toMatchObject({
      arcid: tank,
      title: 'Long Read',
      filename: '',
      extension: '.tank',
      pagecount: 5,
      isnew: 'true',
      progress: 0,
    })
    expect(body.tags).toContain('date_added:')
    expect(body.toc).toEqual([
      { name: 'Volume One', page: 1 },
      { name: 'Volume Two', page: 3 },
    ])
    const old = await app.json(`/api/archives/${tank}`, { cookie })
    expect(old.body).toEqual(body)
    const search = await app.json('/api/search?filter=Long', { cookie })
    // A search card's toc is [] (docs/search.md); its chapters are in its metadata.
    expect(search.body.data).toEqual([{ ...body, toc: [] }])
  })

  it('lists the pages in global order, each URL fetching its member page', async () => {
    const { status, body } = await app.json(`/api/archives/${tank}/files`, { cookie })
    expect(status).toBe(200)
    expect(typeof body.job).toBe('number')
    expect(body.pages).toHaveLength(5)
    for (const url of body.pages) expect(url).toStartWith(`/api/archives/${tank}/page?path=`)
    const memberPages: string[] = []
    for (const title of ['Volume One', 'Volume Two']) {
      const files = await app.json(`/api/archives/${byTitle[title]}/files`, { cookie })
      memberPages.push(...(files.body.pages as string[]))
    }
    const expected = await Promise.all(memberPages.map((url) => bytesOf(url)))
    const served = await Promise.all((body.pages as string[]).map((url) => bytesOf(url)))
    expect(served).toEqual(expected)
    // Member 2's first page comes right after member 1's last, and differs from it.
    expect(served[2]).toEqual(expected[2]!)
    expect(served[2]).not.toEqual(served[1]!)
    // The page route's `page=N` counts global pages too.
    expect(await bytesOf(`/api/archives/${tank}/page?page=3`)).toEqual(expected[2]!)
    expect(await bytesOf(`/api/archives/${tank}/page?page=0&zero_based=true`)).toEqual(expected[0]!)
  })

  it('answers 400 Env for a page that is not one of the Tankoubon', async () => {
    const elsewhere = byTitle.Elsewhere!
    for (const query of [
      `path=${elsewhere}/001.jpg`,
      `path=${byTitle['Volume One']}/003.jpg`,
      'path=001.jpg',
      'page=6',
    ]) {
      const res = await app.json(`/api/archives/${tank}/page?${query}`, { cookie })
      expect({ query, status: res.status }).toEqual({ query, status: 400 })
      expect(res.body).toMatchObject({ operation: 'serve_page', success: 0 })
    }
  })

  it('serves the Tankoubon cover as the thumbnail, and page thumbnails by global page', async () => {
    const path = `/api/archives/${tank}/thumbnail?no_fallback=true`
    let res = await app.req(path, { cookie })
    if (res.status === 202) {
      await app.jobsDone()
      res = await app.req(path, { cookie })
    }
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^image\/(webp|jpeg)$/)
    const cover = new Uint8Array(await res.arrayBuffer())
    expect(cover).toEqual(await bytesOf(`/api/tankoubons/${tank}/thumbnail?no_fallback=true`))
    const memberCover = `/api/archives/${byTitle['Volume One']}/thumbnail?no_fallback=true`
    expect(cover).toEqual(await bytesOf(memberCover))
    const page4 = `/api/archives/${tank}/thumbnail?page=4&no_fallback=true`
    res = await app.req(page4, { cookie })
    if (res.status === 202) await app.jobsDone()
    const own = `/api/archives/${byTitle['Volume Two']}/thumbnail?page=2&no_fallback=true`
    expect(await bytesOf(page4)).toEqual(await bytesOf(own))
    const past = await app.json(`/api/archives/${tank}/thumbnail?page=6`, { cookie })
    expect(past.status).toBe(400)
  })

  it('moves the Tankoubon progress with PUT progress, and forgets it with force and page 0', async () => {
    const res = await app.json(`/api/archives/${tank}/progress/4`, { method: 'PUT', cookie })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ operation: 'update_progress', success: 1, id: tank, page: 4 })
    expect((await app.json(`/api/tankoubons/${tank}`, { cookie })).body.progress).toBe(4)
    expect(findArchive(app.deps.db, byTitle['Volume Two']!)!.progress).toBe(2)
    expect((await app.json(`/api/archives/${tank}/metadata`, { cookie })).body.progress).toBe(4)
    const past = await app.json(`/api/archives/${tank}/progress/6`, { method: 'PUT', cookie })
    expect(past.status).toBe(400)
    const cleared = await app.json(`/api/archives/${tank}/progress/0?force=1`, {
      method: 'PUT',
      cookie,
    })
    expect(cleared.status).toBe(200)
    expect(cleared.body).toMatchObject({ id: tank, page: 0, lastreadtime: 0 })
    expect((await app.json(`/api/tankoubons/${tank}`, { cookie })).body.progress).toBe(0)
    expect(findArchive(app.deps.db, byTitle['Volume Two']!)!.progress).toBe(0)
  })

  it('clears the New flag of every member with DELETE isnew', async () => {
    expect(findArchive(app.deps.db, byTitle['Volume Two']!)!.isnew).toBe(true)
    const res = await app.json(`/api/archives/${tank}/isnew`, { method: 'DELETE', cookie })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ operation: 'clear_new', success: 1, id: tank })
    for (const title of ['Volume One', 'Volume Two'])
      expect(findArchive(app.deps.db, byTitle[title]!)!.isnew).toBe(false)
    expect(findArchive(app.deps.db, byTitle.Elsewhere!)!.isnew).toBe(true)
    expect((await app.json(`/api/archives/${tank}/metadata`, { cookie })).body.isnew).toBe('false')
  })

  it('answers 400 Env for an unknown Tankoubon and keeps archive ids working', async () => {
    const res = await app.json('/api/archives/TANK_0000000001/metadata', { cookie })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ operation: 'metadata', success: 0 })
    const archive = await app.json(`/api/archives/${byTitle.Elsewhere}/metadata`, { cookie })
    expect(archive.body).toMatchObject({ arcid: byTitle.Elsewhere, pagecount: 1 })
  })

  it('answers a guest 404 for a Tankoubon outside its scope and reads a visible one', async () => {
    const hidden = await createTank('Hidden Read', [byTitle.Elsewhere!])
    const shown = await createTank('Shown Read', [byTitle['Volume One']!])
    seedCategory(app.deps, { members: [shown], visibleToGuest: true })
    app.deps.settings.update({ guest_mode: true })
    try {
      for (const path of [
        `/api/archives/${hidden}/metadata`,
        `/api/archives/${hidden}/files`,
        `/api/archives/${hidden}/page?page=1`,
        `/api/archives/${hidden}/thumbnail`,
        '/api/archives/TANK_0000000001/metadata',
      ]) {
        const res = await app.req(path)
        expect({ path, status: res.status }).toEqual({ path, status: 404 })
      }
      const meta = await app.json(`/api/archives/${shown}/metadata`)
      expect(meta.body).toMatchObject({ arcid: shown, pagecount: 2 })
      const files = await app.json(`/api/archives/${shown}/files`)
      expect(files.body.pages).toHaveLength(2)
      expect((await app.req(files.body.pages[1])).status).toBe(200)
    } finally {
      app.deps.settings.update({ guest_mode: false })
    }
  })
})
