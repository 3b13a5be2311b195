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

const cache = new WeakMap<SearchIndex, { version: number; ids: ReadonlySet<string> }>()

export function guestVisibleIds(deps: Pick<Deps, 'db' | 'search'>): ReadonlySet<string> {
  const { search } = deps
  const version = search.version
  const known = cache.get(search)
  if (known && known.version === version) return known.ids
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
  cache.set(search, { version, ids })
  return ids
}

export function scopeFor(deps: Pick<Deps, 'db' | 'search'>, guestScoped: boolean): Scope {
  return guestScoped ? guestVisibleIds(deps) : null
}
