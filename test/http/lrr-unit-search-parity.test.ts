// LANraragi parity for what its own unit tests pin down about the library as a whole, over HTTP:
// the search engine's Tankoubon rules (tests/search.t: grouped date sorts, hidecompleted and
// newonly with Tankoubons, last-read sorting) and the backup document (tests/backup.t), on the
// library of tests/mocks.pl. The filter syntax, flags and plain sorts of search.t are asserted by
// lrr-search-parity.test.ts already; this file keeps to what that one does not reach.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { normalizeTags } from '../../src/model/tags.ts'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { seedArchive, seedCategory, seedTankoubon } from '../helpers/seed.ts'

type MockArchive = {
  id: string
  title: string
  tags: string
  summary?: string
  pagecount?: number
  progress?: number
  lastreadtime?: number
  isnew?: boolean
}

// tests/mocks.pl. LANraragi's "...ebg" is no hex id, so the American manual ends in "eb0"; the
// Japanese manual's progress (10 of 2 pages there) is its last page: progress stays within the
// pages here.
const SATURN_JP = 'e69e43e1355267f7d32a4f9b7f2fe108d2401ebf'
const SATURN_US = 'e69e43e1355267f7d32a4f9b7f2fe108d2401eb0'
const ROHAN = 'e4c422fd10943dc169e3489a38cdbf57101a5f7e'
const GHOST = '4857fd2e7c00db8b0af0337b94055d8445118630'
const FGO_2 = '2810d5e0a8d027ecefebca6237031a0fa7b91eb3'
const FGO = '28697b96f0ac5858be2614ed10ca47742c9522fd'
const COMPUTER_ROOM = '28697b96f0ac5777be2614ed10ca47742c9522fa'
const EGYPT = '28697b96f0ac5858be2666ed10ca47742c955555'
const NGE = 'be447b58ea66137c415ee306ee2ac44b308ee484'
const MOCKS: MockArchive[] = [
  {
    id: SATURN_JP,
    title: 'Saturn Backup Cartridge - Japanese Manual',
    tags: 'character:segata sanshiro, male:very cool',
    pagecount: 2,
    progress: 2,
    lastreadtime: 1589038280,
  },
  {
    id: SATURN_US,
    title: 'Saturn Backup Cartridge - American Manual',
    tags: 'character:segata, female:very cool too',
    pagecount: 200,
    progress: 34,
    lastreadtime: 1589038281,
  },
  {
    id: ROHAN,
    title: 'Rohan Kishibe goes to Gucci',
    tags: "parody: jojo's bizarre adventure, date_added:1700000000",
    isnew: true,
  },
  {
    id: GHOST,
    title: 'Ghost in the Shell 1.5 - Human-Error Processor vol01ch01',
    tags: 'artist:shirow masamune, date_added:1620000000',
    pagecount: 34,
    progress: 34,
    lastreadtime: 1589038280,
  },
  {
    id: FGO_2,
    title: 'Fate GO MEMO 2',
    tags: 'parody:fate grand order,  character:ereshkigal,  character:waver velvet,  group:wadamemo,  artist:wada rco,  artbook,  full color',
    pagecount: 34,
    progress: 34,
    lastreadtime: 1589038280,
  },
  {
    id: FGO,
    title: 'Fate GO MEMO',
    tags: 'parody:fate grand order,  group:wadamemo,  artist:wada rco,  artbook,  full color, male:very cool too',
    pagecount: 1,
  },
  {
    id: COMPUTER_ROOM,
    title: 'Find the Computer Room',
    tags: 'year of shadow, character:vector the crocodile, date_added:1650000000',
    pagecount: 128,
  },
  {
    id: EGYPT,
    title: 'All about Egypt',
    tags: 'medjed, character:doubles guy, character:king of GETs, check this 5, date_added:1600000000',
    summary: 'CURSE OF RA',
    pagecount: 22,
    isnew: true,
  },
  {
    id: NGE,
    title: '使徒、襲来',
    tags: 'series:Neon Genesis Evangelion, artist:Yoshiyuki Sadamoto, chapter:1, character:Shinji Ikari, character:Misato Katsuragi, science fiction',
  },
  { id: 'd0be2dc421be4fcd0172e5afceea3970e2f3d940', title: 'Apple Archive', tags: 'fruit:apple' },
  { id: '250e77f12a5ab6972a0895d290c4792f0a326ea8', title: 'Banana Archive', tags: 'fruit:banana' },
  { id: '7e41c6480852a4a914e48c7a3a4084f193e963d9', title: 'Cherry Archive', tags: 'fruit:cherry' },
  {
    id: 'af8978b1797b72acfff9595a5a2a373ec3d9106d',
    title: 'Dragon Fruit Archive',
    tags: 'fruit:dragon',
  },
]

let app: TestServer
let cookie: string
/** TANK_1589141306 "Hello" (Egypt, Computer Room) and TANK_1589138380 "World" (Computer Room). */
let hello: string
let world: string
let segata: string
let america: string

/** Ids answered by /api/search/ids for these params (unpaged). */
async function ids(params: Record<string, string | boolean> = {}): Promise<string[]> {
  const query = new URLSearchParams({ start: '-1' })
  for (const [key, value] of Object.entries(params)) query.set(key, String(value))
  const { status, body } = await app.json(`/api/search/ids?${query}`, { cookie })
  expect(status).toBe(200)
  return body.data
}

beforeAll(async () => {
  app = await startTestServer()
  await app.idle()
  cookie = await app.login()
  for (const mock of MOCKS) seedArchive(app.deps, { isnew: false, pagecount: 10, ...mock })
  hello = seedTankoubon(app.deps, {
    name: 'Hello',
    summary: 'A test tankoubon',
    tags: 'series:hello world',
    members: [EGYPT, COMPUTER_ROOM],
  })
  world = seedTankoubon(app.deps, {
    name: 'World',
    tags: 'date_added:1000000000',
    members: [COMPUTER_ROOM],
  })
  segata = seedCategory(app.deps, { name: 'Segata Sanshiro', members: [SATURN_JP, SATURN_US] })
  america = seedCategory(app.deps, { name: 'AMERICA ONRY', search: 'American' })
})

afterAll(() => app[Symbol.asyncDispose]())

describe('Tankoubons in search (search.t)', () => {
  it('finds an archive of two Tankoubons as both when grouping, as itself when not', async () => {
    expect((await ids({ filter: 'vector' })).sort()).toEqual([hello, world].sort())
    expect(await ids({ filter: 'medjed' })).toEqual([hello])
    expect(await ids({ filter: 'vector', groupby_tanks: false })).toEqual([COMPUTER_ROOM])
  })

  it('sorts by date_added with a Tankoubon own tag first, else its newest member date', async () => {
    const keyed = [world, GHOST, hello, ROHAN]
    const asc = await ids({ sortby: 'date_added' })
    expect(asc.slice(0, 4)).toEqual(keyed)
    expect(asc).toHaveLength(13)
    expect((await ids({ sortby: 'date_added', order: 'desc' })).slice(0, 4)).toEqual(
      [...keyed].reverse(),
    )
    // Members in the other order: Hello still sorts by its newest member (1650000000), which is
    // the one date its hit shows, not by its last member's (Egypt, 1600000000).
    const reorder = await app.req(`/api/tankoubons/${hello}`, {
      method: 'PUT',
      cookie,
      json: { archives: [COMPUTER_ROOM, EGYPT] },
    })
    expect(reorder.status).toBe(200)
    expect((await ids({ sortby: 'date_added' })).slice(0, 4)).toEqual(keyed)
    const hit = (await app.json(`/api/search?filter=medjed`, { cookie })).body.data[0]
    expect(hit.tags).toContain('date_added:1650000000')
    expect(hit.tags).not.toContain('date_added:1600000000')
  })

  it('imputes a timestamp sort the same way', async () => {
    const stamp = (title: string, time: number) =>
      seedArchive(app.deps, { title, tags: `misc:stamp, timestamp:${time}`, isnew: false }).id
    const [a, b, c] = [stamp('Stamp A', 1800), stamp('Stamp B', 1600), stamp('Stamp C', 1700)]
    const tank = seedTankoubon(app.deps, { name: 'Stamps', members: [a, b] })
    expect(await ids({ filter: 'misc:stamp', sortby: 'timestamp' })).toEqual([c, tank])
    expect(await ids({ filter: 'misc:stamp', sortby: 'timestamp', order: 'desc' })).toEqual([
      tank,
      c,
    ])
  })

  it('keeps Tankoubons under hidecompleted, and only read, unfinished archives with lastread', async () => {
    const grouped = await ids({ hidecompleted: true })
    expect(grouped).toEqual(expect.arrayContaining([hello, world]))
    expect(grouped).not.toContain(SATURN_JP)
    expect(grouped).not.toContain(GHOST)
    expect(grouped).not.toContain(FGO_2)
    expect(await ids({ hidecompleted: true, sortby: 'lastread', groupby_tanks: false })).toEqual([
      SATURN_US,
    ])
  })

  it('keeps a Tankoubon with a new member under newonly, and drops one without', async () => {
    expect((await ids({ newonly: true })).sort()).toEqual([hello, ROHAN].sort())
    expect((await ids({ newonly: true, groupby_tanks: false })).sort()).toEqual(
      [EGYPT, ROHAN].sort(),
    )
  })

  it('lists by last read time, most recent first unless order=desc, a Tankoubon by its newest member', async () => {
    expect(await ids({ sortby: 'lastread', groupby_tanks: false })).toEqual([
      SATURN_US,
      FGO_2,
      GHOST,
      SATURN_JP,
    ])
    const read = await app.req(`/api/archives/${COMPUTER_ROOM}/progress/1`, {
      method: 'PUT',
      cookie,
    })
    expect(read.status).toBe(200)
    const recent = await ids({ sortby: 'lastread' })
    expect(recent).toHaveLength(6)
    expect(recent.slice(0, 2).sort()).toEqual([hello, world].sort())
    expect(recent).not.toContain(COMPUTER_ROOM)
    const oldest = await ids({ sortby: 'lastread', order: 'desc' })
    expect(oldest.slice(-2).sort()).toEqual([hello, world].sort())
  })
})

describe('GET /api/database/backup (backup.t)', () => {
  it('writes every archive, category and Tankoubon of the library as LANraragi does', async () => {
    const { status, body } = await app.json('/api/database/backup', { cookie })
    expect(status).toBe(200)
    const byId = (a: Wire, b: Wire, key: string) => (a[key] < b[key] ? -1 : 1)
    const mocks = new Set(MOCKS.map((m) => m.id))
    expect(
      body.archives
        .filter((a: Wire) => mocks.has(a.arcid))
        .sort((a: Wire, b: Wire) => byId(a, b, 'arcid')),
    ).toEqual(
      MOCKS.map((m) => ({
        arcid: m.id,
        title: m.title,
        tags: normalizeTags(m.tags),
        summary: m.summary ?? '',
        filename: m.title,
        thumbhash: null,
      })).sort((a, b) => byId(a, b, 'arcid')),
    )
    // Tankobun adds the category flags (docs/api.md, Database).
    expect(body.categories.sort((a: Wire, b: Wire) => byId(a, b, 'catid'))).toEqual(
      [
        {
          catid: segata,
          name: 'Segata Sanshiro',
          search: '',
          archives: [SATURN_JP, SATURN_US],
          pinned: false,
          visible_to_guest: false,
        },
        {
          catid: america,
          name: 'AMERICA ONRY',
          search: 'American',
          archives: [],
          pinned: false,
          visible_to_guest: false,
        },
      ].sort((a, b) => byId(a, b, 'catid')),
    )
    const tanks = body.tankoubons.filter((t: Wire) => t.tankid === hello || t.tankid === world)
    expect(tanks.sort((a: Wire, b: Wire) => byId(a, b, 'tankid'))).toEqual(
      [
        {
          tankid: hello,
          name: 'Hello',
          summary: 'A test tankoubon',
          tags: 'series:hello world',
          archives: [COMPUTER_ROOM, EGYPT],
        },
        {
          tankid: world,
          name: 'World',
          summary: '',
          tags: 'date_added:1000000000',
          archives: [COMPUTER_ROOM],
        },
      ].sort((a, b) => byId(a, b, 'tankid')),
    )
  })
})
