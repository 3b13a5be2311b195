// Search routes: /api/search (+ ids, archives, random, suggest, cache), tag statistics, the
// untagged list and the index rebuild. Until the index is built they answer a bare 204.
import { Elysia } from 'elysia'
import type { Deps } from '../../deps.ts'
import { requestContext } from '../context.ts'
import { ok } from '../envelope.ts'
import {
  SearchModel,
  parseRandomCount,
  parseSearchParams,
  parseStatsOptions,
  toWireHit,
} from '../models/search.ts'
import {
  randomHits,
  searchIds,
  searchLibrary,
  suggestTitles,
} from '../../domain/search/run-search.ts'
import { tagStatistics, untaggedArchiveIds } from '../../domain/search/stats.ts'

/** How many titles suggest returns. */
const SUGGEST_LIMIT = 10

export const searchRoutes = (deps: Deps) =>
  new Elysia({ name: 'routes.search' })
    .use(requestContext(deps))
    .get(
      '/api/search',
      ({ query, guestScoped, set }) => {
        const found = searchLibrary(deps, parseSearchParams(query), guestScoped)
        if (!found) return notReady(set)
        return { ...found, data: found.data.map(toWireHit) }
      },
      { query: SearchModel.search },
    )
    .get(
      '/api/search/ids',
      ({ query, guestScoped, set }) =>
        searchIds(deps, parseSearchParams(query), guestScoped) ?? notReady(set),
      { query: SearchModel.search },
    )
    .get(
      '/api/search/archives',
      ({ query, guestScoped, set }) => {
        const params = { ...parseSearchParams(query), grouped: false, tanksOnly: false }
        const found = searchLibrary(deps, params, guestScoped)
        if (!found) return notReady(set)
        return { ...found, data: found.data.map(toWireHit) }
      },
      { query: SearchModel.search },
    )
    .get(
      '/api/search/random',
      ({ query, guestScoped, set }) => {
        const count = parseRandomCount(query.count)
        const hits = randomHits(deps, parseSearchParams(query, false), count, guestScoped)
        if (!hits) return notReady(set)
        return { data: hits.map(toWireHit), recordsTotal: hits.length }
      },
      { query: SearchModel.random },
    )
    .get(
      '/api/search/suggest',
      ({ query, guestScoped, set }) => {
        const data = suggestTitles(deps, parseSearchParams(query), SUGGEST_LIMIT, guestScoped)
        if (!data) return notReady(set)
        return { data }
      },
      { query: SearchModel.suggest },
    )
    .delete('/api/search/cache', () => {
      deps.search.clearCache()
      return ok()
    })
    .post('/api/database/rebuild-index', () => ok({ job: deps.jobs.enqueue('rebuild_index', {}) }))
    .get(
      '/api/database/stats',
      ({ query, guestScoped, set }) =>
        tagStatistics(deps, parseStatsOptions(query), guestScoped) ?? notReady(set),
      { query: SearchModel.stats },
    )
    .get(
      '/api/archives/untagged',
      ({ guestScoped, set }) => untaggedArchiveIds(deps, guestScoped) ?? notReady(set),
    )

/** The bare 204 of a search asked before the index is built. */
function notReady(set: { status?: number | string }): string {
  set.status = 204
  return ''
}
