// LANraragi parity for the OPDS entry of an archive, as its tests/opds.t renders the catalog
// (tests/samples/opds/opds_sample.xml): Dublin Core language and publisher from the tags and the
// comic-book acquisition types readers know (the PSE link is asserted in test/opds/opds.test.ts).
// Where Tankobun's entries differ on purpose (ids, summary, categories: docs/clients.md) they are
// not asserted here.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { makeCbz, makeRar4 } from '../helpers/fixtures.ts'
import { startTestServer, type TestServer } from '../helpers/server.ts'

let app: TestServer
let cookie: string
let ids: Record<string, string>

beforeAll(async () => {
  app = await startTestServer({
    async beforeStart(dir) {
      await makeCbz(join(dir, 'Fate GO MEMO.cbz'), { pages: 3 })
      await makeRar4(join(dir, 'Saturn Manual.rar'), { pages: 2 })
    },
  })
  await app.idle()
  cookie = await app.login()
  ids = await app.idsByTitle(cookie)
  const tags = 'parody:fate grand order, group:wadamemo, artist:wada rco, language:japanese'
  const edit = await app.req(
    `/api/archives/${ids['Fate GO MEMO']}/metadata?tags=${encodeURIComponent(tags)}`,
    { method: 'PUT', cookie },
  )
  expect(edit.status).toBe(200)
})

afterAll(() => app[Symbol.asyncDispose]())

const entryOf = async (id: string) => {
  const res = await app.req(`/api/opds/${id}`, { cookie })
  expect(res.status).toBe(200)
  return res.text()
}

const acquisitionType = (xml: string) =>
  /<link rel="http:\/\/opds-spec\.org\/acquisition"[^>]* type="([^"]+)"/.exec(xml)?.[1]

describe('OPDS entries (opds.t)', () => {
  it('names the language and, as publisher, the group of the tags', async () => {
    const xml = await entryOf(ids['Fate GO MEMO']!)
    expect(xml).toContain('<author><name>wada rco</name></author>')
    expect(xml).toContain('<dcterms:language>japanese</dcterms:language>')
    expect(xml).toContain('<dcterms:publisher>wadamemo</dcterms:publisher>')
    // Without such tags the fields are left out.
    const plain = await entryOf(ids['Saturn Manual']!)
    expect(plain).not.toContain('dcterms:language')
    expect(plain).not.toContain('dcterms:publisher')
  })

  it('types the download as a comic book archive: x-cbz for a zip, x-cbr for a rar', async () => {
    expect(acquisitionType(await entryOf(ids['Fate GO MEMO']!))).toBe('application/x-cbz')
    expect(acquisitionType(await entryOf(ids['Saturn Manual']!))).toBe('application/x-cbr')
    const feed = await app.req('/api/opds/all', { cookie })
    const xml = await feed.text()
    expect(xml.match(/application\/x-cb[zr]"/g)).toHaveLength(2)
  })
})
