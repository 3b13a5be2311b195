// The search use-cases behind /api/search*: resolve the category and the guest scope, run the
// index, page the result and load the rows a page shows. null means "index not built yet" (204).
import type { Deps } from '../../deps.ts'
import { findArchives, type ArchiveRow } from '../../db/repos/archives.repo.ts'
import { findCategory, listCategoryMembers } from '../../db/repos/categories.repo.ts'
import { findTankoubonsWithMembers } from '../../db/repos/tankoubons.repo.ts'
import { isTankoubonId } from '../../model/ids.ts'
import { summarizeTankoubon, tankoubonTags } from '../../model/tankoubon-summary.ts'
import { fail } from '../../errors.ts'
import { distinctTerms, parseFilter, type Term } from '../../search/query.ts'
import type { IndexQuery, IndexResult } from '../../search/types.ts'
import { guestVisibleIds } from './guest-scope.ts'

export type SearchParams = {
  filter: string
  category: string | null
  /** Offset into the result; -1 = everything. */
  start: number
  /** 'title', 'lastread' or a lower-cased namespace. */
  sortby: string
  desc: boolean
  newonly: boolean
  untaggedonly: boolean
  hidecompleted: boolean
  grouped: boolean
  tanksOnly: boolean
}

/** A plain search (title order, ungrouped, no flags) from `start`, with `overrides` on top. */
export function searchParamsOf(overrides: Partial<SearchParams> = {}): SearchParams {
  return {
    filter: '',
    category: null,
    start: 0,
    sortby: 'title',
    desc: false,
    newonly: false,
    untaggedonly: false,
    hidecompleted: false,
    grouped: false,
    tanksOnly: false,
    ...overrides,
  }
}

/** A Tankoubon shown where archives are: its name as title, members' pages and tags summed up. */
export type TankHit = {
  id: string
  name: string
  summary: string
  /** Own tags first, then the members' tags, each once; one `date_added`, the newest. */
  tags: string
  isnew: boolean
  progress: number
  pagecount: number
  lastreadtime: number
  size: number
}

export type SearchHit = { kind: 'archive'; row: ArchiveRow } | { kind: 'tank'; tank: TankHit }

export type SearchPage<T> = { data: T[]; recordsTotal: number; recordsFiltered: number }

type Mode = { guestScoped: boolean; sortby?: string; desc?: boolean }

/** SQLite caps bound parameters: long id lists are read in slices. */
const ID_SLICE = 500

/**
 * Distinct terms a filter may hold. Each term costs a pass over the tag vocabulary and the
 * candidates' titles; repeats are dropped first and count once.
 */
export const MAX_FILTER_TERMS = 256
/** Characters the distinct terms of a filter may hold in all: bounds each wildcard's matching. */
export const MAX_FILTER_TERM_CHARS = 4096
/**
 * Distinct wildcard terms: each one glob-tests every tag and candidate title, so 256 of them took
 * ~4 s at 100,000 archives. 32 is far beyond any hand-written filter and stays under ~0.5 s.
 */
export const MAX_WILDCARD_TERMS = 32

/** The filter's distinct terms, or a 400 past the limits above. */
function parseRequestFilter(filter: string): Term[] {
  const terms = parseFilter(filter)
  if (terms.length > MAX_FILTER_TERMS)
    throw fail.bad_request(
      `filter has ${terms.length} distinct terms; at most ${MAX_FILTER_TERMS} are allowed.`,
    )
  let chars = 0
  let wildcards = 0
  for (const term of terms) {
    if (term.kind !== 'text') continue
    chars += term.text.length
    if (term.wildcard) wildcards++
  }
  if (wildcards > MAX_WILDCARD_TERMS)
    throw fail.bad_request(
      `filter has ${wildcards} wildcard terms; at most ${MAX_WILDCARD_TERMS} are allowed.`,
    )
  if (chars > MAX_FILTER_TERM_CHARS)
    throw fail.bad_request(
      `filter terms hold ${chars} characters; at most ${MAX_FILTER_TERM_CHARS} are allowed.`,
    )
  return terms
}

/** The index query and its cache key (every parameter that shapes the result). */
function resolveQuery(
  deps: Pick<Deps, 'db' | 'search' | 'searchState'>,
  params: SearchParams,
  mode: Mode,
): { query: IndexQuery; key: string } {
  let terms = parseRequestFilter(params.filter)
  let allowedIds: string[] | null = null
  if (params.category) {
    const category = findCategory(deps.db, params.category)
    if (!category) throw fail.bad_request(`Category ${params.category} not found.`)
    if (category.search.trim()) terms = distinctTerms([...terms, ...parseFilter(category.search)])
    else allowedIds = listCategoryMembers(deps.db, category.id)
  }
  const sortby = mode.sortby ?? params.sortby
  const desc = mode.desc ?? params.desc
  const by = sortby === 'title' ? 'title' : sortby === 'lastread' ? 'lastread' : 'namespace'
  const query: IndexQuery = {
    terms,
    grouped: params.grouped,
    tanksOnly: params.tanksOnly,
    allowedIds,
    scopeIds: mode.guestScoped ? guestVisibleIds(deps) : null,
    newonly: params.newonly,
    untaggedonly: params.untaggedonly,
    hidecompleted: params.hidecompleted,
    sort: { by, namespace: sortby, desc },
  }
  const key = JSON.stringify([
    params.filter,
    params.category,
    sortby,
    desc,
    params.newonly,
    params.untaggedonly,
    params.hidecompleted,
    params.grouped,
    params.tanksOnly,
    mode.guestScoped,
  ])
  return { query, key }
}

function run(deps: Pick<Deps, 'db' | 'search' | 'searchState'>, params: SearchParams, mode: Mode) {
  if (!deps.search.ready) return null
  const { query, key } = resolveQuery(deps, params, mode)
  return deps.search.query(query, key)
}

/** The requested page of a result: `start` is an offset, -1 means everything. */
function page(result: IndexResult, start: number, size: number): string[] {
  if (start === -1) return result.ids()
  return result.ids(Math.min(start, result.count), Math.min(start + size, result.count))
}

function readArchives(deps: Pick<Deps, 'db'>, ids: string[]): Map<string, ArchiveRow> {
  const rows = new Map<string, ArchiveRow>()
  for (let i = 0; i < ids.length; i += ID_SLICE)
    for (const row of findArchives(deps.db, ids.slice(i, i + ID_SLICE)))
      if (!row.unlinked) rows.set(row.id, row)
  return rows
}

/** Current rows of the given ids, in the given order; vanished ones are left out. */
export function loadHits(deps: Pick<Deps, 'db'>, ids: string[]): SearchHit[] {
  const tankIds = ids.filter(isTankoubonId)
  const tanks = findTankoubonsWithMembers(deps.db, tankIds)
  const archiveIds = ids.filter((id) => !isTankoubonId(id))
  const rows = readArchives(deps, [...archiveIds, ...tanks.flatMap((t) => t.members)])
  const tankHits = new Map<string, TankHit>()
  for (const { row: tank, members: memberIds } of tanks) {
    const members = memberIds.map((id) => rows.get(id)).filter((row) => row !== undefined)
    tankHits.set(tank.id, {
      id: tank.id,
      name: tank.name,
      summary: tank.summary,
      tags: tankoubonTags(
        tank.tags,
        members.map((m) => m.tags),
      ),
      ...summarizeTankoubon(tank, members),
      size: members.reduce((sum, m) => sum + m.size, 0),
    })
  }
  const hits: SearchHit[] = []
  for (const id of ids) {
    const tank = tankHits.get(id)
    const row = tank ? undefined : rows.get(id)
    if (tank) hits.push({ kind: 'tank', tank })
    else if (row) hits.push({ kind: 'archive', row })
  }
  return hits
}

/** One page of result ids; `pageSize` defaults to the server's archives_per_page. */
export function searchIds(
  deps: Pick<Deps, 'db' | 'search' | 'searchState' | 'settings'>,
  params: SearchParams,
  guestScoped: boolean,
  pageSize = deps.settings.get('archives_per_page'),
): SearchPage<string> | null {
  const result = run(deps, params, { guestScoped })
  if (!result) return null
  const data = page(result, params.start, pageSize)
  return { data, recordsTotal: result.total, recordsFiltered: result.count }
}

/**
 * /api/search/ids as JSON bytes. The unpaged answer (start=-1: up to the whole library) is written
 * from the result's ordered slots into a buffer the next unpaged answer reuses (send it at once);
 * a page is joined (ids need no escaping: 40 hex digits, TANK_ and digits, checked by the index).
 */
export function searchIdsJson(
  deps: Pick<Deps, 'db' | 'search' | 'searchState' | 'settings'>,
  params: SearchParams,
  guestScoped: boolean,
): Uint8Array | null {
  const result = run(deps, params, { guestScoped })
  if (!result) return null
  const tail = `],"recordsTotal":${result.total},"recordsFiltered":${result.count}}`
  if (params.start !== -1) {
    const ids = page(result, params.start, deps.settings.get('archives_per_page'))
    return Buffer.from(`{"data":[${JSON.stringify(ids).slice(1, -1)}${tail}`)
  }
  return result.idsJson('{"data":[', tail)
}

/** `count` picks out of the whole result; fewer results than that: all of them, shuffled. */
export function randomIds(
  deps: Pick<Deps, 'db' | 'search' | 'searchState'>,
  params: SearchParams,
  count: number,
  guestScoped: boolean,
): string[] | null {
  const result = run(deps, params, { guestScoped, sortby: 'title', desc: false })
  if (!result) return null
  const take = Math.min(count, result.count)
  // Partial Fisher-Yates over positions: only `take` of them are drawn and looked up.
  const positions = new Int32Array(result.count)
  for (let i = 0; i < positions.length; i++) positions[i] = i
  const picked: string[] = []
  for (let i = 0; i < take; i++) {
    const j = i + Math.floor(Math.random() * (result.count - i))
    const position = positions[j]!
    positions[j] = positions[i]!
    picked.push(result.ids(position, position + 1)[0]!)
  }
  return picked
}

/** Autocomplete: the first `limit` results of the same search in title order, arcid and title. */
export function suggestTitles(
  deps: Pick<Deps, 'db' | 'search' | 'searchState'>,
  params: SearchParams,
  limit: number,
  guestScoped: boolean,
): { arcid: string; title: string }[] | null {
  const result = run(deps, params, { guestScoped, sortby: 'title', desc: false })
  if (!result) return null
  const hits = loadHits(deps, result.ids(0, Math.min(limit, result.count)))
  return hits.map((hit) =>
    hit.kind === 'tank'
      ? { arcid: hit.tank.id, title: hit.tank.name }
      : { arcid: hit.row.id, title: hit.row.title },
  )
}
