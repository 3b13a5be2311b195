// The built-in metadata plugins (plugins/metadata/) run through the real sandbox, with a ctx made
// by hand; and every plugin file type-checks against plugins/sdk.d.ts.
import { afterAll, describe, expect, it } from 'bun:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createArchiveReader } from '../../src/archive/reader.ts'
import { readPluginEntry } from '../../src/domain/plugins/run.ts'
import { createSandboxHost, type PluginCtx } from '../../src/plugins/host.ts'
import type { PluginRunTag } from '../../src/plugins/manifest.ts'
import * as fx from '../helpers/fixtures.ts'

const root = join(import.meta.dir, '../..')
/** Each run carries the archive entries its ctx.entry answers. */
type Entries = Record<string, string>

const host = createSandboxHost<Entries>({
  fetch: () => Promise.reject(new Error('metadata plugins here fetch nothing')),
  async entry(name, run) {
    const text = run.tag?.[name]
    return text === undefined ? null : new TextEncoder().encode(text)
  },
})
afterAll(() => host.close())

const source = (name: string) => Bun.file(join(root, 'plugins/metadata', `${name}.ts`)).text()

function archive(filename: string): PluginCtx['archive'] {
  return { arcid: 'a'.repeat(40), title: '', tags: '', summary: '', filename, pagecount: 3 }
}

async function run(
  plugin: string,
  options: { filename?: string; entries?: Entries; args?: Record<string, unknown> } = {},
) {
  const ctx: PluginCtx = {
    archive: archive(options.filename ?? 'x.cbz'),
    args: options.args ?? {},
    oneshot: null,
  }
  const out = await host.run({
    source: await source(plugin),
    entry: 'execMetadata',
    ctx,
    tag: options.entries ?? {},
  })
  return out.result as { tags?: string; title?: string; summary?: string; error?: string }
}

const tagsOf = (result: { tags?: string }) => (result.tags ? result.tags.split(', ') : [])

const COMIC_INFO = `<?xml version="1.0" encoding="utf-8"?>
<!-- written by a tagger -->
<ComicInfo xmlns:xsd="http://www.w3.org/2001/XMLSchema"
           xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <Title>  Tom &amp; Jerry &#8211; The &quot;Chase&quot;  </Title>
  <Series>Tom &amp; Jerry</Series>
  <Number>3</Number>
  <Count>12</Count>
  <Volume>1</Volume>
  <Summary><![CDATA[A cat <chases> a mouse.
Again & again.]]></Summary>
  <Writer>Alice Writer, Bob Writer</Writer>
  <Penciller>Carol Pen</Penciller>
  <Inker>Carol Pen</Inker>
  <Colorist>Dan Color</Colorist>
  <CoverArtist/>
  <Publisher>ACME &#x43;omics</Publisher>
  <Genre>Comedy, Slapstick</Genre>
  <Tags>cat,  mouse ,chase</Tags>
  <Web>https://example.com/a https://example.org/b</Web>
  <LanguageISO>EN</LanguageISO>
  <Characters>Tom, Jerry, Spike</Characters>
  <Teams>Cats &apos;n&apos; Mice</Teams>
  <Locations>Kitchen</Locations>
  <AgeRating>Everyone</AgeRating>
  <Manga>No</Manga>
  <Pages><Page Image="0" Type="FrontCover"/></Pages>
</ComicInfo>`

describe('metadata/comicinfo', () => {
  it('answers its plugin info', async () => {
    const out = await host.run({
      source: await source('comicinfo'),
      entry: 'pluginInfo',
      ctx: { args: {}, oneshot: null },
    })
    expect(out.result).toMatchObject({ name: 'ComicInfo', type: 'metadata' })
  })

  it('maps a realistic ComicInfo.xml to tags, title and summary', async () => {
    const result = await run('comicinfo', { entries: { 'ComicInfo.xml': COMIC_INFO } })
    expect(result.title).toBe('Tom & Jerry – The "Chase"')
    expect(result.summary).toBe('A cat <chases> a mouse.\nAgain & again.')
    expect(tagsOf(result)).toEqual([
      'group:Alice Writer',
      'group:Bob Writer',
      'series:Tom & Jerry',
      'artist:Carol Pen',
      'artist:Dan Color',
      'publisher:ACME Comics',
      'Comedy',
      'Slapstick',
      'cat',
      'mouse',
      'chase',
      'character:Tom',
      'character:Jerry',
      'character:Spike',
      "group:Cats 'n' Mice",
      'location:Kitchen',
      'language:english',
      'volume:1',
      'issue:3',
      'age_rating:Everyone',
      'source:https://example.com/a',
      'source:https://example.org/b',
    ])
  })

  it('tags the language by its English name, as LANraragi plugins do', async () => {
    const language = async (iso: string) => {
      const xml = `<ComicInfo><LanguageISO>${iso}</LanguageISO></ComicInfo>`
      const result = await run('comicinfo', { entries: { 'ComicInfo.xml': xml } })
      return tagsOf(result)
    }
    // ISO 639-1, 639-2 (bibliographic and terminology), 639-3; regions and scripts dropped.
    expect(await language('ja')).toEqual(['language:japanese'])
    expect(await language('jpn')).toEqual(['language:japanese'])
    expect(await language('fre')).toEqual(['language:french'])
    expect(await language('fra')).toEqual(['language:french'])
    expect(await language('zh-Hant')).toEqual(['language:chinese'])
    expect(await language(' pt_BR ')).toEqual(['language:portuguese'])
    expect(await language('cmn')).toEqual(['language:chinese'])
    // A name already, or a code the table lacks: as written, lower-cased.
    expect(await language('English')).toEqual(['language:english'])
    expect(await language('tlh')).toEqual(['language:tlh'])
  })

  it('tags writers as artists when asked', async () => {
    const result = await run('comicinfo', {
      entries: { 'ComicInfo.xml': COMIC_INFO },
      args: { writer_as_artist: true },
    })
    expect(tagsOf(result)).toContain('artist:Alice Writer')
    expect(tagsOf(result)).not.toContain('group:Alice Writer')
  })

  it('reads a lower-case file name, a byte-order mark and odd element case', async () => {
    const xml = '\uFEFF<comicinfo><series>S</series><TITLE>T</TITLE><Genre></Genre></comicinfo>'
    const result = await run('comicinfo', { entries: { 'comicinfo.xml': xml } })
    expect(result).toEqual({ tags: 'series:S', title: 'T' })
  })

  it('answers an error without ComicInfo.xml, or with another root element', async () => {
    expect(await run('comicinfo')).toEqual({ error: 'No ComicInfo.xml file found in archive' })
    const other = await run('comicinfo', {
      entries: { 'ComicInfo.xml': '<Other><Title>x</Title></Other>' },
    })
    expect(other.error).toContain('no ComicInfo element')
  })
})

describe('metadata/comicinfo on a real archive', () => {
  it('reads ComicInfo.xml out of a cbz through the archive reader', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tankobun-comicinfo-'))
    const reader = createArchiveReader({ tempDir: join(dir, 'tmp') })
    const withReader = createSandboxHost<PluginRunTag>({
      fetch: () => Promise.reject(new Error('unused')),
      entry: readPluginEntry(reader),
    })
    try {
      const archivePath = await fx.makeCbz(join(dir, 'a.cbz'), {
        entries: [{ name: 'ComicInfo.xml', data: new TextEncoder().encode(COMIC_INFO) }],
        compression: 'deflate',
      })
      const out = await withReader.run({
        source: await source('comicinfo'),
        entry: 'execMetadata',
        ctx: { archive: archive('a.cbz'), args: {}, oneshot: null },
        tag: { namespace: 'metadata/comicinfo', archivePath },
      })
      expect(out.result).toMatchObject({ title: 'Tom & Jerry – The "Chase"' })
      expect((out.result as { tags: string }).tags).toContain('series:Tom & Jerry')
    } finally {
      await withReader.close()
      await reader.close()
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('metadata/filename', () => {
  const cases: [filename: string, tags: string[], title: string][] = [
    [
      '(C97) [Circle Name (Artist Name)] Some Title (Touhou Project) [English].cbz',
      [
        'event:C97',
        'group:Circle Name',
        'artist:Artist Name',
        'series:Touhou Project',
        'language:english',
      ],
      'Some Title',
    ],
    ['[Artist] Title.zip', ['artist:Artist'], 'Title'],
    ['Just A Title.cbz', [], 'Just A Title'],
    [
      'library/2024/[Circle (A, B)] Title (Original) [Japanese] [Digital].zip',
      ['group:Circle', 'artist:A', 'artist:B', 'language:japanese'],
      'Title',
    ],
    [
      '(COMIC1☆15) [Studio X (Yamada)] Title - Part 2 (Fate Grand Order) [中国翻訳] [無修正].rar',
      [
        'event:COMIC1☆15',
        'group:Studio X',
        'artist:Yamada',
        'series:Fate Grand Order',
        'language:chinese',
      ],
      'Title - Part 2',
    ],
    [
      '[Artist] My Title (Vol. 2) (Kantai Collection -KanColle-) [English] {Scanlators}.cbz',
      ['artist:Artist', 'series:Kantai Collection -KanColle-', 'language:english'],
      'My Title (Vol. 2)',
    ],
    ['(Reitaisai 16) [Circle] Title.7z', ['event:Reitaisai 16', 'artist:Circle'], 'Title'],
    [
      '[Circle_(Artist)]_Under_Score_Title_[Korean].cbz',
      ['group:Circle', 'artist:Artist', 'language:korean'],
      'Under Score Title',
    ],
    ['Title [English] [2019].cbz', ['language:english'], 'Title'],
    [
      '[Artist] Title (Series A, Series B) [French].tar.gz',
      ['artist:Artist', 'series:Series A', 'series:Series B', 'language:french'],
      'Title',
    ],
    [
      '[Artist] Title [Part 1] more [Spanish].cbr',
      ['artist:Artist', 'language:spanish'],
      'Title [Part 1] more',
    ],
    ['Unclosed (bracket title.zip', [], 'Unclosed (bracket title'],
  ]

  it.each(cases)('parses %p', async (filename, tags, title) => {
    const result = await run('filename', { filename })
    expect(tagsOf(result)).toEqual(tags)
    expect(result.title).toBe(title)
  })

  it('leaves the title alone when save_title is off', async () => {
    const result = await run('filename', { filename: '[A] T.zip', args: { save_title: false } })
    expect(result).toEqual({ tags: 'artist:A' })
  })

  it('answers an error when there is no filename', async () => {
    const result = await run('filename', { filename: '' })
    expect(result.error).toContain('no filename')
  })
})

describe('plugin SDK', () => {
  it('type-checks every plugin file against plugins/sdk.d.ts', () => {
    const tsc = Bun.spawnSync([join(root, 'node_modules/.bin/tsc'), '--noEmit', '-p', 'plugins'], {
      cwd: root,
      stdout: 'pipe',
      stderr: 'pipe',
    })
    expect(tsc.stdout.toString() + tsc.stderr.toString()).toBe('')
    expect(tsc.exitCode).toBe(0)
  })
})
