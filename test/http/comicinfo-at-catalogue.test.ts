// ComicInfo.xml read when an archive is first catalogued: namespaced tags (and an empty summary
// filled) without running the plugin, the same tags the ComicInfo plugin proposes; odd files
// are skipped, and an edit of the archive later is never undone.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { makeCbz, makeTar } from '../helpers/fixtures.ts'
import { splitTags } from '../../src/model/tags.ts'

const encode = (text: string) => new TextEncoder().encode(text)

const INFO = `<?xml version="1.0" encoding="utf-8"?>
<ComicInfo xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <Title>Ignored Title</Title>
  <Series>Space &amp; Time</Series>
  <Number>3</Number>
  <Volume>-1</Volume>
  <Summary>A story, with commas.</Summary>
  <Writer>Jane Roe</Writer>
  <Penciller>Ann Artist, Bo Drawer</Penciller>
  <Genre>Sci-Fi; Drama</Genre>
  <LanguageISO>EN</LanguageISO>
  <Web>https://example.org/a https://example.org/b</Web>
</ComicInfo>`

let app: TestServer
let cookie: string
let ids: Record<string, string>

async function metadata(id: string): Promise<Wire> {
  return (await app.json(`/api/archives/${id}/metadata`, { cookie })).body
}

/** The archive's tags once the catalogue-time read has run (it follows the scan's write). */
async function tagsOnceRead(id: string, expected: string): Promise<string[]> {
  for (let i = 0; i < 500; i++) {
    const tags = splitTags((await metadata(id)).tags as string)
    if (tags.includes(expected)) return tags
    await Bun.sleep(10)
  }
  return splitTags((await metadata(id)).tags as string)
}

beforeAll(async () => {
  app = await startTestServer({
    beforeStart: async (content) => {
      await makeCbz(join(content, 'With Info.cbz'), {
        entries: [{ name: 'ComicInfo.xml', data: encode(INFO) }],
      })
      await makeTar(join(content, 'Tar Info.tar'), {
        entries: [
          { name: 'comicinfo.xml', data: encode('<ComicInfo><Series>Tarred</Series></ComicInfo>') },
        ],
      })
      await makeCbz(join(content, 'Broken Info.cbz'), {
        entries: [{ name: 'ComicInfo.xml', data: encode('<NotComicInfo><Series>x</Series>') }],
      })
      await makeCbz(join(content, 'No Info.cbz'))
    },
  })
  await app.idle()
  cookie = await app.login()
  const list = (await app.json('/api/archives', { cookie })).body as Wire[]
  ids = Object.fromEntries(list.map((a) => [a.title, a.arcid]))
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

describe('ComicInfo.xml at catalogue time', () => {
  it('becomes namespaced tags and fills the empty summary, the title left alone', async () => {
    const tags = await tagsOnceRead(ids['With Info']!, 'series:Space & Time')
    expect(tags).toEqual(
      expect.arrayContaining([
        'series:Space & Time',
        'issue:3',
        'group:Jane Roe',
        'artist:Ann Artist',
        'artist:Bo Drawer',
        'Sci-Fi',
        'Drama',
        'language:english',
        'source:https://example.org/a',
        'source:https://example.org/b',
      ]),
    )
    expect(tags.some((t) => t.startsWith('date_added:'))).toBe(true)
    expect(tags.some((t) => t.startsWith('volume:'))).toBe(false)
    const row = await metadata(ids['With Info']!)
    expect(row.title).toBe('With Info')
    expect(row.summary).toBe('A story, with commas.')
  })

  it('names languages from the same table as the plugin', async () => {
    const table = async (path: string) => {
      const text = await Bun.file(join(import.meta.dir, '..', '..', path)).text()
      return text.slice(text.indexOf('const LANGUAGES'), text.indexOf('const LANGUAGE_BY_CODE'))
    }
    const plugin = await table('plugins/metadata/comicinfo.ts')
    expect(plugin).toContain("['english', 'en eng']")
    expect(await table('src/domain/archives/language-names.ts')).toBe(plugin)
  })

  it('reads a lower-case comicinfo.xml in a tar', async () => {
    expect(await tagsOnceRead(ids['Tar Info']!, 'series:Tarred')).toContain('series:Tarred')
  })

  it('skips a file without a ComicInfo root and archives without one', async () => {
    // Both were catalogued with the others; their reads were queued before the first one's end.
    await tagsOnceRead(ids['With Info']!, 'series:Space & Time')
    await tagsOnceRead(ids['Tar Info']!, 'series:Tarred')
    for (const title of ['Broken Info', 'No Info']) {
      const tags = splitTags((await metadata(ids[title]!)).tags as string)
      expect(tags.every((t) => t.startsWith('date_added:'))).toBe(true)
    }
  })

  it('leaves no tag for the ComicInfo plugin to add', async () => {
    const id = ids['With Info']!
    await tagsOnceRead(id, 'series:Space & Time')
    const { status, body } = await app.json(`/api/plugins/use?plugin=metadata/comicinfo&id=${id}`, {
      method: 'POST',
      cookie,
    })
    expect(status).toBe(200)
    expect(body.success).toBe(1)
    // new_tags holds only the tags the archive lacks (LANraragi's rule): the catalogue read all.
    expect(body.data.new_tags).toBe('')
  }, 30_000)

  it('is not read again for an archive already catalogued (an edit stays)', async () => {
    const id = ids['With Info']!
    await tagsOnceRead(id, 'series:Space & Time')
    const res = await app.req(`/api/archives/${id}/metadata`, {
      method: 'PUT',
      cookie,
      body: new URLSearchParams({ tags: 'artist:only' }),
    })
    expect(res.status).toBe(200)
    await res.text()
    const rescan = await app.req('/api/shinobu/rescan', { method: 'POST', cookie })
    await rescan.text()
    await app.idle()
    await app.jobsDone()
    expect((await metadata(id)).tags).toBe('artist:only')
  })
})
