// The search engine behind SearchIndex: built once from the database, then kept current by the
// catalog's writes (upsertArchive/removeArchive) and the Tankoubon writes, never rebuilt per
// request. Results of equal searches are cached until the next write or clearCache().
import type { Db } from '../db/client.ts'
import type { SettingsStore } from '../domain/settings.ts'
import type { ArchiveRow } from '../db/repos/archives.repo.ts'
import {
  findTankoubonRecords,
  listIndexArchives,
  listTankoubonRecords,
  type IndexArchiveRow,
} from '../db/repos/search.repo.ts'
import { splitTags } from '../domain/archives/tags.ts'
import { applyTerms, createMarks, ensureCapacity, inUniverse, startingSet } from './evaluate.ts'
import { foldCase, type Term } from './query.ts'
import { createSortKeys } from './sort.ts'
import { ARCHIVE, TANK, createStore, type DocInput } from './store.ts'
import { createTanks } from './tanks.ts'
import type { IndexQuery, IndexResult, SearchIndex, TagStat } from './types.ts'
import { createVocabulary } from './vocabulary.ts'

/** Cached results kept at most (each is an id array, up to the library's size). */
const CACHE_ENTRIES = 64

function archiveDoc(row: IndexArchiveRow): DocInput {
  return {
    id: row.id,
    kind: ARCHIVE,
    title: row.title,
    tags: splitTags(row.tags).map(foldCase),
    pagecount: row.pagecount,
    progress: row.progress,
    lastread: row.lastreadtime,
    isnew: row.isnew,
  }
}

function createState() {
  const vocab = createVocabulary()
  const store = createStore(vocab)
  const tanks = createTanks(store, vocab)
  const sortKeys = createSortKeys(store, vocab)
  store.listen((slot) => sortKeys.update(slot))
  return { vocab, store, tanks, sortKeys, marks: createMarks() }
}

/** The index of each open database, for callers that hold only the db (collections' scope). */
const indexOfDb = new WeakMap<Db, SearchIndex>()

export function searchIndexOf(db: Db): SearchIndex | undefined {
  return indexOfDb.get(db)
}

export function createSearchIndex(db: Db, _settings: SettingsStore): SearchIndex {
  let state = createState()
  let ready = false
  let epoch = 0
  const cache = new Map<string, IndexResult>()
  let cacheVersion = -1
  const scopeMarks = new WeakMap<ReadonlySet<string>, { version: number; marks: Uint8Array }>()

  const current = () => {
    state.tanks.flush()
    return state.store.version + epoch
  }

  const slotMarks = (ids: Iterable<string>, lift: boolean, grouped: boolean) => {
    const { store, tanks } = state
    const marks = new Uint8Array(store.capacity)
    const markId = (id: string) => {
      const slot = store.slotOf.get(id)
      if (slot !== undefined) marks[slot] = 1
    }
    for (const id of ids) {
      markId(id)
      if (!lift) continue
      // A static category follows the view: a member archive brings its Tankoubon when
      // grouping, a member Tankoubon brings its archives when not.
      if (tanks.has(id)) {
        if (!grouped) for (const member of tanks.members(id)) markId(member)
      } else if (grouped) {
        for (const tank of tanks.tanksOf(id) ?? []) markId(tank)
      }
    }
    return marks
  }

  const scopeFor = (scopeIds: ReadonlySet<string>, version: number) => {
    const known = scopeMarks.get(scopeIds)
    if (known && known.version === version && known.marks.length >= state.store.capacity) return known.marks
    const marks = slotMarks(scopeIds, false, false)
    scopeMarks.set(scopeIds, { version, marks })
    return marks
  }

  const index: SearchIndex = {
    get ready() {
      return ready
    },
    get version() {
      return current()
    },

    async build() {
      const next = createState()
      next.vocab.unseal()
      for (const row of listIndexArchives(db)) next.store.put(archiveDoc(row), true)
      for (const record of listTankoubonRecords(db)) next.tanks.set(record, true)
      next.tanks.flush(true)
      next.vocab.seal()
      next.store.sortTitles()
      epoch += state.store.version + 1
      state = next
      cache.clear()
      ready = true
    },

    upsertArchive(row: ArchiveRow) {
      if (row.unlinked) return index.removeArchive(row.id)
      state.store.put(archiveDoc(row))
      state.tanks.archiveChanged(row.id)
    },

    removeArchive(id: string) {
      state.store.remove(id)
      state.tanks.archiveChanged(id)
    },

    refreshTankoubon(id: string) {
      const [record] = findTankoubonRecords(db, [id])
      if (record) state.tanks.set(record)
      else state.tanks.delete(id)
    },

    removeTankoubon(id: string) {
      state.tanks.delete(id)
    },

    clearCache() {
      epoch++
      cache.clear()
    },

    query(q: IndexQuery, cacheKey?: string): IndexResult {
      const version = current()
      if (cacheVersion !== version) {
        cache.clear()
        cacheVersion = version
      }
      const cached = cacheKey === undefined ? undefined : cache.get(cacheKey)
      if (cached) return cached
      const { store, vocab, marks, sortKeys } = state
      ensureCapacity(marks, store.capacity)
      const grouped = q.grouped || q.tanksOnly
      const scope = q.scopeIds ? scopeFor(q.scopeIds, version) : null
      const start = startingSet(store, {
        grouped,
        tanksOnly: q.tanksOnly,
        allowed: q.allowedIds ? slotMarks(q.allowedIds, true, grouped) : null,
        scope,
        newonly: q.newonly,
        untaggedonly: q.untaggedonly,
        hidecompleted: q.hidecompleted,
      })
      const slots = applyTerms(store, vocab, marks, q.terms, start, q.titlesOnly)
      const mark = marks.next()
      for (const slot of slots) marks.array[slot] = mark
      const ordered = sortKeys.order(q.sort, marks.array, mark, slots.length)
      let total = 0
      for (let slot = 0; slot < store.capacity; slot++)
        if (inUniverse(store, slot, grouped, q.tanksOnly) && (!scope || scope[slot])) total++
      const result = { ids: ordered.map((slot) => store.ids[slot]!), total }
      if (cacheKey !== undefined) {
        if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value!)
        cache.set(cacheKey, result)
      }
      return result
    },

    matchIds(terms: Term[]): string[] {
      current()
      const { store, vocab, marks } = state
      ensureCapacity(marks, store.capacity)
      const all: number[] = []
      for (let slot = 0; slot < store.capacity; slot++) if (store.alive[slot]) all.push(slot)
      return applyTerms(store, vocab, marks, terms, all).map((slot) => store.ids[slot]!)
    },

    membersOf: (tankId: string) => state.tanks.members(tankId),

    untaggedIds(scopeIds) {
      const version = current()
      const { store } = state
      const scope = scopeIds ? scopeFor(scopeIds, version) : null
      return store.byTitle
        .filter((slot) => store.kind[slot] === ARCHIVE && store.untagged[slot] && (!scope || scope[slot]))
        .map((slot) => store.ids[slot]!)
    },

    tagStats(scopeIds) {
      const version = current()
      const { store, vocab, tanks } = state
      const scope = scopeIds ? scopeFor(scopeIds, version) : null
      const weights = new Int32Array(vocab.size)
      for (let slot = 0; slot < store.capacity; slot++) {
        if (!store.alive[slot] || (scope && !scope[slot])) continue
        if (store.kind[slot] === ARCHIVE) for (const tag of store.tagIds[slot]!) weights[tag]!++
        else if (store.kind[slot] === TANK)
          for (const text of new Set(tanks.ownTags(store.ids[slot]!))) {
            const tag = vocab.idOf(text)
            if (tag !== undefined) weights[tag]!++
          }
      }
      const stats: TagStat[] = []
      weights.forEach((weight, tag) => {
        if (weight > 0) stats.push({ namespace: vocab.namespace(tag), text: vocab.value(tag), weight })
      })
      return stats
    },
  }
  indexOfDb.set(db, index)
  return index
}
