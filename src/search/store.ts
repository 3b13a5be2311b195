// The searchable documents (archives and Tankoubons) in slot-indexed arrays: lower-cased titles
// for substring scans, tag ids for the posting lists, and the numbers and flags filters read.
// A slot is reused after its document goes; `slotOf` maps ids to slots.
import { naturalCompare } from '../model/natural-sort.ts'
import { freshAsciiCopy } from './locality.ts'
import { foldCase } from './query.ts'
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
  /** Lower-cased tags in their stored order, duplicates removed. */
  tags: string[]
  pagecount: number
  progress: number
  lastread: number
  isnew: boolean
}

export type Store = ReturnType<typeof createStore>

export function createStore(vocab: Vocabulary) {
  const ids: string[] = []
  const kind: DocKind[] = []
  const title: string[] = []
  const titleLower: string[] = []
  /** Slots whose title holds a colon: the only titles a `namespace:` term can be inside. */
  const colonTitles = new Set<number>()
  const tagIds: number[][] = []
  const pagecount: number[] = []
  const progress: number[] = []
  const lastread: number[] = []
  const isnew: boolean[] = []
  const untagged: boolean[] = []
  const alive: boolean[] = []
  /** Archives: how many Tankoubons hold it. Tankoubons: how many of their members exist. */
  const groupCount: number[] = []
  /** The lower-cased titles again as one buffer, for substring scans. */
  const titleText = createTextColumn(titleLower)
  const slotOf = new Map<string, number>()
  const free: number[] = []
  /** Title order: slots sorted by natural title order, then id (the tie-break of every sort). */
  const byTitle: number[] = []
  /** Bumped on every change: caches compare it. */
  let version = 0
  let onWrite: (slot: number) => void = () => {}

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

  const internTags = (tags: string[]) => {
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

  const sameIds = (a: number[], b: number[]) =>
    a.length === b.length && a.every((v, i) => v === b[i])

  const isUntagged = (ids: number[]) => {
    for (const id of ids) if (!UNTAGGED_IGNORED.has(vocab.namespace(id))) return false
    return true
  }

  return {
    ids,
    kind,
    title,
    titleLower,
    colonTitles,
    tagIds,
    pagecount,
    progress,
    lastread,
    isnew,
    untagged,
    alive,
    groupCount,
    slotOf,
    byTitle,
    titleText,
    get capacity() {
      return ids.length
    },
    get version() {
      return version
    },
    /** Called after every put and remove (sort keys follow documents this way). */
    listen(fn: (slot: number) => void) {
      onWrite = fn
    },

    /** Inserts or updates a document; `bulk` skips the title order (sortTitles() follows). */
    put(doc: DocInput, bulk = false): number {
      version++
      const newTags = internTags(doc.tags)
      let slot = slotOf.get(doc.id)
      if (slot === undefined) {
        slot = free.pop() ?? ids.length
        slotOf.set(doc.id, slot)
        ids[slot] = doc.id
        kind[slot] = doc.kind
        tagIds[slot] = []
        groupCount[slot] = 0
        alive[slot] = true
        title[slot] = doc.title
        titleLower[slot] = foldTitle(doc.title)
        if (titleLower[slot]!.includes(':')) colonTitles.add(slot)
        titleText.changed(slot)
        if (!bulk) byTitle.splice(titlePosition(slot), 0, slot)
      } else if (title[slot] !== doc.title) {
        byTitle.splice(titlePosition(slot), 1)
        title[slot] = doc.title
        titleLower[slot] = foldTitle(doc.title)
        if (titleLower[slot]!.includes(':')) colonTitles.add(slot)
        else colonTitles.delete(slot)
        titleText.changed(slot)
        byTitle.splice(titlePosition(slot), 0, slot)
      }
      const oldTags = tagIds[slot]!
      if (!sameIds(oldTags, newTags)) {
        // Only the tags that changed: removing from a long posting list (a language tag held by
        // most of a million archives) is a scan, and an edit rarely touches those.
        for (const id of missingFrom(oldTags, newTags)) vocab.removePosting(id, slot)
        for (const id of missingFrom(newTags, oldTags)) vocab.addPosting(id, slot)
        tagIds[slot] = newTags
      }
      pagecount[slot] = doc.pagecount
      progress[slot] = doc.progress
      lastread[slot] = doc.lastread
      isnew[slot] = doc.isnew
      untagged[slot] = isUntagged(newTags)
      onWrite(slot)
      return slot
    },

    remove(id: string): number | undefined {
      const slot = slotOf.get(id)
      if (slot === undefined) return undefined
      version++
      byTitle.splice(titlePosition(slot), 1)
      for (const tag of tagIds[slot]!) vocab.removePosting(tag, slot)
      slotOf.delete(id)
      alive[slot] = false
      tagIds[slot] = []
      title[slot] = ''
      titleLower[slot] = ''
      colonTitles.delete(slot)
      titleText.changed(slot)
      ids[slot] = ''
      free.push(slot)
      onWrite(slot)
      return slot
    },

    /** After a bulk load: one sort instead of an insertion per document. */
    sortTitles() {
      byTitle.length = 0
      for (let s = 0; s < ids.length; s++) if (alive[s]) byTitle.push(s)
      byTitle.sort(compareSlots)
      // Results are read in title order: their ids should lie in memory in that order too.
      slotOf.clear()
      for (const slot of byTitle) {
        ids[slot] = freshAsciiCopy(ids[slot]!)
        slotOf.set(ids[slot]!, slot)
      }
      titleText.prepare()
    },
  }
}

/** The ids of `from` that `other` lacks (a Set past a few dozen: Tankoubons hold thousands). */
function missingFrom(from: number[], other: number[]): number[] {
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
