// Rows hidden by a rescan (file gone, or no longer readable) come back with their metadata when
// their file does, whatever its stamps, at the path where it now is.
import { describe, expect, it } from 'bun:test'
import { mkdir, rename, stat, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { rescan } from '../helpers/rescan.ts'
import { makeCbz, makeCorrupt } from '../helpers/fixtures.ts'

async function listedIds(app: TestServer, cookie: string): Promise<string[]> {
  const list = (await (await app.req('/api/archives', { cookie })).json()) as Wire[]
  return list.map((a) => a.arcid).sort()
}

async function searchIds(app: TestServer, cookie: string, filter: string): Promise<string[]> {
  const res = await app.req(`/api/search/ids?start=-1&filter=${encodeURIComponent(filter)}`, {
    cookie,
  })
  expect(res.status).toBe(200)
  return ((await res.json()) as Wire).data as string[]
}

async function totalArchives(app: TestServer): Promise<number> {
  return ((await (await app.req('/api/info')).json()) as Wire).total_archives as number
}

async function catalogue(app: TestServer, cookie: string, title: string): Promise<string> {
  const list = (await (await app.req('/api/archives', { cookie })).json()) as Wire[]
  const id = list.find((a) => a.title === title)!.arcid as string
  const tagged = await app.req(`/api/archives/${id}/metadata?tags=artist:kept`, {
    method: 'PUT',
    cookie,
  })
  expect(tagged.status).toBe(200)
  return id
}

async function expectShownWithMetadata(app: TestServer, cookie: string, id: string) {
  const meta = await app.req(`/api/archives/${id}/metadata`, { cookie })
  expect(meta.status).toBe(200)
  expect(((await meta.json()) as Wire).tags).toBe('artist:kept')
  expect(await listedIds(app, cookie)).toContain(id)
  expect(await searchIds(app, cookie, 'artist:kept')).toEqual([id])
  const page = await app.req(`/api/archives/${id}/page?path=001.jpg`, { cookie })
  expect(page.status).toBe(200)
}

describe('POST /api/shinobu/rescan (a hidden file comes back)', () => {
  it('shows again a file moved out and back with the same size and mtime', async () => {
    await using app = await startTestServer({
      beforeStart: async (content) => {
        await makeCbz(join(content, 'Back.cbz'), { pages: 2 })
        await makeCbz(join(content, 'Other.cbz'), { pages: 2 })
      },
    })
    await app.idle()
    const cookie = await app.login()
    const id = await catalogue(app, cookie, 'Back')
    const inside = join(app.contentDir, 'Back.cbz')
    const aside = join(app.root, 'Back.cbz')
    const before = await stat(inside)

    await rename(inside, aside)
    expect((await rescan(app, cookie)).unlinked).toBe(1)
    expect((await app.req(`/api/archives/${id}/metadata`, { cookie })).status).toBe(400)

    await rename(aside, inside)
    const after = await stat(inside)
    expect([after.size, after.mtimeMs]).toEqual([before.size, before.mtimeMs])
    const result = await rescan(app, cookie)
    expect(result).toMatchObject({ added: 0, moved: 1, unlinked: 0 })
    await expectShownWithMetadata(app, cookie, id)
    expect(await totalArchives(app)).toBe(2)
    // Shown again for good: the next scan leaves it alone.
    expect(await rescan(app, cookie)).toMatchObject({ added: 0, updated: 0, moved: 0 })
    expect(await listedIds(app, cookie)).toContain(id)
  })

  it('follows a hidden file that comes back under another folder, stamps unchanged', async () => {
    await using app = await startTestServer({
      beforeStart: async (content) => void (await makeCbz(join(content, 'Roams.cbz'))),
    })
    await app.idle()
    const cookie = await app.login()
    const id = await catalogue(app, cookie, 'Roams')
    const aside = join(app.root, 'Roams.cbz')
    await rename(join(app.contentDir, 'Roams.cbz'), aside)
    expect((await rescan(app, cookie)).unlinked).toBe(1)

    await mkdir(join(app.contentDir, 'sub'))
    await rename(aside, join(app.contentDir, 'sub', 'Roams.cbz'))
    expect(await rescan(app, cookie)).toMatchObject({ moved: 1 })
    await expectShownWithMetadata(app, cookie, id)
    const download = await app.req(`/api/archives/${id}/download`, { cookie })
    expect(download.status).toBe(200)
    expect(await download.arrayBuffer()).toEqual(
      await Bun.file(join(app.contentDir, 'sub', 'Roams.cbz')).arrayBuffer(),
    )
  })

  it('takes the path a hidden row still holds when another hidden file returns there', async () => {
    await using app = await startTestServer({
      beforeStart: async (content) => {
        await makeCbz(join(content, 'First.cbz'))
        await makeCbz(join(content, 'Second.cbz'))
      },
    })
    await app.idle()
    const cookie = await app.login()
    const list = (await (await app.req('/api/archives', { cookie })).json()) as Wire[]
    const idOf = (title: string) => list.find((a) => a.title === title)!.arcid as string
    for (const name of ['First.cbz', 'Second.cbz'])
      await rename(join(app.contentDir, name), join(app.root, name))
    expect((await rescan(app, cookie)).unlinked).toBe(2)

    // Second's file comes back under the name First's hidden row still carries.
    await rename(join(app.root, 'Second.cbz'), join(app.contentDir, 'First.cbz'))
    expect(await rescan(app, cookie)).toMatchObject({ moved: 1, added: 0 })
    expect(await listedIds(app, cookie)).toEqual([idOf('Second')])
    const download = await app.req(`/api/archives/${idOf('Second')}/download`, { cookie })
    expect(download.headers.get('content-disposition')).toContain('filename="First.cbz"')

    await rename(join(app.root, 'First.cbz'), join(app.contentDir, 'Second.cbz'))
    expect(await rescan(app, cookie)).toMatchObject({ moved: 1, added: 0 })
    expect(await listedIds(app, cookie)).toEqual([idOf('First'), idOf('Second')].sort())
  })
})

describe('POST /api/shinobu/rescan (a catalogued file becomes unreadable)', () => {
  it('hides it like a vanished file, lists it as unreadable, and shows it again once repaired', async () => {
    await using app = await startTestServer({
      beforeStart: async (content) => {
        await makeCbz(join(content, 'Breaks.cbz'), { pages: 3 })
        await makeCbz(join(content, 'Stays.cbz'), { pages: 2 })
      },
    })
    await app.idle()
    const cookie = await app.login()
    const id = await catalogue(app, cookie, 'Breaks')
    const path = join(app.contentDir, 'Breaks.cbz')
    const good = await Bun.file(path).bytes()
    const stamps = await stat(path)
    expect(await totalArchives(app)).toBe(2)

    await makeCorrupt(path, 'truncated-zip')
    const result = await rescan(app, cookie)
    expect(result.unreadable).toEqual([{ path: 'Breaks.cbz', reason: expect.any(String) }])
    expect(result.unlinked).toBe(1)
    expect(await listedIds(app, cookie)).not.toContain(id)
    expect(await searchIds(app, cookie, 'artist:kept')).toEqual([])
    expect(await searchIds(app, cookie, 'Breaks')).toEqual([])
    expect(await totalArchives(app)).toBe(1)
    for (const route of ['metadata', 'page?path=001.jpg', 'files']) {
      const res = await app.req(`/api/archives/${id}/${route}`, { cookie })
      expect({ route, status: res.status }).toEqual({ route, status: 400 })
    }

    // Repaired to the very bytes and stamps it had when it was catalogued.
    await writeFile(path, good)
    await utimes(path, stamps.atime, stamps.mtime)
    const repaired = await rescan(app, cookie)
    expect(repaired).toMatchObject({ added: 0, moved: 1, unreadable: [] })
    await expectShownWithMetadata(app, cookie, id)
    expect(await totalArchives(app)).toBe(2)
  })
})
