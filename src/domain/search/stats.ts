// Tag statistics (the tag cloud of /api/database/stats), tag suggestions (/api/search/tags) and
// the untagged-archives list, all read from the index so they follow every write.
import type { Deps } from '../../deps.ts'
import { guestVisibleIds } from './guest-scope.ts'
import type { TagStat, TagSuggestion } from '../../search/types.ts'

export type StatsOptions = { minweight: number; hideExcludedNamespaces: boolean }

/** Tags used at least `minweight` times, most used first; null until the index is built. */
export function tagStatistics(
  deps: Pick<Deps, 'db' | 'search' | 'searchState' | 'settings'>,
  options: StatsOptions,
  guestScoped: boolean,
): TagStat[] | null {
  if (!deps.search.ready) return null
  const hidden = options.hideExcludedNamespaces ? deps.settings.get('excluded_namespaces') : []
  const excluded = new Set(hidden.map((ns) => ns.trim().toLowerCase()))
  return deps.search
    .tagStats(guestScoped ? guestVisibleIds(deps) : null)
    .filter((stat) => stat.weight >= options.minweight && !excluded.has(stat.namespace))
    .sort(
      (a, b) =>
        b.weight - a.weight ||
        (a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : 0) ||
        (a.text < b.text ? -1 : a.text > b.text ? 1 : 0),
    )
}

/** Archives whose tags, LANraragi's ignored namespaces aside, are empty; null until built. */
export function untaggedArchiveIds(
  deps: Pick<Deps, 'db' | 'search' | 'searchState'>,
  guestScoped: boolean,
): string[] | null {
  if (!deps.search.ready) return null
  return deps.search.untaggedIds(guestScoped ? guestVisibleIds(deps) : null)
}

/** Tags for what a user typed, typos tolerated, most relevant first; null until built. */
export function suggestTags(
  deps: Pick<Deps, 'db' | 'search' | 'searchState'>,
  text: string,
  count: number,
  guestScoped: boolean,
): TagSuggestion[] | null {
  if (!deps.search.ready) return null
  return deps.search.suggestTags(text, count, guestScoped ? guestVisibleIds(deps) : null)
}
