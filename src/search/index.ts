// The search engine behind SearchIndex: built once from its source (the database, through a
// loader the server hands in), then kept current by the catalog's writes
// (upsertArchive/removeArchive) and the Tankoubon writes, never rebuilt per request. Results of
// equal searches are cached until the next write or clearCache().
import {
  applyTerms,
  createMarks,
  ensureCapacity,
  scopedUniverseOf,
  startingSet,
  universeOf,
  type Slots,
} from './evaluate.ts'
import { collectAfterPass } from '../model/large-pass.ts'
import type { Term } from './query.ts'
import { createResultCache } from './result-cache.ts'
import { createSortKeys } from './sort.ts'
import { ARCHIVE, TANK, createStore, type DocInput, type Store } from './store.ts'
import { createTanks } from './tanks.ts'
import type {
  IndexArchive,
  IndexQuery,
  IndexResult,
  IndexSource,
  SearchIndex,
  TagStat,
} from './types.ts'
import { createTagSuggester, type TagSuggester } from './tag-suggest.ts'
import { createVocabulary, type Vocabulary } from './vocabulary.ts'

/**
 * Cached results kept at most, and the bytes their ordered slots may hold together (4 MB for a
 * whole library of a million archives, so 48 of those, not 64).
 */
const CACHE_LIMITS = { entries: 64, bytes: 192 * 2 ** 20 }

/** A guest scope as slot marks, and the library views it gives (by `grouped:tanksOnly`). */
type ScopeEntry = { version: number; marks: Uint8Array; views: Map<string, Slots> }

function archiveDoc(row: IndexArchive): DocInput {
  return {
    id: row.id,
    kind: ARCHIVE,
    title: row.title,
    tags: row.tags,
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
  const sortKeys = createSortKeys(store, vocab, (slot) => tanks.ownTagIds(store.idAt(slot)))
  store.listen((slot, titleMoved) => sortKeys.update(slot, titleMoved))
  return { vocab, store, tanks, sortKeys, marks: createMarks() }
}

/**
 * `head`, the ids of `ordered` as the inside of a JSON array ("a","b"), then `tail`: copied from
 * the store's fixed-width id column when every id fits it, else written into one buffer id by
 * id (an unpaged answer can hold 500,000 ids; an array of their strings, joined and encoded, cost
 * three passes over ~20 MB).
 */
function idsJsonOf(store: Store, ordered: Int32Array, head: string, tail: string): Uint8Array {
  const copied = store.idsJson(ordered, head, tail)
  if (copied) return copied
  if (!store.plainIds) {
    const ids = Array.from(ordered, (slot) => store.idAt(slot))
    return Buffer.from(head + JSON.stringify(ids).slice(1, -1) + tail)
  }
  // Room for the longest id everywhere: one pass fewer than measuring each, and a view at the end.
  const room = head.length + ordered.length * (store.longestId + 3) + tail.length
  // latin1Write (Node's and Bun's, untyped) copies a string's bytes: ~2.5x Buffer#write's speed.
  const out = Buffer.allocUnsafe(room) as Buffer & LatinWriter
  let at = out.latin1Write(head, 0)
  for (let i = 0; i < ordered.length; i++) {
    if (i > 0) out[at++] = COMMA
    out[at++] = QUOTE
    at += out.latin1Write(store.idAt(ordered[i]!), at)
    out[at++] = QUOTE
  }
  at += out.latin1Write(tail, at)
  return out.subarray(0, at)
}

type LatinWriter = { latin1Write(text: string, offset: number): number }
const QUOTE = 34
const COMMA = 44

export function createSearchIndex(source: IndexSource): SearchIndex {
  let state = createState()
  let ready = false
  let epoch = 0
  const cache = createResultCache<IndexResult>(CACHE_LIMITS)
  let cacheVersion = -1
  /** When results last could change (ms): /api/info's cache_last_cleared; 0 before any. */
  let changedAt = 0
  const scopes = new WeakMap<ReadonlySet<string>, ScopeEntry>()
  /** The library views (grouped, flat, Tankoubons only): index structure, kept per version. */
  const universes = new Map<string, { version: number; slots: Slots }>()

  const universe = (grouped: boolean, tanksOnly: boolean) => {
    const key = `${grouped}:${tanksOnly}`
    const version = state.store.version
    const known = universes.get(key)
    if (known && known.version === version) return known.slots
    const slots = universeOf(state.store, grouped, tanksOnly)
    universes.set(key, { version, slots })
    return slots
  }

  const current = () => {
    state.tanks.flush()
    return state.store.version + epoch
  }

  const touch = () => {
    changedAt = Date.now()
  }

  const slotMarks = (ids: Iterable<string>, lift: boolean, grouped: boolean) => {
    const { store, tanks } = state
    const marks = new Uint8Array(store.capacity)
    const markId = (id: string) => {
      const slot = store.find(id)
      if (slot !== undefined) marks[slot] = 1
    }
    for (const id of ids) {
      markId(id)
      if (!lift) continue
      // A static category follows the view: a member archive brings its Tankoubon when
      // grouping, a member Tankoubon brings its archives (shown on their own when not grouping,
      // or when a guest may not see the Tankoubon; otherwise they are not in the view anyway).
      if (tanks.has(id)) {
        for (const member of tanks.members(id)) markId(member)
      } else if (grouped) {
        for (const tank of tanks.tanksOf(id) ?? []) markId(tank)
      }
    }
    return marks
  }

  /** Slot marks of a guest scope, kept while the scope set and the version stay the same. */
  const scopeOf = (scopeIds: ReadonlySet<string>, version: number): ScopeEntry => {
    const known = scopes.get(scopeIds)
    const fits = known && known.version === version && known.marks.length >= state.store.capacity
    if (fits) return known
    const entry = { version, marks: slotMarks(scopeIds, false, false), views: new Map() }
    scopes.set(scopeIds, entry)
    return entry
  }
  const scopeSlots = (scopeIds: ReadonlySet<string>, version: number) =>
    scopeOf(scopeIds, version).marks

  /** The library view as a scoped caller sees it, kept with the scope's marks. */
  const view = (scope: ScopeEntry | null, grouped: boolean, tanksOnly: boolean): Slots => {
    if (!scope) return universe(grouped, tanksOnly)
    const key = `${grouped}:${tanksOnly}`
    const known = scope.views.get(key)
    if (known) return known
    const { store, tanks } = state
    const marks = scope.marks
    // A visible Tankoubon (with live members) stands in for the archive; a hidden one does not.
    const foldedInScope = (slot: number) => {
      for (const tank of tanks.tanksOf(store.idAt(slot)) ?? []) {
        const tankSlot = store.find(tank)
        if (tankSlot !== undefined && marks[tankSlot] && store.groupCount[tankSlot]! > 0)
          return true
      }
      return false
    }
    const slots = scopedUniverseOf(store, marks, grouped, tanksOnly, foldedInScope)
    scope.views.set(key, slots)
    return slots
  }

  /**
   * How many archives carry each tag (Tankoubons count once per own tag), by vocabulary id, as
   * the caller's scope sees them; kept per version, for the library and for each guest scope.
   */
  const tagWeights = (scopeIds: ReadonlySet<string> | null): Int32Array => {
    const version = current()
    const known = scopeIds ? scopedWeights.get(scopeIds) : libraryWeights
    if (known && known.version === version) return known.weights
    const { store, vocab, tanks } = state
    const scope = scopeIds ? scopeSlots(scopeIds, version) : null
    const weights = new Int32Array(vocab.size)
    for (let slot = 0; slot < store.capacity; slot++) {
      if (!store.alive[slot] || (scope && !scope[slot])) continue
      if (store.kind[slot] === ARCHIVE) {
        const start = store.tagStart[slot]!
        const end = start + store.tagCount[slot]!
        for (let k = start; k < end; k++) weights[store.tagData[k]!]!++
      } else if (store.kind[slot] === TANK)
        for (const text of new Set(tanks.ownTags(store.idAt(slot)))) {
          const tag = vocab.idOf(text)
          if (tag !== undefined) weights[tag]!++
        }
    }
    const entry = { version, weights }
    if (scopeIds) scopedWeights.set(scopeIds, entry)
    else libraryWeights = entry
    return weights
  }
  let libraryWeights: { version: number; weights: Int32Array } | null = null
  const scopedWeights = new WeakMap<ReadonlySet<string>, { version: number; weights: Int32Array }>()
  /** The tag suggestion index of the current vocabulary, built on the first lookup. */
  let suggester: { vocab: Vocabulary; tags: TagSuggester } | null = null

  const index: SearchIndex = {
    get ready() {
      return ready
    },
    get version() {
      return current()
    },
    get changedAt() {
      return changedAt
    },

    async build() {
      const next = createState()
      next.vocab.unseal()
      for (const row of source.listArchives()) next.store.put(archiveDoc(row), true)
      for (const record of source.listTankoubons()) next.tanks.set(record, true)
      next.tanks.flush(true)
      // The rows read and their folded tag strings, before the sorts add their own garbage.
      collectAfterPass(next.store.capacity)
      next.vocab.seal()
      next.store.sortTitles()
      epoch += state.store.version + 1
      state = next
      cache.clear()
      universes.clear()
      // The rows, folded tag strings and the old index: free before the first search.
      collectAfterPass(next.store.capacity)
      ready = true
      touch()
    },

    upsertArchive(row: IndexArchive) {
      if (row.unlinked) return index.removeArchive(row.id)
      state.store.put(archiveDoc(row))
      state.tanks.archiveChanged(row.id)
      touch()
    },

    removeArchive(id: string) {
      state.store.remove(id)
      state.tanks.archiveChanged(id)
      touch()
    },

    refreshTankoubon(id: string) {
      const [record] = source.listTankoubons([id])
      if (record) state.tanks.set(record)
      else state.tanks.delete(id)
      touch()
    },

    removeTankoubon(id: string) {
      state.tanks.delete(id)
      touch()
    },

    archiveCount() {
      current()
      return universe(false, false).length
    },

    clearCache() {
      epoch++
      cache.clear()
      touch()
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
      const scope = q.scopeIds ? scopeOf(q.scopeIds, version) : null
      const searched = view(scope, grouped, q.tanksOnly)
      const start = startingSet(store, searched, {
        allowed: q.allowedIds ? slotMarks(q.allowedIds, true, grouped) : null,
        newonly: q.newonly,
        untaggedonly: q.untaggedonly,
        hidecompleted: q.hidecompleted,
      })
      const slots = applyTerms(store, vocab, marks, q.terms, start)
      const ordered = sortKeys.order(q.sort, slots)
      // recordsTotal is the grouped or flat library, as in LANraragi, even for tankoubonsonly.
      const library = q.tanksOnly ? view(scope, grouped, false) : searched
      const result: IndexResult = {
        count: ordered.length,
        total: library.length,
        ids: (start = 0, end = ordered.length) => {
          // A plain loop: Array.from with a mapper is ~7x slower on 100,000 slots.
          const out = new Array<string>(Math.max(0, end - start))
          for (let i = start; i < end; i++) out[i - start] = store.idAt(ordered[i]!)
          return out
        },
        idsJson: (head = '', tail = '') => idsJsonOf(store, ordered, head, tail),
      }
      if (cacheKey !== undefined) cache.set(cacheKey, result, ordered.byteLength)
      return result
    },

    matchIds(terms: Term[]): string[] {
      current()
      const { store, vocab, marks } = state
      ensureCapacity(marks, store.capacity)
      const all = new Int32Array(store.capacity)
      let n = 0
      for (let slot = 0; slot < store.capacity; slot++) if (store.alive[slot]) all[n++] = slot
      const ids: string[] = []
      const matched = applyTerms(store, vocab, marks, terms, all.subarray(0, n))
      for (let i = 0; i < matched.length; i++) ids.push(store.idAt(matched[i]!))
      return ids
    },

    membersOf: (tankId: string) => state.tanks.members(tankId),

    untaggedIds(scopeIds) {
      const version = current()
      const { store } = state
      const scope = scopeIds ? scopeSlots(scopeIds, version) : null
      const ids: string[] = []
      for (const slot of store.byTitle)
        if (store.kind[slot] === ARCHIVE && store.untagged[slot] && (!scope || scope[slot]))
          ids.push(store.idAt(slot))
      return ids
    },

    tagStats(scopeIds) {
      const weights = tagWeights(scopeIds)
      const { vocab } = state
      const stats: TagStat[] = []
      weights.forEach((weight, tag) => {
        if (weight === 0) return
        stats.push({ namespace: vocab.namespace(tag), text: vocab.value(tag), weight })
      })
      return stats
    },

    suggestTags(text, limit, scopeIds) {
      const weights = tagWeights(scopeIds)
      if (suggester?.vocab !== state.vocab)
        suggester = { vocab: state.vocab, tags: createTagSuggester(state.vocab) }
      return suggester.tags.suggest(text, limit, weights)
    },
  }
  return index
}
