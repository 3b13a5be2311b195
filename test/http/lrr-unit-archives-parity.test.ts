// LANraragi parity for what its own unit tests pin down about archive files, asserted over HTTP:
// which entries are pages and in what order (tests/LANraragi/Utils/Archive.t and the rules of
// Utils/Archive.pm get_filelist, Utils/Generic.pm is_image) and which files of the content folder
// `.lrrignore` files leave out of the catalogue (tests/LANraragi/Utils/Ignore.t, Utils/Ignore.pm).
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { buildZip, makeJpeg } from '../helpers/fixtures.ts'
import { rescan } from '../helpers/rescan.ts'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'

const PAGE = await makeJpeg(8, 8, 3)
// What macOS writes into __MACOSX/ and ._ files: an AppleDouble header, not an image.
const APPLE_DOUBLE = new Uint8Array([0, 5, 22, 7, 0, 2, 0, 0, 77, 97, 99, 32])

let marker = 0
/** A one-page CBZ at `path` under `dir`, distinct from every other (its own id). */
function writeArchive(dir: string, path: string) {
  const file = join(dir, path)
  mkdirSync(dirname(file), { recursive: true })
  const unique = new TextEncoder().encode(`archive ${marker++} ${path}`)
  writeFileSync(
    file,
    buildZip([
      { name: '001.jpg', data: PAGE },
      { name: 'marker.txt', data: unique },
    ]),
  )
}

describe('pages of an archive (Utils/Archive.t, get_filelist)', () => {
  let app: TestServer
  let cookie: string
  let archive: Wire

  beforeAll(async () => {
    app = await startTestServer({
      beforeStart(dir) {
        const names = [
          '010.jpg',
          '002.jpg',
          'credits.png',
          '001.jpg',
          'zz_cover.jpg',
          'back_cover.jpg',
          'note.jpg',
          '999_staff.jpg',
          'end_card_save_file.png',
          'artist_info.jpg',
          'discover.jpg',
          'scan.jfif',
          'photo.heic',
          'folder._cover.jpg',
          'readme.txt',
        ]
        writeFileSync(
          join(dir, 'Ordered.cbz'),
          buildZip([
            ...names.map((name) => ({ name, data: name.endsWith('.txt') ? APPLE_DOUBLE : PAGE })),
            { name: '__MACOSX/001.jpg', data: APPLE_DOUBLE },
            { name: 'folder/._image.png', data: APPLE_DOUBLE },
          ]),
        )
      },
    })
    await app.idle()
    cookie = await app.login()
    const list = (await app.json<Wire[]>('/api/archives', { cookie })).body
    archive = list.find((a) => a.title === 'Ordered')!
  })

  afterAll(() => app[Symbol.asyncDispose]())

  it('moves cover pages first and notes, credits and 999 pages last, the rest in natural order', async () => {
    const { status, body } = await app.json(`/api/archives/${archive.arcid}/files`, { cookie })
    expect(status).toBe(200)
    const pages = (body.pages as string[]).map((url) => decodeURIComponent(url.split('path=')[1]!))
    expect(pages).toEqual([
      // Covers: a page naming "cover" that is no back, end or rear cover.
      'folder._cover.jpg',
      'zz_cover.jpg',
      '001.jpg',
      '002.jpg',
      '010.jpg',
      'back_cover.jpg',
      'discover.jpg',
      'photo.heic',
      'scan.jfif',
      // Credits: 999..., artist_info..., credit..., end_card_save_file, note(s).<ext>.
      '999_staff.jpg',
      'artist_info.jpg',
      'credits.png',
      'end_card_save_file.png',
      'note.jpg',
    ])
    expect(archive.pagecount).toBe(14)
  })

  it('counts .jfif and .heic entries as pages and skips macOS resource forks', async () => {
    const res = await app.req(`/api/archives/${archive.arcid}/page?path=scan.jfif`, { cookie })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/jpeg')
    const heic = await app.req(`/api/archives/${archive.arcid}/page?path=photo.heic`, { cookie })
    expect(heic.status).toBe(200)
    expect(heic.headers.get('content-type')).toBe('image/heic')
    for (const junk of ['__MACOSX/001.jpg', 'folder/._image.png']) {
      const path = encodeURIComponent(junk)
      const page = await app.req(`/api/archives/${archive.arcid}/page?path=${path}`, { cookie })
      expect({ junk, status: page.status }).toEqual({ junk, status: 400 })
    }
  })
})

describe('.lrrignore files (Utils/Ignore.t)', () => {
  let app: TestServer
  let cookie: string
  const titles = async () =>
    (await app.json<Wire[]>('/api/archives', { cookie })).body.map((a) => a.title).sort()

  beforeAll(async () => {
    app = await startTestServer({
      beforeStart(dir) {
        for (const path of [
          'foo.cbz',
          'sub/bar.cbz',
          'foo.tmp.cbz',
          'important.cbz',
          'private/secret.cbz',
          'not_private.cbz',
          'root.cbz',
          'sub/root.cbz',
          'sub/keep.cbz',
          'sub/drop.cbz',
          'star*lit.cbz',
          'starlit.cbz',
          '!bang.cbz',
          '#tag.cbz',
          '漫画/vol1.cbz',
          '漫画/vol2.cbz',
          'Backup/OLD.cbz',
          'backup/new.cbz',
          'paren(1) [x] {y} $&~@.cbz',
        ])
          writeArchive(dir, path)
        const rules = [
          '# comment',
          '',
          '   # comment with spaces',
          '*.tmp.cbz',
          'foo.cbz',
          'private/',
          '/root.cbz',
          'star\\*lit.cbz',
          '\\!bang.cbz',
          '\\#tag.cbz',
          '漫画/vol1.cbz',
          'backup/old.cbz',
          'paren(1) [x] {y} $&~@.cbz',
          'sub/*.cbz',
          '*.cbz',
          '!important.cbz',
          '!not_private.cbz',
          '!starlit.cbz',
          '!漫画/vol2.cbz',
          '!backup/new.cbz',
        ]
        writeFileSync(join(dir, '.lrrignore'), rules.join('\r\n'))
        writeFileSync(join(dir, 'sub', '.lrrignore'), '!keep.cbz\n')
      },
    })
    await app.idle()
    cookie = await app.login()
  })

  afterAll(() => app[Symbol.asyncDispose]())

  it('catalogues only what the rules leave in: last matching rule wins, the nearest file first', async () => {
    // Left in: re-included by a root `!` rule, or by sub/.lrrignore over the root's sub/*.cbz.
    expect(await titles()).toEqual(['important', 'keep', 'new', 'not_private', 'starlit', 'vol2'])
  })

  it('matches a pattern without a slash at any depth, a leading / at its own folder only', async () => {
    rmSync(join(app.contentDir, '.lrrignore'))
    writeFileSync(join(app.contentDir, '.lrrignore'), '/root.cbz\nbar.cbz\nprivate/\n')
    await rescan(app, cookie)
    const kept = await titles()
    // /root.cbz leaves sub/root.cbz; bar.cbz reaches sub/bar.cbz; private/ names the folder only.
    expect(kept).toContain('root')
    expect(kept.filter((t) => t === 'root')).toHaveLength(1)
    expect(kept).not.toContain('bar')
    expect(kept).not.toContain('secret')
    expect(kept).toContain('not_private')
    // The child file re-includes only what it names; its folder's other files stay in.
    expect(kept).toEqual(expect.arrayContaining(['keep', 'drop', 'foo', 'vol1', 'OLD']))
  })

  it('hides an archive a new rule leaves out, and shows it again with its metadata once lifted', async () => {
    const ids = await app.idsByTitle(cookie)
    const edit = await app.req(
      `/api/archives/${ids.drop}/metadata?tags=${encodeURIComponent('kept:tag')}`,
      { method: 'PUT', cookie },
    )
    expect(edit.status).toBe(200)
    writeFileSync(join(app.contentDir, 'sub', '.lrrignore'), 'DROP.cbz\n')
    await rescan(app, cookie)
    expect(await titles()).not.toContain('drop')
    expect((await app.json(`/api/search?filter=kept:tag`, { cookie })).body.recordsFiltered).toBe(0)

    writeFileSync(join(app.contentDir, 'sub', '.lrrignore'), '# nothing ignored here\n')
    await rescan(app, cookie)
    const back = await app.json(`/api/archives/${ids.drop}/metadata`, { cookie })
    expect(back.status).toBe(200)
    expect(back.body.tags).toContain('kept:tag')
  })
})
