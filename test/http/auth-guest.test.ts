// Guest mode: anonymous visitors read only archives of categories flagged visible_to_guest; every
// archive read route answers 404 outside that scope, and nothing writable opens up.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { openSession } from '../../src/domain/auth/sessions.ts'
import { makeCbz } from '../helpers/fixtures.ts'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'

let app: TestServer
let cookie: string
let shown: string
let hidden: string

beforeAll(async () => {
  app = await startTestServer({
    beforeStart: async (content) => {
      await makeCbz(join(content, 'Shown Story.cbz'), { pages: 2 })
      await makeCbz(join(content, 'Hidden Story.cbz'), { pages: 2 })
    },
  })
  await app.idle()
  const grant = await openSession(app.deps, { ip: null, userAgent: 'test' })
  cookie = `tankobun_access=${grant.accessToken}`
  const all = (await (await app.req('/api/archives', { cookie })).json()) as Wire[]
  shown = all.find((a) => a.title === 'Shown Story')!.arcid
  hidden = all.find((a) => a.title === 'Hidden Story')!.arcid
  const created = await app.req('/api/categories', {
    method: 'PUT',
    cookie,
    body: new URLSearchParams({ name: 'For guests', visible_to_guest: 'true' }),
  })
  expect(created.status).toBe(200)
  const categoryId = ((await created.json()) as Wire).category_id as string
  const added = await app.req(`/api/categories/${categoryId}/${shown}`, { method: 'PUT', cookie })
  expect(added.status).toBe(200)
  app.deps.settings.update({ guest_mode: true })
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

async function pagePath(id: string): Promise<string> {
  const files = (await (await app.req(`/api/archives/${id}/files`, { cookie })).json()) as Wire
  return files.pages[0] as string
}

describe('guest mode (anonymous visitors)', () => {
  it('lists and searches only archives in guest-visible categories', async () => {
    const listed = (await (await app.req('/api/archives')).json()) as Wire[]
    expect(listed.map((a) => a.arcid)).toEqual([shown])
    const ids = await app.req('/api/search/ids?start=-1')
    expect(ids.status).toBe(200)
    expect(((await ids.json()) as Wire).data).toEqual([shown])
    const search = (await (await app.req('/api/search?start=-1')).json()) as Wire
    expect(search.data.map((a: Wire) => a.arcid)).toEqual([shown])
    const random = (await (await app.req('/api/search/random?count=10')).json()) as Wire
    expect(random.data.map((a: Wire) => a.arcid)).toEqual([shown])
    const suggest = await (await app.req('/api/search/suggest?filter=Story')).text()
    expect(suggest).toContain(shown)
    expect(suggest).not.toContain(hidden)
  })

  it('answers 404 Env for an out-of-scope archive on every read route', async () => {
    const pageUrl = new URL(await pagePath(hidden), app.url)
    const path = encodeURIComponent(pageUrl.searchParams.get('path')!)
    for (const route of [
      `/api/archives/${hidden}/metadata`,
      `/api/archives/${hidden}`,
      `/api/archives/${hidden}/files`,
      `/api/archives/${hidden}/thumbnail?page=1`,
      `/api/archives/${hidden}/thumbnail?no_fallback=true`,
      `/api/archives/${hidden}/page?path=${path}`,
      `/api/archives/${hidden}/thumbnail`,
      `/api/archives/${hidden}/download`,
      `/api/archives/${hidden}/page-dimensions`,
    ]) {
      const res = await app.req(route)
      expect({ route, status: res.status }).toEqual({ route, status: 404 })
      expect(((await res.json()) as Wire).success).toBe(0)
    }
  })

  it('answers 404 for a well-formed unknown id too (400 would tell which ids exist)', async () => {
    const unknown = 'f'.repeat(40)
    const pageUrl = new URL(await pagePath(hidden), app.url)
    const path = encodeURIComponent(pageUrl.searchParams.get('path')!)
    for (const id of [hidden, unknown]) {
      for (const route of [
        `/api/archives/${id}/metadata`,
        `/api/archives/${id}`,
        `/api/archives/${id}/files`,
        `/api/archives/${id}/thumbnail`,
        `/api/archives/${id}/page?path=${path}`,
        `/api/archives/${id}/download`,
        `/api/archives/${id}/page-dimensions`,
        `/api/archives/${id}/categories`,
        `/api/archives/${id}/tankoubons`,
        `/api/archives/${id}/bookmarks`,
      ]) {
        const res = await app.req(route)
        expect({ route, status: res.status }).toEqual({ route, status: 404 })
        expect(await res.json()).toMatchObject({ success: 0, error: expect.any(String) })
      }
    }
    // A malformed id stays a 400; a logged-in caller still gets the spec's 400 for unknown ids.
    expect((await app.req('/api/archives/not-an-id/metadata')).status).toBe(400)
    expect((await app.req(`/api/archives/${unknown}/metadata`, { cookie })).status).toBe(400)
  })

  it('serves an in-scope archive to the anonymous visitor', async () => {
    expect((await app.req(`/api/archives/${shown}/metadata`)).status).toBe(200)
    expect((await app.req(`/api/archives/${shown}/download`)).status).toBe(200)
    const page = await app.req(await pagePath(shown))
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toContain('image/')
    expect([200, 202]).toContain((await app.req(`/api/archives/${shown}/thumbnail`)).status)
  })

  it('keeps admin and session routes closed (401)', async () => {
    const write = await app.req(`/api/archives/${shown}/metadata?title=x`, { method: 'PUT' })
    expect(write.status).toBe(401)
    expect((await app.req('/api/settings')).status).toBe(401)
    expect((await app.req('/api/tokens')).status).toBe(401)
  })

  it('keeps routes that cannot apply the scope closed (401), e.g. job results', async () => {
    for (const route of ['/api/jobs', '/api/jobqueue/1', '/api/minion/1', '/api/shinobu']) {
      const res = await app.req(route)
      expect({ route, status: res.status }).toEqual({ route, status: 401 })
      expect(((await res.json()) as Wire).success).toBe(0)
    }
    // nofun_mode off opens dash routes to anonymous callers, but guest mode still confines them.
    app.deps.settings.update({ nofun_mode: false })
    try {
      expect((await app.req('/api/jobs')).status).toBe(401)
      expect((await app.req(`/api/archives/${hidden}/metadata`)).status).toBe(404)
      expect((await app.req(`/api/archives/${shown}/metadata`)).status).toBe(200)
    } finally {
      app.deps.settings.update({ nofun_mode: true })
    }
  })

  it('does not scope a logged-in session', async () => {
    const listed = (await (await app.req('/api/archives', { cookie })).json()) as Wire[]
    expect(listed.map((a) => a.arcid).sort()).toEqual([shown, hidden].sort())
    expect((await app.req(`/api/archives/${hidden}/metadata`, { cookie })).status).toBe(200)
  })
})
