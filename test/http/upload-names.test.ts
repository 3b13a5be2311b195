// Upload file names: one name whatever its Unicode normalization form (stored in NFC, colliding
// with a file or row that has another form of it), and no bidirectional controls in a name.
import { describe, expect, it } from 'bun:test'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { makeCbz } from '../helpers/fixtures.ts'

const NFC = 'Caf\u00e9 \u00c5ngstr\u00f6m.cbz'
const NFD = NFC.normalize('NFD')

async function upload(app: TestServer, cookie: string, source: string, name: string) {
  const form = new FormData()
  form.set('file', new File([await Bun.file(source).bytes()], name))
  return app.req('/api/archives/upload', { method: 'PUT', body: form, cookie })
}

const stagedFiles = (app: TestServer) =>
  readdirSync(app.deps.config.tempDir).filter((name) => name.startsWith('upload-'))

describe('PUT /api/archives/upload (names)', () => {
  it('stores an NFD name in NFC, and refuses the other form of a name already uploaded with 409', async () => {
    expect(NFD).not.toBe(NFC)
    await using app = await startTestServer()
    await app.idle()
    const cookie = await app.login()
    const a = await makeCbz(join(app.root, 'a.cbz'), { pages: 1 })
    const b = await makeCbz(join(app.root, 'b.cbz'), { pages: 2 })
    const c = await makeCbz(join(app.root, 'c.cbz'), { pages: 3 })

    const first = await upload(app, cookie, a, NFD)
    expect(first.status).toBe(200)
    expect(await first.json()).toMatchObject({ success: 1, name: NFC })
    expect(readdirSync(app.contentDir)).toEqual([NFC])

    for (const [source, name] of [
      [b, NFD],
      [c, NFC],
    ] as const) {
      const again = await upload(app, cookie, source, name)
      expect(again.status).toBe(409)
      expect(await again.json()).toEqual({
        operation: 'upload',
        success: 0,
        error: `A file named ${NFC} already exists in the content folder.`,
      })
    }
    expect(readdirSync(app.contentDir)).toEqual([NFC])
    expect(stagedFiles(app)).toEqual([])
  })

  it('refuses with 409 an upload whose name is another form of a file already in the folder', async () => {
    await using app = await startTestServer({
      // Files copied in from elsewhere (macOS writes NFD names) keep the form they came with.
      beforeStart: async (content) => {
        await makeCbz(join(content, NFD), { pages: 1 })
        await makeCbz(join(content, 'Plain \u00e9.cbz'), { pages: 2 })
      },
    })
    await app.idle()
    const cookie = await app.login()
    // Not catalogued yet (no watcher): only the file itself holds the name.
    await makeCbz(join(app.contentDir, 'Unscanned n\u0303.cbz'), { pages: 4 })
    const other = await makeCbz(join(app.root, 'other.cbz'), { pages: 3 })
    for (const name of [NFC, 'Plain e\u0301.cbz', 'Unscanned \u00f1.cbz']) {
      const res = await upload(app, cookie, other, name)
      expect(res.status).toBe(409)
      expect(await res.json()).toMatchObject({ operation: 'upload', success: 0 })
    }
    expect(readdirSync(app.contentDir).sort()).toEqual(
      [NFD, 'Plain \u00e9.cbz', 'Unscanned n\u0303.cbz'].sort(),
    )
    const list = (await (await app.req('/api/archives', { cookie })).json()) as Wire[]
    expect(list).toHaveLength(2)
  })

  it('refuses with 400 Env a name carrying a bidirectional control, staging nothing', async () => {
    await using app = await startTestServer()
    await app.idle()
    const cookie = await app.login()
    const source = await makeCbz(join(app.root, 'bidi.cbz'), { pages: 1 })
    for (const control of [
      '\u202a',
      '\u202b',
      '\u202c',
      '\u202d',
      '\u202e',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
      '\u200e',
      '\u200f',
      '\u061c',
    ]) {
      const res = await upload(app, cookie, source, `Invoice${control}zbc.cbz`)
      expect(res.status).toBe(400)
      expect(await res.json()).toEqual({
        operation: 'upload',
        success: 0,
        error: 'Invalid file name: bidirectional control characters are not allowed.',
      })
    }
    expect(readdirSync(app.contentDir)).toEqual([])
    expect(stagedFiles(app)).toEqual([])
    // Right-to-left text itself is a name like any other.
    const hebrew = await upload(app, cookie, source, '\u05e1\u05e4\u05e8.cbz')
    expect(hebrew.status).toBe(200)
    expect(readdirSync(app.contentDir)).toEqual(['\u05e1\u05e4\u05e8.cbz'])
  })
})
