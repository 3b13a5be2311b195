// Search routes: /api/search (+ ids, archives, random, suggest, tags, cache). Until the index is
// built they answer a bare 204.
import { Elysia } from 'elysia'
import type { Deps } from '../../deps.ts'
import { requestContext } from '../context.ts'
import { ok } from '../envelope.ts'
import { notReady } from '../not-ready.ts'
import {
  SearchModel,
  parseRandomCount,
  parseSearchParams,
  parseTagQuery,
} from '../models/search.ts'
import { hitFragments, randomPickJson, searchPageJson } from '../wire-cache.ts'
import {
  randomIds,
  searchIds,
  searchIdsJson,
  suggestTitles,
  type SearchParams,
} from '../../domain/search/run-search.ts'
import { suggestTags } from '../../domain/search/stats.ts'
import type { PolicyRows } from '../policy.ts'

/** Access policy of this file's routes, keyed by `METHOD /path` as registered (http/policy.ts). */
export const searchPolicy = {
  'GET /api/search': { op: 'search', access: 'any', guestScope: true },
  'GET /api/search/ids': { op: 'search_ids', access: 'any', guestScope: true },
  'GET /api/search/archives': { op: 'search_archives', access: 'any', guestScope: true },
  'GET /api/search/random': { op: 'get_random_archives', access: 'any', guestScope: true },
  'GET /api/search/suggest': { op: 'search_suggest', access: 'any', guestScope: true },
  'GET /api/search/tags': { op: 'suggest_tags', access: 'any', guestScope: true },
  'DELETE /api/search/cache': { op: 'clear_cache', access: 'admin' },
} satisfies PolicyRows

/** How many titles suggest returns. */
const SUGGEST_LIMIT = 10

export const searchRoutes = (deps: Deps) => {
  /** A page of hits, its body joined from the kept JSON of each hit (http/wire-cache.ts). */
  const searchPage = (params: SearchParams, guestScoped: boolean, set: ResponseSet) => {
    const found = searchIds(deps, params, guestScoped)
    if (!found) return notReady(set)
    const body = searchPageJson(
      hitFragments(deps, found.data),
      found.recordsTotal,
      found.recordsFiltered,
    )
    return json(set, body)
  }
  return new Elysia({ name: 'routes.search' })
    .use(requestContext(deps))
    .get(
      '/api/search',
      ({ query, guestScoped, set }) => searchPage(parseSearchParams(query), guestScoped, set),
      { query: SearchModel.search },
    )
    .get(
      '/api/search/ids',
      ({ query, guestScoped, set }) => {
        const body = searchIdsJson(deps, parseSearchParams(query), guestScoped)
        if (!body) return notReady(set)
        // Made here, at once: the bytes sit in a buffer the next unpaged answer reuses, and a
        // Response copies its body when made.
        return new Response(body as Uint8Array<ArrayBuffer>, {
          headers: { 'content-type': JSON_TYPE },
        })
      },
      { query: SearchModel.search },
    )
    .get(
      '/api/search/archives',
      ({ query, guestScoped, set }) => {
        const params = { ...parseSearchParams(query), grouped: false, tanksOnly: false }
        return searchPage(params, guestScoped, set)
      },
      { query: SearchModel.search },
    )
    .get(
      '/api/search/random',
      ({ query, guestScoped, set }) => {
        const count = parseRandomCount(query.count)
        const ids = randomIds(deps, parseSearchParams(query, false), count, guestScoped)
        if (!ids) return notReady(set)
        return json(set, randomPickJson(hitFragments(deps, ids)))
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
    .get(
      '/api/search/tags',
      ({ query, guestScoped, set }) => {
        const { text, count } = parseTagQuery(query)
        return suggestTags(deps, text, count, guestScoped) ?? notReady(set)
      },
      { query: SearchModel.tags },
    )
    .delete('/api/search/cache', () => {
      deps.search.clearCache()
      // The kept hit JSON is a cache too: a purge answers from the rows again.
      deps.wireCache.clear()
      return ok()
    })
}

type ResponseSet = { status?: number | string; headers: Record<string, string | number> }

/**
 * JSON text as the answer, with the content type an object answer gets. Sent through `set`, so
 * the headers set earlier for the request (security, CORS) go out with it.
 */
const JSON_TYPE = 'application/json;charset=utf-8'

function json<T extends string | Uint8Array>(set: ResponseSet, body: T): T {
  set.headers['content-type'] = JSON_TYPE
  return body
}
