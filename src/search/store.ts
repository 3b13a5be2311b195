// The searchable documents (archives and Tankoubons) in slot-indexed columns: titles (and their
// lower-cased UTF-8 text for substring scans), tag ids for the posting lists, and the numbers and
// flags filters read. Columns are typed arrays and every document's tag ids share one Int32Array,
// so a million documents are a few dozen objects, not millions (bench/README.md, Search at a
// million archives). A slot is reused after its document goes; `find` maps ids to slots.
import { collectAfterPass } from '../model/large-pass.ts'
import { naturalCompare } from '../model/natural-sort.ts'
import { createIdColumn, MAX_ID } from './id-column.ts'
import { createIdTable } from './id-table.ts'
import { freshAsciiCopy } from './locality.ts'
import { foldCase } from './query.ts'
import { sortByTitle } from './title-order.ts'
import { createTextColumn } from './text-column.ts'
import type { Vocabulary } from './vocabulary.ts'

export const ARCHIVE = 0
export const TANK = 1
export type DocKind = typeof ARCHIVE | typeof TANK

/** Namespaces that do not make an archive "tagged" (LANraragi's list). */
const UNTAGGED_IGNORED = new Set([
  'artist',
  'parody',
  'series',
  'language',
  'event',
  'group',
  'date_added',
  'timestamp',
  'source',
])

export type DocInput = {
  id: string
  kind: DocKind
  title: string
  /**
   * Lower-cased tags in their stored order, duplicates removed; or a stored tag string
   * (comma-separated, not folded yet), read in place by the vocabulary.
   */
  tags: readonly string[] | string
  pagecount: number
  progress: number
  lastread: number
  isnew: boolean
}

export type Store = ReturnType<typeof createStore>

/** Archive ids are 40 hex digits and Tankoubon ids TANK_ and digits: no JSON escapes needed. */
const PLAIN_ID = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/

/** A typed array twice as long (at least `need`), holding the old contents. */
function grow<T extends Int32Array | Uint8Array | Float64Array>(array: T, need: number): T {
  const grown = new (array.constructor as new (n: number) => T)(Math.max(need, array.length * 2))
  grown.set(array)
  return grown
}

export function createStore(vocab: Vocabulary) {
  const ids: string[] = []
  const title: string[] = []
  /** Slots whose title holds a colon: the only titles a `namespace:` term can be inside. */
  const colonTitles = new Set<number>()
  // Columns by slot; `capacity` slots are in use (live or free).
  let capacity = 0
  let kind = new Uint8Array(1024)
  let pagecount = new Int32Array(1024)
  let progress = new Int32Array(1024)
  let lastread = new Float64Array(1024)
  let isnew = new Uint8Array(1024)
  let untagged = new Uint8Array(1024)
  let alive = new Uint8Array(1024)
  /** Archives: how many Tankoubons hold it. Tankoubons: how many of their members exist. */
  let groupCount = new Int32Array(1024)
  /**
   * 1 at slots a write placed in the title order since the last sortTitles (new documents, new
   * titles). sortTitles numbers slots in title order and writes keep the others' relative
   * order, so any slots without this mark are in title order when in slot order.
   */
  let titlePlaced = new Uint8Array(1024)
  // Tag ids of every slot in one array: slot s holds tagData[tagStart[s], tagStart[s] + tagCount[s]).
  // A changed list that does not fit its old place is appended; the array is compacted when
  // more than half of it is left behind that way.
  let tagStart = new Int32Array(1024)
  let tagCount = new Int32Array(1024)
  let tagData = new Int32Array(1 << 16)
  let tagEnd = 0
  let tagWaste = 0
  /** The lower-cased titles as one buffer, for substring scans. */
  const titleText = createTextColumn(
    (slot) => foldTitle(title[slot]!),
    () => capacity,
  )
  const slotOf = createIdTable((slot) => ids[slot]!)
  /** The ids as fixed-width JSON entries, for unpaged answers. */
  const idColumn = createIdColumn()
  /** Live ids that are not plain printable ASCII without quote or backslash (JSON must escape). */
  let oddIds = 0
  /** Characters of the longest id ever held (an upper bound for buffers of ids). */
  let longestId = 0
  const free: number[] = []
  /** Title order: slots sorted by natural title order, then id (the tie-break of every sort). */
  const byTitle: number[] = []
  /** Bumped on every change: caches compare it. */
  let version = 0
  let onWrite: (slot: number, titleMoved: boolean) => void = () => {}
  /** A bulk load is under way: postings wait for sortTitles(). */
  let bulkLoading = false

  const compareSlots = (a: number, b: number) =>
    naturalCompare(title[a]!, title[b]!) || (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : 0)

  const titlePosition = (slot: number) => {
    let lo = 0
    let hi = byTitle.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (compareSlots(byTitle[mid]!, slot) < 0) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  const newSlot = () => {
    const reused = free.pop()
    if (reused !== undefined) return reused
    const slot = capacity++
    if (slot >= kind.length) {
      kind = grow(kind, capacity)
      pagecount = grow(pagecount, capacity)
      progress = grow(progress, capacity)
      lastread = grow(lastread, capacity)
      isnew = grow(isnew, capacity)
      untagged = grow(untagged, capacity)
      alive = grow(alive, capacity)
      groupCount = grow(groupCount, capacity)
      titlePlaced = grow(titlePlaced, capacity)
      tagStart = grow(tagStart, capacity)
      tagCount = grow(tagCount, capacity)
    }
    return slot
  }

  const internTags = (tags: readonly string[] | string) => {
    if (typeof tags === 'string') return vocab.internList(tags)
    // An archive's tags arrive de-duplicated (only Unicode forms can still collide); a
    // Tankoubon's repeat across members, and there can be thousands.
    if (tags.length > 32) return [...new Set(tags.map((tag) => vocab.intern(tag)))]
    const out: number[] = []
    for (const tag of tags) {
      const id = vocab.intern(tag)
      if (!out.includes(id)) out.push(id)
    }
    return out
  }

  const tagsOf = (slot: number): Int32Array =>
    tagData.subarray(tagStart[slot]!, tagStart[slot]! + tagCount[slot]!)

  const compactTags = () => {
    const packed = new Int32Array(Math.max(1 << 16, (tagEnd - tagWaste) * 2))
    let at = 0
    for (let slot = 0; slot < capacity; slot++) {
      const start = tagStart[slot]!
      const count = tagCount[slot]!
      packed.set(tagData.subarray(start, start + count), at)
      tagStart[slot] = at
      at += count
    }
    tagData = packed
    tagEnd = at
    tagWaste = 0
  }

  const setTags = (slot: number, list: readonly number[]) => {
    const count = tagCount[slot]!
    let start = tagStart[slot]!
    if (list.length > count) {
      tagWaste += count
      if (tagEnd + list.length > tagData.length) {
        if (tagWaste * 2 > tagEnd) compactTags()
        if (tagEnd + list.length > tagData.length) tagData = grow(tagData, tagEnd + list.length)
      }
      start = tagEnd
      tagEnd += list.length
    } else {
      tagWaste += count - list.length
    }
    for (let i = 0; i < list.length; i++) tagData[start + i] = list[i]!
    tagStart[slot] = start
    tagCount[slot] = list.length
  }

  const sameTags = (slot: number, list: readonly number[]) => {
    if (tagCount[slot] !== list.length) return false
    const start = tagStart[slot]!
    for (let i = 0; i < list.length; i++) if (tagData[start + i] !== list[i]) return false
    return true
  }

  const isUntagged = (list: readonly number[]) => {
    for (const id of list) if (!UNTAGGED_IGNORED.has(vocab.namespace(id))) return false
    return true
  }

  const setTitle = (slot: number, value: string) => {
    title[slot] = value
    if (value.includes(':')) colonTitles.add(slot)
    else colonTitles.delete(slot)
    titleText.changed(slot)
  }

  return {
    colonTitles,
    byTitle,
    titleText,
    get kind() {
      return kind
    },
    get pagecount() {
      return pagecount
    },
    get progress() {
      return progress
    },
    get lastread() {
      return lastread
    },
    get isnew() {
      return isnew
    },
    get untagged() {
      return untagged
    },
    get alive() {
      return alive
    },
    get groupCount() {
      return groupCount
    },
    get titlePlaced() {
      return titlePlaced
    },
    /** Every slot's tag ids; read a slot's with `tagStart` and `tagCount`. */
    get tagData() {
      return tagData
    },
    get tagStart() {
      return tagStart
    },
    get tagCount() {
      return tagCount
    },
    get capacity() {
      return capacity
    },
    get version() {
      return version
    },
    /** Whether every id is JSON as it is between two quotes, one byte per character. */
    get plainIds() {
      return oddIds === 0
    },
    get longestId() {
      return longestId
    },
    /**
     * The ids of `ordered` as the inside of a JSON array between `head` and `tail`, copied from
     * the fixed-width column; null when an id does not fit it (too long, or JSON must escape it).
     */
    idsJson(ordered: Int32Array, head: string, tail: string): Uint8Array | null {
      if (oddIds > 0 || longestId > MAX_ID) return null
      const last = ordered.length > 0 ? ids[ordered[ordered.length - 1]!]! : ''
      return idColumn.json(ordered, head, tail, last)
    },
    /** Id of the document in a slot ('' for a free slot). */
    idAt: (slot: number): string => ids[slot] ?? '',
    /** Slot of a document, or undefined. */
    find: (id: string): number | undefined => slotOf.get(id),
    /** A slot's tag ids (a view: read it before the next write). */
    tagsOf,
    /** A slot's title lower-cased, as substring and wildcard terms test it. */
    titleLower: (slot: number): string => foldTitle(title[slot]!),
    /** Title order, then id: the order of byTitle. */
    compareSlots,
    /** Called after every put and remove (sort keys follow documents this way). */
    listen(fn: (slot: number, titleMoved: boolean) => void) {
      onWrite = fn
    },

    /**
     * Inserts or updates a document; `bulk` skips the title order and, from the first bulk put
     * until sortTitles() (which must follow), the posting lists: that sort builds them once.
     */
    put(doc: DocInput, bulk = false): number {
      version++
      const newTags = internTags(doc.tags)
      let slot = slotOf.get(doc.id)
      let titleMoved = false
      if (slot === undefined) {
        slot = newSlot()
        ids[slot] = doc.id
        slotOf.add(doc.id, slot)
        idColumn.set(slot, doc.id)
        if (!PLAIN_ID.test(doc.id)) oddIds++
        longestId = Math.max(longestId, doc.id.length)
        kind[slot] = doc.kind
        groupCount[slot] = 0
        alive[slot] = 1
        setTitle(slot, doc.title)
        if (!bulk) byTitle.splice(titlePosition(slot), 0, slot)
        titleMoved = true
      } else if (title[slot] !== doc.title) {
        byTitle.splice(titlePosition(slot), 1)
        setTitle(slot, doc.title)
        byTitle.splice(titlePosition(slot), 0, slot)
        titleMoved = true
      }
      if (titleMoved && !bulk) titlePlaced[slot] = 1
      if (bulk && !bulkLoading) bulkLoading = true
      if (bulkLoading) setTags(slot, newTags)
      else if (!sameTags(slot, newTags)) {
        // Only the tags that changed: removing from a long posting list (a language tag held by
        // most of a million archives) is a scan, and an edit rarely touches those.
        const oldTags = Array.from(tagsOf(slot))
        for (const id of missingFrom(oldTags, newTags)) vocab.removePosting(id, slot)
        for (const id of missingFrom(newTags, oldTags)) vocab.addPosting(id, slot)
        setTags(slot, newTags)
      }
      pagecount[slot] = doc.pagecount
      progress[slot] = doc.progress
      lastread[slot] = doc.lastread
      isnew[slot] = doc.isnew ? 1 : 0
      untagged[slot] = isUntagged(newTags) ? 1 : 0
      onWrite(slot, titleMoved)
      return slot
    },

    remove(id: string): number | undefined {
      const slot = slotOf.get(id)
      if (slot === undefined) return undefined
      version++
      byTitle.splice(titlePosition(slot), 1)
      const tags = tagsOf(slot)
      for (let i = 0; i < tags.length; i++) vocab.removePosting(tags[i]!, slot)
      setTags(slot, [])
      slotOf.delete(id)
      if (!PLAIN_ID.test(id)) oddIds--
      alive[slot] = 0
      setTitle(slot, '')
      ids[slot] = ''
      free.push(slot)
      onWrite(slot, true)
      return slot
    },

    /**
     * After a bulk load: one sort instead of an insertion per document, then the documents are
     * renumbered in title order, so slot order is title order until writes come. Results are
     * read in title order mostly; their ids, titles and columns then lie in memory in that order
     * (an unpaged answer of 488,000 ids read ~10x faster in order than scattered).
     */
    sortTitles() {
      const live: number[] = []
      for (let s = 0; s < capacity; s++) if (alive[s]) live.push(s)
      const sorted = sortByTitle(live, (s) => title[s]!, compareSlots)
      // Each step below leaves ~200 MB of garbage at a million documents that the collector
      // would let pile up: collected after the two largest, the build peaked at ~1.1 GB RSS
      // instead of ~1.6 GB, in the same time.
      collectAfterPass(sorted.length)
      byTitle.length = sorted.length
      for (let i = 0; i < sorted.length; i++) byTitle[i] = sorted[i]!
      const count = byTitle.length
      const slotFor = new Int32Array(Math.max(capacity, 1)).fill(-1)
      for (let i = 0; i < count; i++) slotFor[byTitle[i]!] = i
      const moved = <T extends Int32Array | Uint8Array | Float64Array>(column: T): T => {
        const next = new (column.constructor as new (n: number) => T)(column.length)
        for (let i = 0; i < count; i++) next[i] = column[byTitle[i]!]!
        return next
      }
      kind = moved(kind)
      pagecount = moved(pagecount)
      progress = moved(progress)
      lastread = moved(lastread)
      isnew = moved(isnew)
      untagged = moved(untagged)
      alive = moved(alive)
      groupCount = moved(groupCount)
      titlePlaced = new Uint8Array(titlePlaced.length)
      const packed = new Int32Array(Math.max(1 << 16, tagEnd - tagWaste))
      const starts = new Int32Array(tagStart.length)
      const counts = new Int32Array(tagCount.length)
      let at = 0
      for (let i = 0; i < count; i++) {
        const old = byTitle[i]!
        const start = tagStart[old]!
        counts[i] = tagCount[old]!
        starts[i] = at
        packed.set(tagData.subarray(start, start + counts[i]!), at)
        at += counts[i]!
      }
      tagData = packed
      tagStart = starts
      tagCount = counts
      tagEnd = at
      tagWaste = 0
      vocab.rebuildPostings(tagData, tagStart, tagCount, count)
      collectAfterPass(count)
      bulkLoading = false
      const oldIds = ids.splice(0)
      const oldTitles = title.splice(0)
      colonTitles.clear()
      slotOf.clear(count)
      for (let i = 0; i < count; i++) {
        const old = byTitle[i]!
        // A fresh copy, so the id strings too lie in title order.
        ids.push(freshAsciiCopy(oldIds[old]!))
        title.push(oldTitles[old]!)
        if (title[i]!.includes(':')) colonTitles.add(i)
        slotOf.add(ids[i]!, i)
        byTitle[i] = i
      }
      capacity = count
      free.length = 0
      idColumn.reset(ids)
      titleText.prepare()
    },
  }
}

/** The ids of `from` that `other` lacks (a Set past a few dozen: Tankoubons hold thousands). */
function missingFrom(from: readonly number[], other: readonly number[]): number[] {
  if (other.length <= 32) return from.filter((id) => !other.includes(id))
  const kept = new Set(other)
  return from.filter((id) => !kept.has(id))
}

/** Lower-cased, one line (the text column keeps one title per line). */
function foldTitle(value: string): string {
  return foldCase(value)
    .replace(/[\r\n]+/g, ' ')
    .trim()
}
