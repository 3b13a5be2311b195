// Links, devices and FIFOs inside archives (tar, 7z and zip made on Unix) have image-looking names but no page data: no reader
// may count them as pages, and every page an archive lists must be served.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import * as fx from '../helpers/fixtures.ts'

const SPECIALS: fx.SpecialTarEntry[] = [
  { name: 'link.jpg', kind: 'symlink', target: '001.jpg' },
  { name: 'hard.jpg', kind: 'hardlink', target: '002.jpg' },
  { name: 'dev.jpg', kind: 'chardev' },
  { name: 'disk.jpg', kind: 'blockdev' },
  { name: 'fifo.jpg', kind: 'fifo' },
]

let app: TestServer
let cookie: string

beforeAll(async () => {
  app = await startTestServer({
    beforeStart: async (content) => {
      await fx.makeTarWithSpecials(join(content, 'Gzipped.tar.gz'), {
        pages: 2,
        specials: SPECIALS,
        gzip: true,
      })
      await fx.makeTarWithSpecials(join(content, 'Plain.tar'), { pages: 2, specials: SPECIALS })
      await fx.make7z(join(content, 'Linked.7z'), {
        pages: 2,
        symlinks: [{ name: 'link.jpg', target: '001.jpg' }],
      })
      // A zip made on Unix with a symlink and a FIFO entry next to two real pages.
      const pages = await fx.makePages(join(content, 'Linked.cbz'), { pages: 2 })
      const link = new TextEncoder().encode('001.jpg')
      const zip = fx.buildZip([
        ...pages.map((p) => ({ ...p, unixMode: 0o100644 })),
        { name: 'link.jpg', data: link, unixMode: 0o120777 },
        { name: 'fifo.jpg', data: new Uint8Array(0), unixMode: 0o010644 },
      ])
      await Bun.write(join(content, 'Linked.cbz'), zip)
    },
  })
  await app.idle()
  cookie = await app.login()
})

afterAll(() => app[Symbol.asyncDispose]())

describe('archives with link, device and FIFO entries', () => {
  it.each(['Gzipped.tar.gz', 'Plain.tar', 'Linked.7z', 'Linked.cbz'])(
    '%s lists only its regular image files as pages, and serves each',
    async (file) => {
      const list = (await (await app.req('/api/archives', { cookie })).json()) as Wire[]
      const archive = list.find((a) => `${a.filename}.${a.extension}` === file)
      expect(archive).toBeDefined()
      expect(archive!.pagecount).toBe(2)
      const files = await app.req(`/api/archives/${archive!.arcid}/files`, { cookie })
      expect(files.status).toBe(200)
      const { pages } = (await files.json()) as { pages: string[] }
      expect(pages.map((url) => decodeURIComponent(url.split('path=')[1]!))).toEqual([
        '001.jpg',
        '002.jpg',
      ])
      for (const url of pages) {
        const page = await app.req(url.replace(/^\./, ''), { cookie })
        expect(page.status).toBe(200)
        const bytes = new Uint8Array(await page.arrayBuffer())
        expect([...bytes.subarray(0, 2)]).toEqual([0xff, 0xd8])
      }
    },
  )
})
