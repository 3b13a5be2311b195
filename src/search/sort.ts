// Result order. Titles keep one natural-order list of all documents; a namespace sort keeps,
// per namespace once asked for, each document's last tag in it (a Tankoubon's own tag before its
// members'), the natural order of that namespace's values (numbers by value) and the documents
// holding one in that order (value, then title order), updated on writes like the title order.
// A query then only walks: no comparisons, no buckets.
import { naturalCompare } from '../model/natural-sort.ts'
import { bitAt } from './bits.ts'
import { TANK, type Store } from './store.ts'
import type { Vocabulary } from './vocabulary.ts'

export type SortSpec = { by: 'title' | 'lastread' | 'namespace'; namespace: string; desc: boolean }

const DIGITS = /^\d{1,15}$/

/**
 * Slots placed by writes since the build that a title-ordered result merges in by comparison
 * (~20 title comparisons each); past this many, one walk over the title order costs less.
 */
const MERGE_LIMIT = 256

/**
 * Appends to `out` from `n` the slots of `sequence[begin, end)` whose bit is set, in sequence
 * order, until `out` holds `count`; returns the new count. Without a branch per slot: every slot
 * passed is stored and the count moves on only for a set bit, so `out` needs one spare entry.
 */
function takeMarked(
  sequence: ArrayLike<number>,
  begin: number,
  end: number,
  bits: Int32Array,
  out: Int32Array,
  n: number,
  count: number,
): number {
  for (let i = begin; i < end && n < count; i++) {
    const slot = sequence[i]!
    out[n] = slot
    n += bitAt(bits, slot)
  }
  return n
}

/** Namespaces holding a date, which a Tankoubon without its own takes from its newest member. */
const DATE_NAMESPACES: ReadonlySet<string> = new Set(['date_added', 'timestamp'])

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
  /** Tag ids of the namespace in value order (new values are inserted by binary search). */
  sorted: number[]
  /** 1 at the tag ids in `sorted` (grown with the vocabulary). */
  known: Uint8Array
  /** Slots with a tag in the namespace, by value, then title order: order[0, length). */
  order: Int32Array
  /**
   * The tag of each position of `order` (tagOfSlot[order[i]]), so a descending walk finds where
   * values change reading memory in order: through `order`, a million random reads cost ~30 ms.
   */
  tagAt: Int32Array
  length: number
  /** Whether two of its tags hold the same value (`a: x` and `a:x`): rare, and slower to walk. */
  shared: boolean
}

/** Tag ids of a Tankoubon's own tags (its document holds its members' tags as well). */
export type OwnTagsOf = (slot: number) => readonly number[]

export function createSortKeys(store: Store, vocab: Vocabulary, ownTagsOf: OwnTagsOf) {
  const byNamespace = new Map<string, NamespaceKeys>()

  const lastIn = (tags: ArrayLike<number>, namespace: string) => {
    let found = -1
    for (let i = 0; i < tags.length; i++)
      if (vocab.namespace(tags[i]!) === namespace) found = tags[i]!
    return found
  }

  /** The namespace's tag of greatest value among `tags`, -1 when none. */
  const newestIn = (tags: ArrayLike<number>, namespace: string) => {
    let found = -1
    for (let i = 0; i < tags.length; i++) {
      const tag = tags[i]!
      if (vocab.namespace(tag) !== namespace) continue
      if (found < 0 || compareValues(vocab.value(tag), vocab.value(found)) > 0) found = tag
    }
    return found
  }

  // A Tankoubon sorts by its own tag; its members' tags stand in only when it has none: for a
  // date (date_added, timestamp) the newest member's, as LANraragi imputes it (and the one date
  // its hit shows), for other namespaces the last one.
  const lastTagIn = (slot: number, namespace: string) => {
    if (store.kind[slot] !== TANK) return lastIn(store.tagsOf(slot), namespace)
    const own = lastIn(ownTagsOf(slot), namespace)
    if (own >= 0) return own
    return DATE_NAMESPACES.has(namespace)
      ? newestIn(store.tagsOf(slot), namespace)
      : lastIn(store.tagsOf(slot), namespace)
  }

  const learn = (keys: NamespaceKeys, tag: number) => {
    if (tag < 0 || keys.known[tag]) return
    if (tag >= keys.known.length) {
      const grown = new Uint8Array(Math.max(vocab.size, keys.known.length * 2))
      grown.set(keys.known)
      keys.known = grown
    }
    keys.known[tag] = 1
    const value = vocab.value(tag)
    let lo = 0
    let hi = keys.sorted.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (compareValues(vocab.value(keys.sorted[mid]!), value) < 0) lo = mid + 1
      else hi = mid
    }
    keys.sorted.splice(lo, 0, tag)
    const next = keys.sorted[lo + 1]
    const previous = keys.sorted[lo - 1]
    if (
      (next !== undefined && vocab.value(next) === value) ||
      (previous !== undefined && vocab.value(previous) === value)
    )
      keys.shared = true
  }

  /** Whether two tags of the namespace hold the same value (equal values sort as one). */
  const sameValue = (a: number, b: number) => a === b || vocab.value(a) === vocab.value(b)

  const materialize = (namespace: string): NamespaceKeys => {
    const tagOfSlot = new Int32Array(Math.max(store.capacity, 16)).fill(-1)
    const known = new Uint8Array(Math.max(vocab.size, 16))
    const sorted: number[] = []
    for (let slot = 0; slot < store.capacity; slot++) {
      if (!store.alive[slot]) continue
      const tag = lastTagIn(slot, namespace)
      tagOfSlot[slot] = tag
      if (tag < 0 || known[tag]) continue
      known[tag] = 1
      sorted.push(tag)
    }
    // The values once as strings for the sort (vocab.value slices the tag on every call).
    // Numbers parsed once too: compareValues on a million date_added values took seconds.
    const pairs = sorted.map((tag) => {
      const value = vocab.value(tag)
      return { tag, value, number: DIGITS.test(value) ? Number(value) : NaN }
    })
    pairs.sort((a, b) => a.number - b.number || naturalCompare(a.value, b.value))
    // Counting sort by value rank (equal values share one), stable over title order.
    const rank = new Int32Array(Math.max(vocab.size, 16))
    let shared = false
    pairs.forEach(({ tag, value }, i) => {
      sorted[i] = tag
      const same = i > 0 && pairs[i - 1]!.value === value
      shared ||= same
      rank[tag] = same ? rank[pairs[i - 1]!.tag]! : i
    })
    const rankOfSlot = new Int32Array(tagOfSlot.length)
    const starts = new Int32Array(sorted.length + 1)
    let holders = 0
    for (let slot = 0; slot < store.capacity; slot++) {
      const tag = tagOfSlot[slot]!
      if (tag < 0) continue
      const r = rank[tag]!
      rankOfSlot[slot] = r
      starts[r + 1]!++
      holders++
    }
    for (let b = 1; b < starts.length; b++) starts[b]! += starts[b - 1]!
    const order = new Int32Array(Math.max(16, holders + (holders >>> 3)))
    const tagAt = new Int32Array(order.length)
    const byTitle = store.byTitle
    for (let i = 0; i < byTitle.length; i++) {
      const slot = byTitle[i]!
      const tag = tagOfSlot[slot]!
      if (tag < 0) continue
      const at = starts[rankOfSlot[slot]!]!++
      order[at] = slot
      tagAt[at] = tag
    }
    const keys: NamespaceKeys = { tagOfSlot, sorted, known, order, tagAt, length: holders, shared }
    byNamespace.set(namespace, keys)
    return keys
  }

  /** Where `slot` (with its current tag and title) belongs in `keys.order`. */
  const orderPosition = (keys: NamespaceKeys, slot: number) => {
    const { order, tagAt } = keys
    const tag = keys.tagOfSlot[slot]!
    const value = vocab.value(tag)
    let lo = 0
    let hi = keys.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      const other = order[mid]!
      const otherTag = tagAt[mid]!
      const diff =
        (sameValue(otherTag, tag) ? 0 : compareValues(vocab.value(otherTag), value)) ||
        store.compareSlots(other, slot)
      if (diff < 0) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  const removeFromOrder = (keys: NamespaceKeys, slot: number) => {
    const at = keys.order.subarray(0, keys.length).indexOf(slot)
    if (at === -1) return
    keys.order.copyWithin(at, at + 1, keys.length)
    keys.tagAt.copyWithin(at, at + 1, keys.length)
    keys.length--
  }

  const insertIntoOrder = (keys: NamespaceKeys, slot: number) => {
    const at = orderPosition(keys, slot)
    if (keys.length === keys.order.length) {
      const grow = (from: Int32Array) => {
        const grown = new Int32Array(from.length * 2)
        grown.set(from)
        return grown
      }
      keys.order = grow(keys.order)
      keys.tagAt = grow(keys.tagAt)
    }
    keys.order.copyWithin(at + 1, at, keys.length)
    keys.tagAt.copyWithin(at + 1, at, keys.length)
    keys.order[at] = slot
    keys.tagAt[at] = keys.tagOfSlot[slot]!
    keys.length++
  }

  /**
   * `slots` (ascending) in title order without walking the whole title order: slots no write has
   * placed since the build are in title order already (store.titlePlaced), and the few others
   * are merged in by comparing titles. Null when too many were placed: walk then.
   */
  const inTitleOrder = (slots: Int32Array): Int32Array | null => {
    const placed = store.titlePlaced
    let count = 0
    for (let i = 0; i < slots.length; i++) count += placed[slots[i]!]!
    if (count === 0) return slots
    if (count > MERGE_LIMIT) return null
    const kept = new Int32Array(slots.length - count)
    const merged: number[] = []
    let k = 0
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i]!
      if (placed[slot]) merged.push(slot)
      else kept[k++] = slot
    }
    merged.sort(store.compareSlots)
    const out = new Int32Array(slots.length)
    let from = 0
    let at = 0
    for (const slot of merged) {
      // The first kept slot after this one (merged is in order: search on from the last).
      let lo = from
      let hi = kept.length
      while (lo < hi) {
        const mid = (lo + hi) >>> 1
        if (store.compareSlots(kept[mid]!, slot) < 0) lo = mid + 1
        else hi = mid
      }
      out.set(kept.subarray(from, lo), at)
      at += lo - from
      out[at++] = slot
      from = lo
    }
    out.set(kept.subarray(from), at)
    return out
  }

  /** One bit per slot, reused by the next query. */
  let bits = new Int32Array(0)

  /**
   * The result as a bitset for the walks: a walk reads it in an order unrelated to slot order,
   * and a million slots' bits (125 KB) stay in cache where an Int32Array of marks (4 MB) does not
   * (sorts over a whole library of a million ran ~2x slower on marks).
   */
  const resultBits = (slots: Int32Array): Int32Array => {
    const words = (store.capacity >>> 5) + 1
    if (bits.length < words) bits = new Int32Array(words + (words >>> 3))
    else bits.fill(0, 0, words)
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i]!
      bits[slot >>> 5]! |= 1 << (slot & 31)
    }
    return bits
  }

  /** `slots` in title order by one walk over every document's place in it. */
  const walkTitles = (slots: Int32Array): Int32Array => {
    const count = slots.length
    const out = new Int32Array(count + 1)
    takeMarked(store.byTitle, 0, store.byTitle.length, resultBits(slots), out, 0, count)
    return out.subarray(0, count)
  }

  return {
    /**
     * Keeps materialized namespaces current after a document was written or removed;
     * `titleMoved`: its place in the title order changed (new document, new title).
     */
    update(slot: number, titleMoved: boolean) {
      for (const [namespace, keys] of byNamespace) {
        if (slot >= keys.tagOfSlot.length) {
          const grown = new Int32Array(Math.max(store.capacity, keys.tagOfSlot.length * 2)).fill(-1)
          grown.set(keys.tagOfSlot)
          keys.tagOfSlot = grown
        }
        const before = keys.tagOfSlot[slot]!
        const tag = store.alive[slot] ? lastTagIn(slot, namespace) : -1
        if (tag === before && !titleMoved) continue
        if (before >= 0) removeFromOrder(keys, slot)
        keys.tagOfSlot[slot] = tag
        learn(keys, tag)
        if (tag >= 0) insertIntoOrder(keys, slot)
      }
    },

    clear() {
      byNamespace.clear()
    },

    /** Orders `slots` (a query's result, in ascending slot order). */
    order(spec: SortSpec, slots: Int32Array): Int32Array {
      const count = slots.length
      if (spec.by !== 'namespace') {
        const titled = inTitleOrder(slots) ?? walkTitles(slots)
        if (spec.by === 'title') return spec.desc ? titled.slice().reverse() : titled
        if (count === 0) return titled
        const read = Array.from(titled).filter((slot) => store.lastread[slot]! > 0)
        // LANraragi lists the most recent first by default; ties stay in title order.
        const sign = spec.desc ? 1 : -1
        read.sort((a, b) => sign * (store.lastread[a]! - store.lastread[b]!))
        return Int32Array.from(read)
      }
      const bits = resultBits(slots)
      const byTitle = store.byTitle
      const out = new Int32Array(count + 1)
      let n = 0
      if (count === 0) return out.subarray(0, 0)
      const keys = byNamespace.get(spec.namespace) ?? materialize(spec.namespace)
      const { order, tagAt, tagOfSlot, length } = keys
      if (!spec.desc) n = takeMarked(order, 0, length, bits, out, n, count)
      else {
        // Values from the last down, equal values still in title order.
        let end = length
        while (end > 0 && n < count) {
          const tag = tagAt[end - 1]!
          let begin = end - 1
          while (begin > 0) {
            const previous = tagAt[begin - 1]!
            if (previous !== tag && !(keys.shared && sameValue(previous, tag))) break
            begin--
          }
          n = takeMarked(order, begin, end, bits, out, n, count)
          end = begin
        }
      }
      // Documents lacking the namespace last in both directions, in title order.
      for (let i = 0; i < byTitle.length && n < count; i++) {
        const slot = byTitle[i]!
        if (bitAt(bits, slot) && !(tagOfSlot[slot]! >= 0)) out[n++] = slot
      }
      return out.subarray(0, count)
    },
  }
}
