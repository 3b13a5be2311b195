// Tag suggestions (GET /api/search/tags): a typo-tolerant index of the tag vocabulary, one
// MiniSearch document per distinct tag value, so `naru` and `narto` both find series:naruto.
// The vocabulary only grows (a tag no archive carries any more keeps its id, with weight 0), so
// the index follows it by adding the ids it has not seen yet, before each lookup; a rebuild of
// the search index brings a new vocabulary and so a new suggester. Built on the first lookup:
// a server whose clients never ask pays nothing for it.
import MiniSearch from 'minisearch'
import type { TagSuggestion } from './types.ts'
import type { Vocabulary } from './vocabulary.ts'

/** Namespaces never suggested: one timestamp per archive, nothing anyone types. */
const UNSUGGESTED = new Set(['date_added'])

/** Edit distance allowed, as a share of a query term's length (MiniSearch's `fuzzy`). */
const FUZZY = 0.2

type TagDoc = { id: number; value: string }

export type TagSuggester = ReturnType<typeof createTagSuggester>

export function createTagSuggester(vocab: Vocabulary) {
  const mini = new MiniSearch<TagDoc>({ fields: ['value'], storeFields: [] })
  /** Vocabulary ids below this one are in `mini` (or skipped on purpose). */
  let indexed = 0
  /** Each suggested namespace's tag ids, so a namespace's name finds its tags. */
  const byNamespace = new Map<string, number[]>()

  const sync = () => {
    for (; indexed < vocab.size; indexed++) {
      const namespace = vocab.namespace(indexed)
      if (UNSUGGESTED.has(namespace)) continue
      mini.add({ id: indexed, value: vocab.value(indexed) })
      if (namespace === '') continue
      const ids = byNamespace.get(namespace)
      if (ids) ids.push(indexed)
      else byNamespace.set(namespace, [indexed])
    }
  }

  /**
   * Namespaces a typed name means: the one named exactly, else those it begins (`lang` is
   * `language`) once it is long enough to mean something (`a` alone names no namespace).
   */
  const namespacesNamed = (name: string, minPrefix: number): string[] => {
    if (byNamespace.has(name)) return [name]
    if (name.length < minPrefix) return []
    return [...byNamespace.keys()].filter((ns) => ns.startsWith(name))
  }

  const byWeight = (weights: Int32Array) => (a: number, b: number) =>
    weights[b]! - weights[a]! || compareText(vocab.tag(a), vocab.tag(b))

  return {
    /** Documents in the index (after the last sync). */
    get size() {
      return mini.documentCount
    },
    sync,

    /**
     * Up to `limit` tags for what a user typed, best first: tags whose words start with the
     * query's words, then (when those are fewer than `limit`) tags within a typo of them. Within
     * each group MiniSearch's score is scaled by the tag's weight, so among equal matches the
     * common tag comes first. A query without `:` that names a namespace, or begins its name
     * (`artist`, `lang`, `chara`: 3 letters at least), also lists that namespace's most used tags,
     * first (half the answer when values match too). `ns:value` looks only in namespace `ns` (or
     * the namespaces `ns` begins when none is named so); `ns:` lists its most used tags.
     * `weights[id]` is tag id's archive count in the caller's scope: 0 hides the tag.
     */
    suggest(query: string, limit: number, weights: Int32Array): TagSuggestion[] {
      sync()
      const text = query.trim().toLowerCase()
      const colon = text.indexOf(':')
      const namespaces = colon > 0 ? new Set(namespacesNamed(text.slice(0, colon).trim(), 1)) : null
      const value = colon > 0 ? text.slice(colon + 1).trim() : text
      const weightOf = (id: number) => weights[id] ?? 0
      const allowed = (id: number) =>
        weightOf(id) > 0 && (namespaces === null || namespaces.has(vocab.namespace(id)))
      const answer = (ids: number[]) =>
        ids.slice(0, limit).map((id) => ({ tag: vocab.tag(id), weight: weightOf(id) }))
      /** The used tags of these namespaces, most used first. */
      const tagsOf = (names: Iterable<string>) => {
        const ids: number[] = []
        for (const name of names) for (const id of byNamespace.get(name) ?? []) ids.push(id)
        return ids.filter((id) => weightOf(id) > 0).sort(byWeight(weights))
      }

      if (value === '') return namespaces === null ? [] : answer(tagsOf(namespaces))

      const boostDocument = (id: number) => (allowed(id) ? Math.log2(2 + weightOf(id)) : 0)
      const ranked = (fuzzy: number | false) =>
        mini
          .search(value, { prefix: true, fuzzy, combineWith: 'AND', boostDocument })
          .sort((a, b) => b.score - a.score || byWeight(weights)(a.id, b.id))
          .map((hit) => hit.id as number)
      const prefixed = ranked(false)
      const named = namespaces === null ? tagsOf(namespacesNamed(value, 3)) : []
      const share = prefixed.length > 0 ? Math.ceil(limit / 2) : limit
      const ids = [...new Set([...named.slice(0, share), ...prefixed, ...named.slice(share)])]
      if (ids.length < limit) {
        const seen = new Set(ids)
        for (const id of ranked(FUZZY)) if (!seen.has(id)) ids.push(id)
      }
      return answer(ids)
    },
  }
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
