import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { makeCbz } from '../helpers/fixtures.ts'
import { seedArchive } from '../helpers/seed.ts'

let app: TestServer
let cookie: string
let byTitle: Record<string, string>

async function createTank(name: string, members: string[]): Promise<string> {
  const res = await app.req('/api/tankoubons', {
    method: 'PUT',
    cookie,
    body: new URLSearchParams({ name }),
  })
  const id = ((await res.json()) as Wire).tankoubon_id as string
  for (const member of members)
    await app.req(`/api/tankoubons/${id}/${member}`, { method: 'PUT', cookie })
  return id
}

beforeAll(async () => {
  app = await startTestServer({
    beforeStart: async (content) => {
      await makeCbz(join(content, 'Volume One.cbz'), { pages: 2 })
      await makeCbz(join(content, 'Volume Two.cbz'), { pages: 3 })
    },
  })
  await app.idle()
  cookie = await app.login()
  const list = (await (await app.req('/api/archives', { cookie })).json()) as Wire[]
  byTitle = Object.fromEntries(list.map((a) => [a.title, a.arcid]))
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

describe('PUT /api/tankoubons/:id/thumbnail', () => {
  it('takes the cover from a global page of the second member, served by GET', async () => {
    const id = await createTank('Covered', [byTitle['Volume One']!, byTitle['Volume Two']!])
    const res = await app.req(`/api/tankoubons/${id}/thumbnail?page=4`, { method: 'PUT', cookie })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      operation: 'update_tankoubon_thumbnail',
      success: 1,
      new_thumbnail: `/api/tankoubons/${id}/thumbnail`,
    })
    const image = await app.req(`/api/tankoubons/${id}/thumbnail?no_fallback=true`, { cookie })
    expect(image.status).toBe(200)
    expect(image.headers.get('content-type')).toMatch(/^image\/(webp|jpeg)$/)
    const page2 = `/api/archives/${byTitle['Volume Two']}/thumbnail?page=2&no_fallback=true`
    const pageThumb = await app.req(page2, { cookie })
    expect(pageThumb.status).toBe(200)
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(
      new Uint8Array(await pageThumb.arrayBuffer()),
    )
  })

  it('answers 400 Env for a missing, zero or out-of-range page', async () => {
    const id = await createTank('Bad pages', [byTitle['Volume One']!])
    for (const query of ['', '?page=0', '?page=3', '?page=x']) {
      const res = await app.req(`/api/tankoubons/${id}/thumbnail${query}`, {
        method: 'PUT',
        cookie,
      })
      expect(res.status).toBe(400)
      expect(await res.json()).toMatchObject({
        operation: 'update_tankoubon_thumbnail',
        success: 0,
      })
    }
  })

  it('answers 423 while the Tankoubon is locked', async () => {
    const id = await createTank('Busy cover', [byTitle['Volume One']!])
    let release!: () => void
    void app.deps.locks.withLock(id, () => new Promise<void>((resolve) => (release = resolve)))
    const res = await app.req(`/api/tankoubons/${id}/thumbnail?page=1`, { method: 'PUT', cookie })
    release()
    expect(res.status).toBe(423)
  })

  it('answers 401 Env without credentials', async () => {
    const id = await createTank('Closed', [byTitle['Volume One']!])
    expect(
      (await app.req(`/api/tankoubons/${id}/thumbnail?page=1`, { method: 'PUT' })).status,
    ).toBe(401)
  })
})

describe('GET /api/tankoubons/:id/thumbnail', () => {
  it('answers 202 with a job when the cover is not made yet and no_fallback is true', async () => {
    const unmade = seedArchive(app.deps, { pagecount: 2 })
    const id = await createTank('Pending', [unmade.id])
    const res = await app.req(`/api/tankoubons/${id}/thumbnail?no_fallback=true`, { cookie })
    expect(res.status).toBe(202)
    const body = (await res.json()) as Wire
    expect(body).toMatchObject({ operation: 'serve_tankoubon_thumbnail', success: 1 })
    expect(Number.isInteger(body.job)).toBe(true)
  })

  it('answers the placeholder image without no_fallback', async () => {
    const id = await createTank('Empty', [])
    const res = await app.req(`/api/tankoubons/${id}/thumbnail`, { cookie })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toStartWith('image/')
  })

  it('answers 400 Env for an unknown Tankoubon or a bad no_fallback', async () => {
    let res = await app.req('/api/tankoubons/TANK_0000000006/thumbnail', { cookie })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ operation: 'serve_tankoubon_thumbnail', success: 0 })
    const id = await createTank('Flag', [])
    res = await app.req(`/api/tankoubons/${id}/thumbnail?no_fallback=perhaps`, { cookie })
    expect(res.status).toBe(400)
  })
})
