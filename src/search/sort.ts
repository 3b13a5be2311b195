// Result order. Titles keep one natural-order list of all documents; a namespace sort keeps,
// per namespace once asked for, each document's last tag in it (a Tankoubon's own tag before its
// members') and the natural order of that namespace's values (numbers by value). A query then
// only walks and buckets: no comparisons.
import { naturalCompare } from '../model/natural-sort.ts'
import { TANK, type Store } from './store.ts'
import type { Vocabulary } from './vocabulary.ts'

export type SortSpec = { by: 'title' | 'lastread' | 'namespace'; namespace: string; desc: boolean }

const DIGITS = /^\d{1,15}$/

/** naturalCompare with a fast path for plain numbers (it orders those by value as well). */
function compareValues(a: string, b: string): number {
  if (DIGITS.test(a) && DIGITS.test(b)) {
    const diff = Number(a) - Number(b)
    if (diff !== 0) return diff
  }
  return naturalCompare(a, b)
}

type NamespaceKeys = {
  /** Tag id of each slot's last tag in the namespace, -1 when it has none. */
  tagOfSlot: Int32Array
  /** Tag ids of the namespace in value order. */
  sorted: number[]
  known: Set<number>
  /** Value rank by tag id (equal values share a rank); rebuilt when `sorted` changed. */
  rank: Int32Array | null
}

/** Tag ids of a Tankoubon's own tags (its document holds its members' tags as well). */
export type OwnTagsOf = (slot: number) => readonly number[]

export function createSortKeys(store: Store, vocab: Vocabulary, ownTagsOf: OwnTagsOf) {
  const byNamespace = new Map<string, NamespaceKeys>()

  const lastIn = (tags: readonly number[], namespace: string) => {
    let found = -1
    for (const id of tags) if (vocab.namespace(id) === namespace) found = id
    return found
  }

  // A Tankoubon sorts by its own tag; its members' tags stand in only when it has none.
  const lastTagIn = (slot: number, namespace: string) => {
    const own = store.kind[slot] === TANK ? lastIn(ownTagsOf(slot), namespace) : -1
    return own >= 0 ? own : lastIn(store.tagIds[slot]!, namespace)
  }

  const learn = (keys: NamespaceKeys, tag: number) => {
    if (tag < 0 || keys.known.has(tag)) return
    keys.known.add(tag)
    const value = vocab.value(tag)
    let lo = 0
    let hi = keys.sorted.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (compareValues(vocab.value(keys.sorted[mid]!), value) < 0) lo = mid + 1
      else hi = mid
    }
    keys.sorted.splice(lo, 0, tag)
    keys.rank = null
  }

  const materialize = (namespace: string): NamespaceKeys => {
    const tagOfSlot = new Int32Array(Math.max(store.capacity, 16)).fill(-1)
    const known = new Set<number>()
    for (let slot = 0; slot < store.capacity; slot++) {
      if (!store.alive[slot]) continue
      const tag = lastTagIn(slot, namespace)
      tagOfSlot[slot] = tag
      if (tag >= 0) known.add(tag)
    }
    const sorted = [...known].sort((a, b) => compareValues(vocab.value(a), vocab.value(b)))
    const keys = { tagOfSlot, sorted, known, rank: null }
    byNamespace.set(namespace, keys)
    return keys
  }

  const rankOf = (keys: NamespaceKeys) => {
    if (keys.rank && keys.rank.length >= vocab.size) return keys.rank
    const rank = new Int32Array(Math.max(vocab.size, 16))
    let previous = ''
    let current = -1
    keys.sorted.forEach((tag, i) => {
      const value = vocab.value(tag)
      if (i === 0 || value !== previous) current = i
      rank[tag] = current
      previous = value
    })
    keys.rank = rank
    return rank
  }

  return {
    /** Keeps materialized namespaces current after a document was written or removed. */
    update(slot: number) {
      for (const [namespace, keys] of byNamespace) {
        if (slot >= keys.tagOfSlot.length) {
          const grown = new Int32Array(Math.max(store.capacity, keys.tagOfSlot.length * 2)).fill(-1)
          grown.set(keys.tagOfSlot)
          keys.tagOfSlot = grown
        }
        const tag = store.alive[slot] ? lastTagIn(slot, namespace) : -1
        keys.tagOfSlot[slot] = tag
        learn(keys, tag)
      }
    },

    clear() {
      byNamespace.clear()
    },

    /** Orders the `count` slots marked with `mark`. */
    order(spec: SortSpec, marks: Int32Array, mark: number, count: number): Int32Array {
      const byTitle = store.byTitle
      const inTitleOrder = new Int32Array(count)
      let n = 0
      if (spec.by === 'title' && spec.desc) {
        for (let i = byTitle.length - 1; i >= 0 && n < count; i--) {
          const slot = byTitle[i]!
          if (marks[slot] === mark) inTitleOrder[n++] = slot
        }
        return inTitleOrder
      }
      for (let i = 0; i < byTitle.length && n < count; i++) {
        const slot = byTitle[i]!
        if (marks[slot] === mark) inTitleOrder[n++] = slot
      }
      if (spec.by === 'title' || count === 0) return inTitleOrder
      if (spec.by === 'lastread') {
        const read = Array.from(inTitleOrder).filter((slot) => store.lastread[slot]! > 0)
        // LANraragi lists the most recent first by default; ties stay in title order.
        const sign = spec.desc ? 1 : -1
        read.sort((a, b) => sign * (store.lastread[a]! - store.lastread[b]!))
        return Int32Array.from(read)
      }
      const keys = byNamespace.get(spec.namespace) ?? materialize(spec.namespace)
      const rank = rankOf(keys)
      const buckets = keys.sorted.length
      // Counting sort by value rank, stable over title order; documents lacking the namespace
      // go in the last bucket in both directions.
      const bucket = new Int32Array(count)
      const starts = new Int32Array(buckets + 2)
      for (let i = 0; i < count; i++) {
        const tag = keys.tagOfSlot[inTitleOrder[i]!] ?? -1
        const b = tag < 0 ? buckets : spec.desc ? buckets - 1 - rank[tag]! : rank[tag]!
        bucket[i] = b
        starts[b + 1]!++
      }
      for (let b = 1; b < starts.length; b++) starts[b]! += starts[b - 1]!
      const out = new Int32Array(count)
      for (let i = 0; i < count; i++) out[starts[bucket[i]!]!++] = inTitleOrder[i]!
      return out
    },
  }
}
