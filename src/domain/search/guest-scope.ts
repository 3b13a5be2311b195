// What a guest visitor may see, one definition for every use-case that scopes (search, archives,
// collections): archives and Tankoubons of categories flagged visible_to_guest (static members
// plus matches of dynamic filters); a visible Tankoubon shows its members too. Cached per index
// version, which moves on every write and on clearCache (category writes).
import type { Deps } from '../../deps.ts'
import { listGuestCategoryRows, membersByCategory } from '../../db/repos/categories.repo.ts'
import { isTankoubonId } from '../../model/ids.ts'
import { parseFilter } from '../../search/query.ts'
import type { SearchIndex } from '../../search/types.ts'

/** The guest-visitor scope: null = no restriction (a logged-in caller, or guest mode off). */
export type Scope = ReadonlySet<string> | null

export const inScope = (scope: Scope, id: string): boolean => scope === null || scope.has(id)

/**
 * The guest scope as last computed, with the index and version it was computed from. Per server
 * (deps.searchState): a scope computed from one server's index is never another's.
 */
export type GuestScopeCache = {
  kept: { index: SearchIndex; version: number; ids: ReadonlySet<string> } | null
}

export const createGuestScopeCache = (): GuestScopeCache => ({ kept: null })

type ScopeDeps = Pick<Deps, 'db' | 'search' | 'searchState'>

export function guestVisibleIds(deps: ScopeDeps): ReadonlySet<string> {
  const { search } = deps
  const version = search.version
  const cache = deps.searchState.guestScope
  const known = cache.kept
  if (known && known.index === search && known.version === version) return known.ids
  const ids = new Set<string>()
  const categories = listGuestCategoryRows(deps.db)
  const dynamic = (filter: string) => filter.trim() !== ''
  const members = membersByCategory(
    deps.db,
    categories.filter((c) => !dynamic(c.search)).map((c) => c.id),
  )
  for (const category of categories) {
    const found = dynamic(category.search)
      ? search.matchIds(parseFilter(category.search))
      : (members.get(category.id) ?? [])
    for (const id of found) ids.add(id)
  }
  for (const id of [...ids]) {
    if (isTankoubonId(id)) for (const member of search.membersOf(id)) ids.add(member)
  }
  cache.kept = { index: search, version, ids }
  return ids
}

export function scopeFor(deps: ScopeDeps, guestScoped: boolean): Scope {
  return guestScoped ? guestVisibleIds(deps) : null
}
