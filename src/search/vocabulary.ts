// The tag vocabulary: every distinct lower-cased tag once, kept sorted, each with its posting
// list (the document slots carrying it). Tag terms expand against this list, never against
// every document: a namespace prefix is a binary-searched range, an exact tag a hash lookup.
// A library can hold about as many tags as archives (a date_added per archive), so a tag costs
// no object of its own beyond its strings: a tag on one document keeps that slot in a column,
// and values are found through one sorted array rather than a map of arrays.
import { foldCase, type TextTerm } from './query.ts'
import { matchingIndices, testTag, type TermMatcher } from './pattern.ts'
import { createTextColumn } from './text-column.ts'

export type Vocabulary = ReturnType<typeof createVocabulary>

/** Code-unit order: the one in which every prefix is a contiguous range. */
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** Characters String#trim removes (WhiteSpace and LineTerminator): a stored tag's edges. */
function isTrimmed(c: number): boolean {
  if (c < 0xa0) return c === 32 || (c >= 9 && c <= 13)
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  )
}

/** FNV-1a over text[start, end)'s UTF-16 code units. */
function hashRange(text: string, start: number, end: number): number {
  let hash = 0x811c9dc5
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193)
  return hash
}

/** Whether `text` holds `tag` at `start` (a loop: startsWith with a position costs ~2x more). */
function sameText(tag: string, text: string, start: number): boolean {
  for (let i = 0; i < tag.length; i++)
    if (tag.charCodeAt(i) !== text.charCodeAt(start + i)) return false
  return true
}

/**
 * text[start, end) as a string of its own, so a kept tag can never hold on to the row's whole
 * tag string (a slice may share its source's buffer). Latin-1 text stays 8-bit.
 */
function ownCopy(text: string, start: number, end: number): string {
  const piece = text.slice(start, end)
  for (let i = 0; i < piece.length; i++)
    if (piece.charCodeAt(i) > 0xff) return Buffer.from(piece, 'utf16le').toString('utf16le')
  // Through one reused buffer: a million new tags (each archive's date_added) in a build.
  if (copyBuffer.length < piece.length) copyBuffer = Buffer.alloc(piece.length * 2)
  const length = (copyBuffer as Buffer & LatinWriter).latin1Write(piece, 0)
  return copyBuffer.toString('latin1', 0, length)
}

type LatinWriter = { latin1Write(text: string, offset: number): number }
let copyBuffer = Buffer.alloc(256)

/**
 * `ids` ordered by their texts (`texts[i]` is the text of `ids[i]`) in code-unit order, equal
 * texts in their order in `ids`. The texts are sorted by the engine's own string order (no
 * comparator: ~7x faster than calling one 20 M times at a million tags), then each distinct text
 * finds its ids again through a hash table.
 */
function orderByText(ids: readonly number[], texts: readonly string[]): number[] {
  const n = ids.length
  let size = 1 << 4
  while (size < n * 2) size *= 2
  const mask = size - 1
  // table: index + 1 of the first entry with a text; next: the following one with the same text.
  const table = new Int32Array(size)
  const next = new Int32Array(n).fill(-1)
  const last = new Int32Array(n)
  for (let i = 0; i < n; i++) {
    const text = texts[i]!
    for (let at = hashRange(text, 0, text.length) & mask; ; at = (at + 1) & mask) {
      const entry = table[at]!
      if (entry === 0) {
        table[at] = i + 1
        last[i] = i
        break
      }
      if (texts[entry - 1] === text) {
        next[last[entry - 1]!] = i
        last[entry - 1] = i
        break
      }
    }
  }
  const order = texts.slice().sort()
  const out: number[] = []
  for (let k = 0; k < n; k++) {
    const text = order[k]!
    if (k > 0 && order[k - 1] === text) continue
    let first = -1
    for (let at = hashRange(text, 0, text.length) & mask; ; at = (at + 1) & mask) {
      const entry = table[at]!
      if (texts[entry - 1] === text) {
        first = entry - 1
        break
      }
    }
    for (let i = first; i !== -1; i = next[i]!) out.push(ids[i]!)
  }
  return out
}

/** A copy twice as long. */
function grown(array: Int32Array): Int32Array {
  const copy = new Int32Array(array.length * 2)
  copy.set(array)
  return copy
}

export function createVocabulary() {
  const tags: string[] = []
  /** Namespace ('' for a plain tag) and value of each tag, split once. */
  const namespaces: string[] = []
  // A value is the tag's end: valueStart[id] is where it begins in the tag (0: a plain tag, the
  // whole of it), so a million date_added tags keep no second string each.
  let valueStart: Int32Array = new Int32Array(1024)
  /** Values that are not the end of their tag (not expected: tags arrive trimmed). */
  const otherValues = new Map<number, string>()
  const valueOf = (id: number): string => {
    const start = valueStart[id]!
    if (start === 0) return tags[id]!
    return start > 0 ? tags[id]!.slice(start) : otherValues.get(id)!
  }
  // Posting lists: tag t is on postingCount[t] slots. One slot sits in postingSingle[t]; from two
  // on, they are lists[t][0, postingCount[t]), a typed array grown by doubling.
  const lists: (Int32Array | undefined)[] = []
  let postingCount: Int32Array = new Int32Array(1024)
  let postingSingle: Int32Array = new Int32Array(1024)
  /** The tags again as one buffer, for substring scans. */
  const tagText = createTextColumn(
    (id) => tags[id]!,
    () => tags.length,
  )
  // Tag ids by text: an open-addressing table over a hash of each tag, probed with a range of a
  // row's tag string, so a build makes no string per tag it already knows (a dictionary object
  // keyed by each tag's slice took 2.2 s of a 6.1 s build at 200,000). An entry is two words,
  // id + 1 (0: empty) and the tag's hash, side by side: a probe reads one cache line, and a tag's
  // string is read only when its hash matches (14 M lookups at a million archives).
  let table = new Int32Array(2 << 12)

  /** Id of text[start, end), or -1; `hash` is hashRange of the same range. */
  const findRange = (text: string, start: number, end: number, hash: number): number => {
    const mask = (table.length >>> 1) - 1
    const length = end - start
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const entry = table[at * 2]!
      if (entry === 0) return -1
      if (table[at * 2 + 1] !== hash) continue
      const tag = tags[entry - 1]!
      if (tag.length === length && sameText(tag, text, start)) return entry - 1
    }
  }

  /** Enters id + 1 (`entry`) with its hash into `into` (a table of entry and hash pairs). */
  const place = (into: Int32Array, entry: number, hash: number) => {
    const mask = (into.length >>> 1) - 1
    let at = hash & mask
    while (into[at * 2] !== 0) at = (at + 1) & mask
    into[at * 2] = entry
    into[at * 2 + 1] = hash
  }

  const idOf = (tag: string): number | undefined => {
    const id = findRange(tag, 0, tag.length, hashRange(tag, 0, tag.length))
    return id < 0 ? undefined : id
  }
  /** Tag ids in code-unit order of their text, so every prefix is one contiguous range. */
  let sorted: number[] = []
  /** Namespaced tag ids in code-unit order of their value, for exact terms without a namespace. */
  let byValue: number[] = []
  let sealed = true
  /** One string object per namespace, so per-document namespace checks compare references. */
  const namespacePool = new Map<string, string>()
  const internNamespace = (ns: string) => {
    const known = namespacePool.get(ns)
    if (known !== undefined) return known
    namespacePool.set(ns, ns)
    return ns
  }

  const lowerBound = (text: string) => {
    let lo = 0
    let hi = sorted.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (compareText(tags[sorted[mid]!]!, text) < 0) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  const valueLowerBound = (text: string) => {
    let lo = 0
    let hi = byValue.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (compareText(valueOf(byValue[mid]!), text) < 0) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /** Id of the tag text[start, end) (lower-cased, trimmed), adding it when new. */
  const internRange = (text: string, start: number, end: number): number => {
    const hash = hashRange(text, start, end)
    const known = findRange(text, start, end, hash)
    if (known >= 0) return known
    const tag = start === 0 && end === text.length ? text : ownCopy(text, start, end)
    const id = tags.length
    tags.push(tag)
    lists.push(undefined)
    if (id >= postingCount.length) {
      postingCount = grown(postingCount)
      postingSingle = grown(postingSingle)
      valueStart = grown(valueStart)
    }
    // At most half full: a lookup of a tag not there (a new one) stops at the first gap soon.
    if ((id + 1) * 2 > table.length >>> 1) {
      const larger = new Int32Array(table.length * 2)
      for (let at = 0; at < table.length; at += 2)
        if (table[at] !== 0) place(larger, table[at]!, table[at + 1]!)
      table = larger
    }
    place(table, id + 1, hash)
    const colon = tag.indexOf(':')
    const namespace = colon > 0 ? tag.slice(0, colon).trim() : ''
    const value = colon > 0 ? tag.slice(colon + 1).trim() : tag
    namespaces.push(internNamespace(namespace))
    if (colon <= 0) valueStart[id] = 0
    else if (tag.endsWith(value)) valueStart[id] = tag.length - value.length
    else {
      valueStart[id] = -1
      otherValues.set(id, value)
    }
    if (sealed) {
      sorted.splice(lowerBound(tag), 0, id)
      if (colon > 0) byValue.splice(valueLowerBound(value), 0, id)
    }
    return id
  }

  return {
    get size() {
      return tags.length
    },
    tag: (id: number): string => tags[id]!,
    namespace: (id: number): string => namespaces[id]!,
    value: valueOf,
    /** How many slots carry the tag. */
    postingCount: (id: number): number => postingCount[id]!,
    /** Sets marks[slot] = mark for every slot carrying the tag. */
    markPostings(id: number, marks: Int32Array, mark: number) {
      const list = lists[id]
      const count = postingCount[id]!
      if (!list) {
        if (count === 1) marks[postingSingle[id]!] = mark
        return
      }
      for (let k = 0; k < count; k++) marks[list[k]!] = mark
    },
    idOf,

    /** Bulk loading: new tags are appended and sorted once by seal(). */
    unseal() {
      sealed = false
    },
    seal() {
      sorted = orderByText(Array.from(tags.keys()), tags)
      // The values once as strings for the sort (a slice per comparison would be 40 M of them).
      const namespaced = sorted.filter((id) => namespaces[id] !== '')
      byValue = orderByText(
        namespaced,
        namespaced.map((id) => valueOf(id)),
      )
      sealed = true
      tagText.prepare()
    },

    /** Id of a lower-cased tag, adding it when new. */
    intern(tag: string): number {
      return internRange(tag, 0, tag.length)
    },

    /**
     * Ids of a stored tag string's tags (comma-separated, as foldTags splits and folds them), in
     * order, repeats dropped; new tags are added. Folds the string once and reads each tag in
     * place: only a tag the vocabulary lacks becomes a string.
     */
    internList(stored: string): number[] {
      const text = foldCase(stored)
      const out: number[] = []
      let seen: Set<number> | null = null
      const n = text.length
      for (let at = 0; at <= n;) {
        let end = text.indexOf(',', at)
        if (end === -1) end = n
        let start = at
        at = end + 1
        while (start < end && isTrimmed(text.charCodeAt(start))) start++
        while (end > start && isTrimmed(text.charCodeAt(end - 1))) end--
        if (start === end) continue
        const id = internRange(text, start, end)
        if (seen) {
          if (seen.has(id)) continue
          seen.add(id)
        } else if (out.includes(id)) continue
        else if (out.length === 32) seen = new Set(out).add(id)
        out.push(id)
      }
      return out
    },

    addPosting(id: number, slot: number) {
      const count = postingCount[id]!
      postingCount[id] = count + 1
      let list = lists[id]
      if (!list) {
        if (count === 0) {
          postingSingle[id] = slot
          return
        }
        lists[id] = list = new Int32Array(4)
        list[0] = postingSingle[id]!
      } else if (count === list.length) {
        lists[id] = list = grown(list)
      }
      list[count] = slot
    },

    removePosting(id: number, slot: number) {
      const count = postingCount[id]!
      const list = lists[id]
      if (!list) {
        if (count === 1 && postingSingle[id] === slot) postingCount[id] = 0
        return
      }
      const at = count === 0 ? -1 : list.lastIndexOf(slot, count - 1)
      if (at === -1) return
      list[at] = list[count - 1]!
      postingCount[id] = count - 1
    },

    /**
     * Every posting list anew from the documents' tag ids (slot s carries
     * tagData[tagStart[s], tagStart[s] + tagCount[s]), for s below `slots`), each list in slot
     * order: after a bulk load, which adds no postings one by one.
     */
    rebuildPostings(
      tagData: Int32Array,
      tagStart: Int32Array,
      tagCount: Int32Array,
      slots: number,
    ) {
      const size = tags.length
      postingCount.fill(0)
      for (let s = 0; s < slots; s++) {
        const end = tagStart[s]! + tagCount[s]!
        for (let k = tagStart[s]!; k < end; k++) postingCount[tagData[k]!]!++
      }
      for (let id = 0; id < size; id++) {
        const count = postingCount[id]!
        lists[id] = count > 1 ? new Int32Array(count) : undefined
      }
      const filled = new Int32Array(size)
      for (let s = 0; s < slots; s++) {
        const end = tagStart[s]! + tagCount[s]!
        for (let k = tagStart[s]!; k < end; k++) {
          const id = tagData[k]!
          const list = lists[id]
          if (list) list[filled[id]!++] = s
          else postingSingle[id] = s
        }
      }
    },

    /** Ids of the tags a term matches. */
    matchingTags(term: TextTerm, matcher: TermMatcher): number[] {
      if (term.exact && !term.wildcard) {
        const out: number[] = []
        const whole = idOf(term.text)
        if (whole !== undefined) out.push(whole)
        if (term.namespaced) return out
        for (let i = valueLowerBound(term.text); i < byValue.length; i++) {
          const id = byValue[i]!
          if (valueOf(id) !== term.text) break
          if (id !== whole) out.push(id)
        }
        return out
      }
      const prefix = matcher.tagPrefix
      if (!prefix) {
        // No known prefix: one pass in id order (sequential, cheaper than the sorted view).
        if (matcher.tag.kind === 'substring') return tagText.containing(matcher.tag.text)
        if (!matcher.tagValueToo) return matchingIndices(tags, matcher.tag)
        const out: number[] = []
        for (let id = 0; id < tags.length; id++) if (testTag(matcher, tags[id]!)) out.push(id)
        return out
      }
      const out: number[] = []
      for (let i = lowerBound(prefix); i < sorted.length; i++) {
        const id = sorted[i]!
        const tag = tags[id]!
        if (!tag.startsWith(prefix)) break
        if (testTag(matcher, tag)) out.push(id)
      }
      return out
    },
  }
}
