// Renames that race each other or an upload, names the scanner would skip, names too long for the
// file system, and a row update that fails after the move: no file is ever lost or overwritten.
import { describe, expect, it } from 'bun:test'
import { readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { makeCbz } from '../helpers/fixtures.ts'

const sha1 = (bytes: Uint8Array) => new Bun.CryptoHasher('sha1').update(bytes).digest('hex')

function rename(app: TestServer, cookie: string, id: string, filename: string) {
  return app.req(`/api/archives/${id}/rename`, { method: 'PUT', cookie, json: { filename } })
}

async function contentHashes(app: TestServer): Promise<string[]> {
  const names = readdirSync(app.contentDir).filter((n) => !n.startsWith('.'))
  const hashes = await Promise.all(
    names.map(async (n) => sha1(await Bun.file(join(app.contentDir, n)).bytes())),
  )
  return hashes.sort()
}

async function listed(app: TestServer, cookie: string): Promise<Wire[]> {
  return (await (await app.req('/api/archives', { cookie })).json()) as Wire[]
}

/** Every listed archive's file is where its row says, and its first page is served. */
async function expectCatalogueMatchesDisk(app: TestServer, cookie: string, count: number) {
  const list = await listed(app, cookie)
  expect(list).toHaveLength(count)
  expect(list.map((a) => `${a.filename}.${a.extension}`).sort()).toEqual(
    readdirSync(app.contentDir)
      .filter((n) => !n.startsWith('.'))
      .sort(),
  )
  for (const a of list) {
    const page = await app.req(`/api/archives/${a.arcid}/page?path=001.jpg`, { cookie })
    expect(page.status).toBe(200)
  }
}

describe('PUT /api/archives/:id/rename (concurrent)', () => {
  it('lets exactly one of eight renames to one name win; the others get 409 and keep their file', async () => {
    await using app = await startTestServer({
      beforeStart: async (content) => {
        for (let i = 1; i <= 8; i++) await makeCbz(join(content, `Book ${i}.cbz`), { pages: 1 })
      },
    })
    await app.idle()
    const cookie = await app.login()
    const before = await contentHashes(app)
    const ids = (await listed(app, cookie)).map((a) => a.arcid as string)
    expect(ids).toHaveLength(8)

    // Several rounds: the requests interleave differently in each.
    for (let round = 1; round <= 12; round++) {
      const name = `samename ${round}`
      const answers = await Promise.all(ids.map((id) => rename(app, cookie, id, name)))
      const statuses = answers.map((r) => r.status).sort()
      expect(statuses).toEqual([200, 409, 409, 409, 409, 409, 409, 409])
      for (const res of answers.filter((r) => r.status === 409))
        expect(await res.json()).toMatchObject({ operation: 'rename_archive', success: 0 })
      expect(await contentHashes(app)).toEqual(before)
      expect(readdirSync(app.contentDir)).toContain(`${name}.cbz`)
    }
    await expectCatalogueMatchesDisk(app, cookie, 8)
  })

  it('never lets an upload and a rename to the same name both land', async () => {
    await using app = await startTestServer({
      beforeStart: async (content) => void (await makeCbz(join(content, 'Here.cbz'), { pages: 1 })),
    })
    await app.idle()
    const cookie = await app.login()
    const [here] = await listed(app, cookie)
    const source = join(app.root, 'incoming.cbz')
    await makeCbz(source, { pages: 1 })
    const form = new FormData()
    form.set('file', new File([await Bun.file(source).bytes()], 'Race.cbz'))
    const answers = await Promise.all([
      app.req('/api/archives/upload', { method: 'PUT', body: form, cookie }),
      rename(app, cookie, here!.arcid, 'Race'),
    ])
    const statuses = answers.map((r) => r.status)
    expect(statuses.filter((s) => s === 200)).toHaveLength(1)
    expect(statuses.filter((s) => s === 409)).toHaveLength(1)
    const won = statuses[0] === 200 ? 1 : 0
    // One of the two files holds the name; neither is lost.
    expect(readdirSync(app.contentDir).filter((n) => !n.startsWith('.'))).toHaveLength(1 + won)
    await expectCatalogueMatchesDisk(app, cookie, 1 + won)
  })
})

describe('PUT /api/archives/:id/rename (names)', () => {
  it('refuses with 400 Env a final name the scanner would skip, so the archive never vanishes', async () => {
    await using app = await startTestServer({
      beforeStart: async (content) => {
        await makeCbz(join(content, 'Comic.cbz'), { pages: 1 })
        await makeCbz(join(content, 'Plain.zip'), { pages: 1 })
      },
    })
    await app.idle()
    const cookie = await app.login()
    const list = await listed(app, cookie)
    const comic = list.find((a) => a.title === 'Comic')!.arcid as string
    const plain = list.find((a) => a.title === 'Plain')!.arcid as string
    for (const [id, name] of [
      [comic, '.hidden'],
      [comic, '.hidden.cbz'],
      [comic, 'x.tankobun-tmp-1'],
      [plain, 'Other.patch'],
      [comic, 'Other.patch.zip.tankobun-tmp-.cbz'],
    ] as const) {
      const res = await rename(app, cookie, id, name)
      expect(res.status).toBe(400)
      expect(await res.json()).toMatchObject({ operation: 'rename_archive', success: 0 })
    }
    expect(readdirSync(app.contentDir).sort()).toEqual(['Comic.cbz', 'Plain.zip'])
    await app.contentSync.rescan()
    await app.idle()
    expect((await listed(app, cookie)).map((a) => a.title).sort()).toEqual(['Comic', 'Plain'])
  })

  it('answers 400 naming the limit when the name with its extension passes 255 bytes', async () => {
    await using app = await startTestServer({
      beforeStart: async (content) => void (await makeCbz(join(content, 'Long.cbz'), { pages: 1 })),
    })
    await app.idle()
    const cookie = await app.login()
    const [long] = await listed(app, cookie)
    // 252 bytes fit alone; with the kept ".cbz" they are 256.
    const res = await rename(app, cookie, long!.arcid, 'é'.repeat(126))
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({
      operation: 'rename_archive',
      success: 0,
      error: 'File name too long: at most 255 bytes in UTF-8 (this one is 256).',
    })
    const fits = await rename(app, cookie, long!.arcid, 'x'.repeat(251))
    expect(fits.status).toBe(200)
    expect(readdirSync(app.contentDir)).toEqual([`${'x'.repeat(251)}.cbz`])
  })

  it('renames to a name whose NFD form passes 255 bytes (voiced kana) when its NFC form fits', async () => {
    await using app = await startTestServer({
      beforeStart: async (content) => {
        await makeCbz(join(content, 'Kana.cbz'), { pages: 1 })
        await makeCbz(join(content, 'Other.cbz'), { pages: 2 })
      },
    })
    await app.idle()
    const cookie = await app.login()
    const list = await listed(app, cookie)
    const kana = list.find((a) => a.title === 'Kana')!.arcid as string
    const other = list.find((a) => a.title === 'Other')!.arcid as string
    const title = 'ガギグゲゴ'.repeat(16)
    const res = await rename(app, cookie, kana, title)
    expect(res.status).toBe(200)
    expect(readdirSync(app.contentDir).sort()).toEqual(['Other.cbz', `${title}.cbz`].sort())
    // The same name for another archive: a clash (409), not a failure of the check.
    expect((await rename(app, cookie, other, title)).status).toBe(409)
  })

  it('answers 409 for a name a hidden row still holds, instead of failing on the catalogue', async () => {
    await using app = await startTestServer({
      beforeStart: async (content) => {
        await makeCbz(join(content, 'Gone.cbz'), { pages: 1 })
        await makeCbz(join(content, 'Stays.cbz'), { pages: 1 })
      },
    })
    await app.idle()
    const cookie = await app.login()
    const stays = (await listed(app, cookie)).find((a) => a.title === 'Stays')!.arcid as string
    rmSync(join(app.contentDir, 'Gone.cbz'))
    await app.contentSync.rescan()
    await app.idle()
    const res = await rename(app, cookie, stays, 'Gone')
    expect(res.status).toBe(409)
    expect(await res.json()).toMatchObject({ operation: 'rename_archive', success: 0 })
    expect(readdirSync(app.contentDir)).toEqual(['Stays.cbz'])
    await expectCatalogueMatchesDisk(app, cookie, 1)
  })

  it('moves the file back when the row cannot be updated after the move', async () => {
    await using app = await startTestServer({
      beforeStart: async (content) => void (await makeCbz(join(content, 'Keep.cbz'), { pages: 1 })),
    })
    await app.idle()
    const cookie = await app.login()
    const [keep] = await listed(app, cookie)
    // A failing write on the real database, for this one path only.
    app.deps.db.$client.run(
      `CREATE TRIGGER refuse_boom BEFORE UPDATE OF path ON archives
       WHEN NEW.path = 'Boom.cbz' BEGIN SELECT RAISE(ABORT, 'refused'); END`,
    )
    const res = await rename(app, cookie, keep!.arcid, 'Boom')
    expect(res.status).toBe(500)
    expect(await res.json()).toMatchObject({ operation: 'rename_archive', success: 0 })
    expect(readdirSync(app.contentDir)).toEqual(['Keep.cbz'])
    await expectCatalogueMatchesDisk(app, cookie, 1)
  })
})

describe('PUT /api/archives/:id/rename (Unicode names)', () => {
  const NFC = 'Caf\u00e9'
  const NFD = NFC.normalize('NFD')

  it('refuses with 409 the other normalization form of a name another archive holds', async () => {
    await using app = await startTestServer({
      beforeStart: async (content) => {
        await makeCbz(join(content, `${NFC}.cbz`), { pages: 1 })
        await makeCbz(join(content, 'Other.cbz'), { pages: 2 })
      },
    })
    await app.idle()
    const cookie = await app.login()
    const other = (await listed(app, cookie)).find((a) => a.title === 'Other')!.arcid as string
    const res = await rename(app, cookie, other, NFD)
    expect(res.status).toBe(409)
    expect(await res.json()).toMatchObject({ operation: 'rename_archive', success: 0 })
    expect(readdirSync(app.contentDir).sort()).toEqual([`${NFC}.cbz`, 'Other.cbz'])
    await expectCatalogueMatchesDisk(app, cookie, 2)
  })

  it('stores a new name in NFC, and renames a file from NFD to the NFC form of its own name', async () => {
    await using app = await startTestServer({
      beforeStart: async (content) => {
        await makeCbz(join(content, `${NFD}.cbz`), { pages: 1 })
        await makeCbz(join(content, 'Plain.cbz'), { pages: 2 })
      },
    })
    await app.idle()
    const cookie = await app.login()
    const list = await listed(app, cookie)
    const cafe = list.find((a) => a.title !== 'Plain')!.arcid as string
    const plain = list.find((a) => a.title === 'Plain')!.arcid as string

    const own = await rename(app, cookie, cafe, NFC)
    expect(own.status).toBe(200)
    expect(await own.json()).toMatchObject({ success: 1, filename: `${NFC}.cbz` })
    const renamed = await rename(app, cookie, plain, `${NFD} 2`)
    expect(renamed.status).toBe(200)
    expect(await renamed.json()).toMatchObject({ success: 1, filename: `${NFC} 2.cbz` })
    expect(readdirSync(app.contentDir).sort()).toEqual([`${NFC} 2.cbz`, `${NFC}.cbz`])
    await expectCatalogueMatchesDisk(app, cookie, 2)
  })

  it('refuses with 400 Env a name carrying a bidirectional control', async () => {
    await using app = await startTestServer({
      beforeStart: async (content) => void (await makeCbz(join(content, 'Doc.cbz'), { pages: 1 })),
    })
    await app.idle()
    const cookie = await app.login()
    const [doc] = await listed(app, cookie)
    for (const control of ['\u202e', '\u2066', '\u200f', '\u061c']) {
      const res = await rename(app, cookie, doc!.arcid, `Doc${control}rbc.zip`)
      expect(res.status).toBe(400)
      expect(await res.json()).toEqual({
        operation: 'rename_archive',
        success: 0,
        error: 'Invalid file name: bidirectional control characters are not allowed.',
      })
    }
    expect(readdirSync(app.contentDir)).toEqual(['Doc.cbz'])
  })
})
