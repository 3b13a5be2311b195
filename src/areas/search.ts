// Search: the index kept current by the writers' events, the kept hit JSON, the search routes.
import type { Area } from './area.ts'
import type { NoArgs } from '../jobs/define-job.ts'
import { searchPolicy, searchRoutes } from '../http/routes/search.ts'
import { syncIndexWithEvents } from '../domain/search/index-sync.ts'
import { dropWireOnWrites } from '../http/wire-cache.ts'
import { rebuildIndexJob } from '../jobs/kinds/rebuild-index.ts'

type SearchJobArgs = { rebuild_index: NoArgs }

export const searchArea: Area<'search', undefined, SearchJobArgs> = {
  name: 'search',
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
