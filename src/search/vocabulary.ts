// The tag vocabulary: every distinct lower-cased tag once, kept sorted, each with its posting
// list (the document slots carrying it). Tag terms expand against this list, never against
// every document: a namespace prefix is a binary-searched range, an exact tag a map lookup.
import type { TextTerm } from './query.ts'
import { matchingIndices, testTag, type TermMatcher } from './pattern.ts'
import { createTextColumn } from './text-column.ts'

export type Vocabulary = ReturnType<typeof createVocabulary>

/** Code-unit order: the one in which every prefix is a contiguous range. */
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

export function createVocabulary() {
  const tags: string[] = []
  /** Namespace ('' for a plain tag) and value of each tag, split once. */
  const namespaces: string[] = []
  const values: string[] = []
  const postings: number[][] = []
  /** The tags again as one buffer, for substring scans. */
  const tagText = createTextColumn(tags)
  // A null-prototype object, not a Map: ~40% faster over the 1.5M lookups of a 100k build.
  const idByTag: Record<string, number> = Object.create(null)
  /** Tag ids by the value part of namespaced tags, for exact terms without a namespace. */
  const idsByValue = new Map<string, number[]>()
  /** Tag ids in code-unit order of their text, so every prefix is one contiguous range. */
  let sorted: number[] = []
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

  return {
    get size() {
      return tags.length
    },
    tag: (id: number): string => tags[id]!,
    namespace: (id: number): string => namespaces[id]!,
    value: (id: number): string => values[id]!,
    postings: (id: number): number[] => postings[id]!,
    idOf: (tag: string): number | undefined => idByTag[tag],

    /** Bulk loading: new tags are appended and sorted once by seal(). */
    unseal() {
      sealed = false
    },
    seal() {
      sorted = Array.from(tags.keys()).sort((a, b) => compareText(tags[a]!, tags[b]!))
      sealed = true
      tagText.prepare()
    },

    /** Id of a lower-cased tag, adding it when new. */
    intern(tag: string): number {
      const known = idByTag[tag]
      if (known !== undefined) return known
      const id = tags.length
      tags.push(tag)
      postings.push([])
      idByTag[tag] = id
      const colon = tag.indexOf(':')
      const namespace = colon > 0 ? tag.slice(0, colon).trim() : ''
      const value = colon > 0 ? tag.slice(colon + 1).trim() : tag
      namespaces.push(internNamespace(namespace))
      values.push(value)
      if (colon > 0) {
        const list = idsByValue.get(value)
        if (list) list.push(id)
        else idsByValue.set(value, [id])
      }
      if (sealed) sorted.splice(lowerBound(tag), 0, id)
      return id
    },

    addPosting(id: number, slot: number) {
      postings[id]!.push(slot)
    },

    removePosting(id: number, slot: number) {
      const list = postings[id]!
      const at = list.lastIndexOf(slot)
      if (at === -1) return
      list[at] = list[list.length - 1]!
      list.pop()
    },

    /** Ids of the tags a term matches. */
    matchingTags(term: TextTerm, matcher: TermMatcher): number[] {
      if (term.exact && !term.wildcard) {
        const out: number[] = []
        const whole = idByTag[term.text]
        if (whole !== undefined) out.push(whole)
        if (term.namespaced) return out
        for (const id of idsByValue.get(term.text) ?? []) if (id !== whole) out.push(id)
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
