import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDb, type Db } from '../../src/db/client.ts'
import { updateArchive } from '../../src/db/repos/archives.repo.ts'
import { createIndexSource } from '../../src/domain/search/index-source.ts'
import { syncIndexWithEvents } from '../../src/domain/search/index-sync.ts'
import { createEventBus, type EventBus } from '../../src/events.ts'
import { createSearchIndex } from '../../src/search/index.ts'
import { parseFilter } from '../../src/search/query.ts'
import type { IndexQuery, SearchIndex } from '../../src/search/types.ts'
import { seedArchive, seedTankoubon } from '../helpers/seed.ts'

let root: string
let db: Db
let search: SearchIndex
/** Seeded rows reach the index through its subscriber, as the server's writes do. */
let events: EventBus

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'tankobun-search-'))
  db = openDb(join(root, 'db.sqlite'))
  search = createSearchIndex(createIndexSource(db))
  events = createEventBus()
  syncIndexWithEvents(events, search)
  await search.build()
})

afterAll(() => {
  db.$client.close()
  rmSync(root, { recursive: true, force: true })
})

/** A fresh library per test: the index is rebuilt over an emptied table. */
async function library(seeds: Parameters<typeof seedArchive>[1][]) {
  db.$client.exec('DELETE FROM tankoubons; DELETE FROM archives;')
  await search.build()
  return seeds.map((seed) => seedArchive({ db, events }, seed))
}

function baseQuery(filter: string): IndexQuery {
  return {
    terms: parseFilter(filter),
    grouped: false,
    tanksOnly: false,
    allowedIds: null,
    scopeIds: null,
    newonly: false,
    untaggedonly: false,
    hidecompleted: false,
    sort: { by: 'title', namespace: 'title', desc: false },
  }
}

/** The ids an unpaged answer's bytes hold, parsed as a client would. */
function unpaged(result: ReturnType<SearchIndex['query']>): string[] {
  const bytes = result.idsJson('{"data":[', '],"n":1}')
  return (JSON.parse(new TextDecoder().decode(bytes)) as { data: string[] }).data
}

function run(filter: string, options: Partial<IndexQuery> = {}) {
  const result = search.query({ ...baseQuery(filter), ...options })
  return { ids: result.ids(), total: result.total, count: result.count }
}

const titles = (filter: string, options: Partial<IndexQuery> = {}) => {
  const rows = db.$client
    .query<{ id: string; title: string }, []>('SELECT id, title FROM archives')
    .all()
  const byId = new Map(rows.map((r) => [r.id, r.title]))
  return run(filter, options).ids.map((id) => byId.get(id) ?? id)
}

describe('search index: term matching', () => {
  beforeAll(async () => {
    await library([
      {
        title: 'Ghost in the Shell',
        tags: 'artist:masamune shirow, parody:ghost in the shell, female:android',
      },
      { title: 'Appleseed', tags: 'artist:masamune shirow, language:english' },
      { title: 'Akira Vol. 2', tags: 'artist:katsuhiro otomo, language:english, date_added:100' },
      { title: 'Shell Collection', tags: 'artist:abcd, female:sole female' },
      { title: 'Touhou Fan Book', tags: 'parody:touhou project, language:japanese' },
      { title: 'Untitled', tags: '' },
    ])
  })

  it('matches a namespace prefix on the whole tag', () => {
    expect(titles('artist:masamune')).toEqual(['Appleseed', 'Ghost in the Shell'])
    expect(titles('artist:shirow')).toEqual([])
  })

  it('matches a plain term anywhere in tags or titles', () => {
    expect(titles('shell')).toEqual(['Ghost in the Shell', 'Shell Collection'])
    expect(titles('otomo')).toEqual(['Akira Vol. 2'])
    expect(titles('english')).toEqual(['Akira Vol. 2', 'Appleseed'])
  })

  it('ANDs terms and excludes with -', () => {
    expect(titles('artist:masamune, -language:english')).toEqual(['Ghost in the Shell'])
    expect(titles('language:, -english, -untitled')).toEqual(['Touhou Fan Book'])
  })

  it('matches exact tags with $ and exact titles with quotes', () => {
    expect(titles('female:sole$')).toEqual([])
    expect(titles('female:sole female$')).toEqual(['Shell Collection'])
    expect(titles('touhou project$')).toEqual(['Touhou Fan Book'])
    expect(titles('"ghost in the shell"')).toEqual(['Ghost in the Shell'])
    expect(titles('"shell"')).toEqual([])
    expect(titles('-female:sole female$')).toHaveLength(5)
  })

  it('expands wildcards against tags and titles', () => {
    expect(titles('artist:a?cd')).toEqual(['Shell Collection'])
    expect(titles('artist:*otomo')).toEqual(['Akira Vol. 2'])
    expect(titles('akira%2')).toEqual(['Akira Vol. 2'])
    expect(titles('"touhou*book"')).toEqual(['Touhou Fan Book'])
  })

  it('matches a namespaced term inside a title that holds a colon, and forgets it after a rename', async () => {
    const [zero] = await library([
      { title: 'Re:Zero Book', tags: 'artist:tappei' },
      { title: 'Plain' },
    ])
    expect(run('re:zero').ids).toEqual([zero!.id])
    search.upsertArchive(updateArchive(db, zero!.id, { title: 'Rezero Book' })!)
    expect(run('re:zero').ids).toEqual([])
    expect(run('rezero').ids).toEqual([zero!.id])
  })

  it('filters on pages and progress', async () => {
    const [small, big] = await library([
      { title: 'Small', pagecount: 5, progress: 5 },
      { title: 'Big', pagecount: 50, progress: 0 },
    ])
    expect(run('pages:>10').ids).toEqual([big!.id])
    expect(run('pages:<=5').ids).toEqual([small!.id])
    expect(run('pages:5').ids).toEqual([small!.id])
    expect(run('read:>0').ids).toEqual([small!.id])
    expect(run('-read:0').ids).toEqual([small!.id])
    expect(run('', { hidecompleted: true }).ids).toEqual([big!.id])
  })
})

describe('search index: incremental writes', () => {
  it('sees a tag edit, a new archive and a removal at once', async () => {
    const [a] = await library([{ title: 'Alpha', tags: 'artist:one' }])
    expect(run('artist:two').ids).toEqual([])
    const edited = updateArchive(db, a!.id, { tags: 'artist:two', title: 'Zeta' })!
    search.upsertArchive(edited)
    expect(run('artist:two').ids).toEqual([a!.id])
    expect(run('artist:one').ids).toEqual([])
    expect(run('zeta').ids).toEqual([a!.id])
    const b = seedArchive({ db, events }, { title: 'Beta', tags: 'artist:two' })
    expect(run('artist:two').ids).toEqual([b.id, a!.id])
    search.removeArchive(a!.id)
    expect(run('artist:two').ids).toEqual([b.id])
  })

  it('keeps tags an edit kept, reordered, in their posting lists exactly once', async () => {
    const [a] = await library([{ title: 'Alpha', tags: 'artist:one, language:x, series:s' }])
    let row = updateArchive(db, a!.id, { tags: 'series:s, language:x, artist:two' })!
    search.upsertArchive(row)
    expect(run('language:x').ids).toEqual([a!.id])
    expect(run('artist:one').ids).toEqual([])
    row = updateArchive(db, a!.id, { tags: 'artist:two' })!
    search.upsertArchive(row)
    // A posting added twice would survive one removal and still find the archive.
    expect(run('language:x').ids).toEqual([])
    expect(run('series:s').ids).toEqual([])
    expect(run('artist:two').ids).toEqual([a!.id])
  })

  it('drops an unlinked archive', async () => {
    const [a] = await library([{ title: 'Alpha' }])
    search.upsertArchive({ ...a!, unlinked: true })
    expect(run('').ids).toEqual([])
  })
})

describe('search index: sorting', () => {
  it('sorts titles naturally and namespaces by value, lacking ones last both ways', async () => {
    await library([
      { title: 'Vol 10', tags: 'date_added:300, series:b' },
      { title: 'Vol 2', tags: 'date_added:1000, series:a' },
      { title: 'vol 1', tags: 'date_added:20' },
      { title: 'No Date A', tags: '' },
      { title: 'No Date B', tags: 'series:a' },
    ])
    expect(titles('')).toEqual(['No Date A', 'No Date B', 'vol 1', 'Vol 2', 'Vol 10'])
    const dated = { sort: { by: 'namespace' as const, namespace: 'date_added', desc: false } }
    expect(titles('', dated)).toEqual(['vol 1', 'Vol 10', 'Vol 2', 'No Date A', 'No Date B'])
    const datedDesc = { sort: { ...dated.sort, desc: true } }
    expect(titles('', datedDesc)).toEqual(['Vol 2', 'Vol 10', 'vol 1', 'No Date A', 'No Date B'])
    // Ties (series:a twice) stay in title order in both directions.
    const series = { sort: { by: 'namespace' as const, namespace: 'series', desc: true } }
    expect(titles('', series)).toEqual(['Vol 10', 'No Date B', 'Vol 2', 'No Date A', 'vol 1'])
  })

  it('keeps namespace keys current after an edit', async () => {
    const [a, b] = await library([
      { title: 'A', tags: 'artist:zed' },
      { title: 'B', tags: 'artist:amy' },
    ])
    const sort = { sort: { by: 'namespace' as const, namespace: 'artist', desc: false } }
    expect(run('', sort).ids).toEqual([b!.id, a!.id])
    search.upsertArchive(updateArchive(db, a!.id, { tags: 'artist:aaron' })!)
    expect(run('', sort).ids).toEqual([a!.id, b!.id])
  })

  it('answers after many writes as an index built afresh from the same rows', async () => {
    // Kept namespace orders, title order, posting lists and the shared tag-id array are all
    // updated in place on writes; a fresh build computes them from scratch.
    let seed = 7
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed % n
    }
    const tagsOf = () =>
      [
        random(4) ? `artist:${['amy', 'bo', 'cy', 'dee', 'ed'][random(5)]}` : '',
        random(3) ? `date_added:${random(40) * 25}` : '',
        random(2) ? `series:s${random(6)}` : '',
        ...Array.from({ length: random(6) }, () => `misc:m${random(12)}`),
      ]
        .filter(Boolean)
        .join(', ')
    const rows = await library(
      Array.from({ length: 60 }, (_, i) => ({ title: `T${random(30)} ${i}`, tags: tagsOf() })),
    )
    const sorts: IndexQuery['sort'][] = [
      { by: 'title', namespace: 'title', desc: false },
      { by: 'title', namespace: 'title', desc: true },
      { by: 'namespace', namespace: 'artist', desc: false },
      { by: 'namespace', namespace: 'date_added', desc: true },
      { by: 'namespace', namespace: 'series', desc: true },
      { by: 'namespace', namespace: 'series', desc: false },
    ]
    const filters = ['', 'misc:m1', 'misc:m2, -artist:amy', 't1', 'series:s']
    const answers = (index: SearchIndex) =>
      sorts.flatMap((sort) =>
        filters.map((filter) => {
          const result = index.query({ ...baseQuery(filter), sort })
          // The unpaged answer is copied from a column kept per slot (slots are reused).
          expect(unpaged(result)).toEqual(result.ids())
          return result.ids()
        }),
      )
    // Every order is asked once first, so the kept orders exist before the writes.
    answers(search)
    const live = [...rows]
    for (let step = 0; step < 120; step++) {
      const pick = random(live.length)
      const row = live[pick]!
      const action = random(5)
      if (action === 0) {
        search.upsertArchive(updateArchive(db, row.id, { title: `T${random(30)} edit ${step}` })!)
      } else if (action === 1 && live.length > 20) {
        search.upsertArchive({ ...row, unlinked: true })
        db.$client.query('DELETE FROM archives WHERE id = ?').run(row.id)
        live.splice(pick, 1)
      } else if (action === 2) {
        live.push(seedArchive({ db, events }, { title: `T${random(30)} new`, tags: tagsOf() }))
      } else {
        const tags = action === 3 ? tagsOf() : `artist:new${step}, date_added:${step}`
        search.upsertArchive(updateArchive(db, row.id, { tags })!)
      }
      if (step % 10 !== 9) continue
      const fresh = createSearchIndex(createIndexSource(db))
      await fresh.build()
      expect(answers(search)).toEqual(answers(fresh))
    }
  })

  it('orders by title alike whether results are merged, walked or read in slot order', async () => {
    // After a build slot order is title order; documents written since are merged in by
    // comparison (a few) or the whole title order is walked (past 256 of them in a result).
    const titles = (n: number, from: number) =>
      Array.from({ length: n }, (_, i) => ({
        title: `Vol ${(i * 7919 + from) % 997} ${i % 3 ? 'x' : 'y'}`,
        tags: i % 2 ? 'misc:odd' : 'misc:even',
      }))
    const rows = await library(titles(40, 1))
    await search.build()
    const added = titles(300, 5).map((seed) => seedArchive({ db, events }, seed))
    search.upsertArchive(updateArchive(db, rows[3]!.id, { title: 'Vol 500 moved' })!)
    const fresh = createSearchIndex(createIndexSource(db))
    await fresh.build()
    for (const filter of ['', 'misc:odd', 'y', 'vol 50'])
      for (const desc of [false, true]) {
        const sort = { by: 'title' as const, namespace: 'title', desc }
        const here = search.query({ ...baseQuery(filter), sort })
        const there = fresh.query({ ...baseQuery(filter), sort })
        expect(here.ids()).toEqual(there.ids())
        expect(unpaged(here)).toEqual(there.ids())
      }
    expect(search.query(baseQuery('')).count).toBe(rows.length + added.length)
  })

  it('sorts by last read, most recent first, dropping never-read archives', async () => {
    const [a, b] = await library([
      { title: 'A', lastreadtime: 100 },
      { title: 'B', lastreadtime: 200 },
      { title: 'C', lastreadtime: 0 },
    ])
    const sort = { by: 'lastread' as const, namespace: 'lastread', desc: false }
    expect(run('', { sort }).ids).toEqual([b!.id, a!.id])
    expect(run('', { sort: { ...sort, desc: true } }).ids).toEqual([a!.id, b!.id])
  })
})

describe('search index: Tankoubons', () => {
  it("replaces members when grouping and matches on members' tags", async () => {
    const [one, two, loose] = await library([
      { title: 'Chapter 1', tags: 'artist:kim', pagecount: 10 },
      { title: 'Chapter 2', tags: 'artist:lee', pagecount: 20 },
      { title: 'Loose', tags: 'artist:kim' },
    ])
    const members = [one!.id, two!.id]
    const tank = seedTankoubon({ db, events }, { name: 'Collected', tags: 'series:saga', members })
    expect(run('', { grouped: true }).ids).toEqual([tank, loose!.id])
    expect(run('', { grouped: true }).total).toBe(2)
    expect(run('', { grouped: false }).total).toBe(3)
    expect(run('artist:lee', { grouped: true }).ids).toEqual([tank])
    expect(run('series:saga', { grouped: true }).ids).toEqual([tank])
    expect(run('collected', { grouped: true }).ids).toEqual([tank])
    expect(run('artist:kim', { grouped: false }).ids).toEqual([one!.id, loose!.id])
    expect(run('pages:30', { grouped: true }).ids).toEqual([tank])
    expect(run('', { tanksOnly: true }).ids).toEqual([tank])
    search.upsertArchive(updateArchive(db, two!.id, { tags: 'artist:park' })!)
    expect(run('artist:lee', { grouped: true }).ids).toEqual([])
    expect(run('artist:park', { grouped: true }).ids).toEqual([tank])
    search.removeTankoubon(tank)
    expect(run('', { grouped: true }).ids).toEqual([one!.id, two!.id, loose!.id])
  })

  it('follows membership changes written to the database', async () => {
    const [one, two] = await library([
      { title: 'One', tags: 'artist:a' },
      { title: 'Two', tags: 'artist:b' },
    ])
    const tank = seedTankoubon({ db, events }, { name: 'T', members: [one!.id, two!.id] })
    expect(run('artist:b', { grouped: true }).ids).toEqual([tank])
    db.$client.run('DELETE FROM tankoubon_members WHERE archive_id = ?', [two!.id])
    search.refreshTankoubon(tank)
    expect(run('artist:b', { grouped: true }).ids).toEqual([two!.id])
    expect(run('', { grouped: true }).ids).toEqual([tank, two!.id])
    db.$client.run('DELETE FROM tankoubons WHERE id = ?', [tank])
    search.refreshTankoubon(tank)
    expect(run('', { grouped: true }).ids).toEqual([one!.id, two!.id])
  })

  it('lifts static category members to their Tankoubon when grouping', async () => {
    const [one, two] = await library([{ title: 'One' }, { title: 'Two' }])
    const tank = seedTankoubon({ db, events }, { name: 'T', members: [one!.id] })
    expect(run('', { grouped: true, allowedIds: [one!.id] }).ids).toEqual([tank])
    expect(run('', { grouped: false, allowedIds: [tank] }).ids).toEqual([one!.id])
    expect(run('', { grouped: true, allowedIds: [two!.id] }).ids).toEqual([two!.id])
  })
})

describe('search index: statistics and untagged', () => {
  it('counts each archive once per tag and lists untagged archives', async () => {
    const [a, b, c] = await library([
      { title: 'A', tags: 'artist:x, female:y' },
      { title: 'B', tags: 'artist:x, language:english' },
      { title: 'C', tags: 'Plain' },
    ])
    const stats = search.tagStats(null)
    expect(stats).toContainEqual({ namespace: 'artist', text: 'x', weight: 2 })
    expect(stats).toContainEqual({ namespace: '', text: 'plain', weight: 1 })
    expect(search.untaggedIds(null)).toEqual([b!.id])
    expect(search.untaggedIds(new Set([a!.id, c!.id]))).toEqual([])
    expect(run('', { untaggedonly: true }).ids).toEqual([b!.id])
  })
})

describe('search index: unpaged answers', () => {
  it('writes archive and Tankoubon ids in order, and none for an empty result', async () => {
    const [one, two, loose] = await library([
      { title: 'Chapter 1' },
      { title: 'Chapter 2' },
      { title: 'Loose' },
    ])
    const tank = seedTankoubon({ db, events }, { name: 'A saga', members: [one!.id, two!.id] })
    const grouped = search.query({ ...baseQuery(''), grouped: true })
    expect(unpaged(grouped)).toEqual([tank, loose!.id])
    const bytes = new TextDecoder().decode(grouped.idsJson('[', ']'))
    expect(bytes.startsWith('[  "')).toBe(true)
    expect(bytes.endsWith(`"${loose!.id}"]`)).toBe(true)
    expect(unpaged(search.query(baseQuery('no such thing')))).toEqual([])
  })

  it('escapes ids the fixed-width column cannot hold, and copies again once they are gone', async () => {
    const [plain] = await library([{ title: 'B plain' }])
    const odd = { ...plain!, id: 'quote"and\\slash', title: 'A odd' }
    const long = { ...plain!, id: 'x'.repeat(64), title: 'C long' }
    search.upsertArchive(odd)
    search.upsertArchive(long)
    expect(unpaged(search.query(baseQuery('')))).toEqual([odd.id, plain!.id, long.id])
    search.removeArchive(odd.id)
    expect(unpaged(search.query(baseQuery('')))).toEqual([plain!.id, long.id])
    await library([{ title: 'D', id: 'f'.repeat(40) }])
    const bytes = new TextDecoder().decode(search.query(baseQuery('')).idsJson('[', ']'))
    expect(bytes).toBe(`[  "${'f'.repeat(40)}"]`)
  })
})
