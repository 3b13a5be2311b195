// Search: the index kept current by the writers' events, the kept hit JSON, the search routes.
import type { Area } from './area.ts'
import type { NoArgs } from '../jobs/define-job.ts'
import { searchPolicy, searchRoutes } from '../http/routes/search.ts'
import { syncIndexWithEvents } from '../domain/search/index-sync.ts'
import { dropWireOnWrites } from '../http/wire-cache.ts'
import { rebuildIndexJob } from '../jobs/kinds/rebuild-index.ts'
import { createGuestScopeCache, type GuestScopeCache } from '../domain/search/guest-scope.ts'

/**
 * The search area's state, at `deps.searchState` rather than under the area's name: `deps.search`
 * is the index, which stays in Infra (the archives area's state is built on it, and some 55 files
 * read it there), so the area declares a state key of its own instead of moving the index.
 */
export type SearchState = {
  /** What a guest visitor may see, kept while the index is unchanged. */
  guestScope: GuestScopeCache
}

type SearchJobArgs = { rebuild_index: NoArgs }

export const searchArea: Area<'search', SearchState, SearchJobArgs, 'searchState'> = {
  name: 'search',
  stateKey: 'searchState',
  state: () => ({ guestScope: createGuestScopeCache() }),
  jobs: { rebuild_index: rebuildIndexJob },
  // First of all subscribers: the others may read the index after the same write.
  subscribe: ({ events, search, wireCache }) => {
    const stopIndex = syncIndexWithEvents(events, search)
    const stopWire = dropWireOnWrites(events, wireCache)
    return () => {
      stopIndex()
      stopWire()
    }
  },
  routes: [{ routes: searchRoutes, policy: searchPolicy }],
}
