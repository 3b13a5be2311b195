// What a guest visitor may see: archives and Tankoubons of categories flagged visible_to_guest
// (static members plus matches of dynamic filters); a visible Tankoubon shows its members too.
// Cached per index version, which moves on every write and on clearCache (category writes).
import type { Deps } from '../deps.ts'
import { listGuestCategoryRecords } from '../db/repos/search.repo.ts'
import { isTankoubonId } from '../model/ids.ts'
import { fail } from '../errors.ts'
import { parseFilter } from './query.ts'
import { searchIndexOf } from './index.ts'
import type { SearchIndex } from './types.ts'

const cache = new WeakMap<SearchIndex, { version: number; ids: ReadonlySet<string> }>()

/** `search` may be left out by callers holding only the db: the db's own index is used. */
export function guestVisibleIds(
  deps: Pick<Deps, 'db'> & { search?: SearchIndex },
): ReadonlySet<string> {
  const search = deps.search ?? searchIndexOf(deps.db)
  if (!search) throw fail.internal('guest scope asked before the search index exists')
  const version = search.version
  const known = cache.get(search)
  if (known && known.version === version) return known.ids
  const ids = new Set<string>()
  for (const category of listGuestCategoryRecords(deps.db)) {
    const dynamic = category.search.trim() !== ''
    const members = dynamic ? search.matchIds(parseFilter(category.search)) : category.members
    for (const id of members) ids.add(id)
  }
  for (const id of [...ids]) {
    if (isTankoubonId(id)) for (const member of search.membersOf(id)) ids.add(member)
  }
  cache.set(search, { version, ids })
  return ids
}
