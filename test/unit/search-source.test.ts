// The search engine runs on any loader: built here from plain objects, no database. Also the
// Tankoubon aggregate rules of model/tankoubon-summary.ts, which the index and the hits share.
import { describe, expect, it } from 'bun:test'
import { summarizeTankoubon, tankoubonTags } from '../../src/model/tankoubon-summary.ts'
import { createSearchIndex } from '../../src/search/index.ts'
import { parseFilter } from '../../src/search/query.ts'
import type {
  IndexArchive,
  IndexQuery,
  IndexSource,
  IndexTankoubon,
  SearchIndex,
} from '../../src/search/types.ts'

const archive = (n: number, fields: Partial<IndexArchive> = {}): IndexArchive => ({
  id: String(n).repeat(40).slice(0, 40),
  title: `Book ${n}`,
  tags: '',
  isnew: false,
  progress: 0,
  pagecount: 10,
  lastreadtime: 0,
  ...fields,
})

/** A loader over two arrays the test edits; the index reads them only on build and refresh. */
function memorySource(archives: IndexArchive[], tanks: IndexTankoubon[]): IndexSource {
  return {
    listArchives: () => archives,
    listTankoubons: (ids) => (ids ? tanks.filter((t) => ids.includes(t.id)) : tanks),
  }
}

function search(index: SearchIndex, filter: string, options: Partial<IndexQuery> = {}) {
  return index
    .query({
      terms: parseFilter(filter),
      grouped: false,
      tanksOnly: false,
      allowedIds: null,
      scopeIds: null,
      newonly: false,
      untaggedonly: false,
      hidecompleted: false,
      sort: { by: 'title', namespace: 'title', desc: false },
      ...options,
    })
    .ids()
}

describe('search index over an injected source', () => {
  it('writes the ordered ids as JSON, escaping ids that need it', async () => {
    const query = (index: SearchIndex) =>
      index.query({
        terms: [],
        grouped: false,
        tanksOnly: false,
        allowedIds: null,
        scopeIds: null,
        newonly: false,
        untaggedonly: false,
        hidecompleted: false,
        sort: { by: 'title', namespace: 'title', desc: true },
      })
    const json = (index: SearchIndex) => JSON.parse(`[${Buffer.from(query(index).idsJson())}]`)
    const plain = createSearchIndex(memorySource([archive(1), archive(2), archive(3)], []))
    await plain.build()
    expect(json(plain)).toEqual([archive(3).id, archive(2).id, archive(1).id])
    const odd = archive(4, { id: 'quote " back \\ é' })
    const mixed = createSearchIndex(memorySource([archive(1), odd], []))
    await mixed.build()
    expect(json(mixed)).toEqual([odd.id, archive(1).id])
    mixed.removeArchive(odd.id)
    expect(json(mixed)).toEqual([archive(1).id])
    const empty = createSearchIndex(memorySource([], []))
    await empty.build()
    expect(json(empty)).toEqual([])
  })

  it('builds from the loader and re-reads a Tankoubon from it on refresh', async () => {
    const one = archive(1, { tags: 'artist:alpha', pagecount: 12, lastreadtime: 50 })
    const two = archive(2, { tags: 'artist:beta', pagecount: 8, isnew: true })
    const tank: IndexTankoubon = {
      id: 'TANK_1700000000000',
      name: 'Box',
      tags: 'series:box',
      progress: 30,
      lastreadtime: 10,
      members: [one.id, two.id],
    }
    const tanks = [tank]
    const index = createSearchIndex(memorySource([one, two], tanks))
    expect(index.ready).toBe(false)
    await index.build()
    expect(index.ready).toBe(true)
    expect(index.archiveCount()).toBe(2)
    expect(search(index, 'artist:alpha')).toEqual([one.id])
    // Grouped, the Tankoubon stands in for its members and matches on their tags.
    expect(search(index, 'artist:beta', { grouped: true })).toEqual([tank.id])
    expect(search(index, 'pages:20', { grouped: true })).toEqual([tank.id])
    expect(search(index, '', { grouped: true, newonly: true })).toEqual([tank.id])

    tanks[0] = { ...tank, name: 'Crate', members: [one.id] }
    expect(search(index, 'crate', { grouped: true })).toEqual([])
    index.refreshTankoubon(tank.id)
    expect(search(index, 'crate', { grouped: true })).toEqual([tank.id])
    expect(search(index, 'pages:12', { grouped: true })).toEqual([tank.id])
    expect(search(index, 'artist:beta', { grouped: true })).toEqual([two.id])

    tanks.length = 0
    index.refreshTankoubon(tank.id)
    expect(search(index, '', { grouped: true, tanksOnly: true })).toEqual([])
  })

  it('drops an archive upserted as unlinked', async () => {
    const one = archive(1)
    const index = createSearchIndex(memorySource([one], []))
    await index.build()
    index.upsertArchive({ ...one, unlinked: true })
    expect(index.archiveCount()).toBe(0)
  })
})

describe('Tankoubon summary', () => {
  it('sums pages, is new with any member, and takes the latest read of itself or a member', () => {
    const members = [
      { pagecount: 10, isnew: false, lastreadtime: 5 },
      { pagecount: 7, isnew: true, lastreadtime: 40 },
    ]
    expect(summarizeTankoubon({ progress: 3, lastreadtime: 20 }, members)).toEqual({
      pagecount: 17,
      isnew: true,
      progress: 3,
      lastreadtime: 40,
    })
    expect(summarizeTankoubon({ progress: 0, lastreadtime: 90 }, members).lastreadtime).toBe(90)
  })

  it('keeps progress within the pages that remain, and as stored when no member remains', () => {
    const members = [{ pagecount: 10, isnew: false, lastreadtime: 0 }]
    expect(summarizeTankoubon({ progress: 25, lastreadtime: 0 }, members).progress).toBe(10)
    expect(summarizeTankoubon({ progress: 25, lastreadtime: 0 }, [])).toEqual({
      pagecount: 0,
      isnew: false,
      progress: 25,
      lastreadtime: 0,
    })
  })

  it('lists own tags, then members, each once, with only the newest date_added', () => {
    expect(
      tankoubonTags('series:box, date_added:9', [
        'artist:a, date_added:100',
        'artist:a, date_added:20',
      ]),
    ).toBe('series:box, artist:a, date_added:100')
    expect(tankoubonTags('', ['artist:a', 'female:b'])).toBe('artist:a, female:b')
  })
})
