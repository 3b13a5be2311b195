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

  const sync = () => {
    for (; indexed < vocab.size; indexed++) {
      if (UNSUGGESTED.has(vocab.namespace(indexed))) continue
      mini.add({ id: indexed, value: vocab.value(indexed) })
    }
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
     * common tag comes first. `ns:value` looks only in namespace `ns`; `ns:` lists its most used
     * tags. `weights[id]` is tag id's archive count in the caller's scope: 0 hides the tag.
     */
    suggest(query: string, limit: number, weights: Int32Array): TagSuggestion[] {
      sync()
      const text = query.trim().toLowerCase()
      const colon = text.indexOf(':')
      const namespace = colon > 0 ? text.slice(0, colon).trim() : null
      const value = colon > 0 ? text.slice(colon + 1).trim() : text
      const weightOf = (id: number) => weights[id] ?? 0
      const allowed = (id: number) =>
        weightOf(id) > 0 && (namespace === null || vocab.namespace(id) === namespace)
      const answer = (ids: number[]) =>
        ids.slice(0, limit).map((id) => ({ tag: vocab.tag(id), weight: weightOf(id) }))

      if (value === '') {
        if (namespace === null || UNSUGGESTED.has(namespace)) return []
        const ids: number[] = []
        for (let id = 0; id < vocab.size; id++) if (allowed(id)) ids.push(id)
        return answer(ids.sort(byWeight(weights)))
      }

      const boostDocument = (id: number) => (allowed(id) ? Math.log2(2 + weightOf(id)) : 0)
      const ranked = (fuzzy: number | false) =>
        mini
          .search(value, { prefix: true, fuzzy, combineWith: 'AND', boostDocument })
          .sort((a, b) => b.score - a.score || byWeight(weights)(a.id, b.id))
          .map((hit) => hit.id as number)
      const ids = ranked(false)
      if (ids.length < limit) {
        const seen = new Set(ids)
        for (const id of ranked(FUZZY)) if (!seen.has(id)) ids.push(id)
      }
      return answer(ids)
    },
  }
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
