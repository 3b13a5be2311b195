// Wire side of search: query-string schemas (strings, parsed here so a bad value names itself in
// a 400), and search hits as archive metadata (a Tankoubon under its TANK_ id).
import { Type } from '@sinclair/typebox'
import { t } from 'elysia'
import type { SearchHit, SearchParams, TankHit } from '../../domain/search/run-search.ts'
import { parseCategoryId } from '../../model/ids.ts'
import { fail } from '../../errors.ts'
import { parseFlag, parseInteger } from '../params.ts'
import { ArchiveMetadata, toWireArchive, type WireArchive } from './archives.ts'

const text = t.Optional(t.String())

const filterFields = {
  filter: text,
  category: text,
  newonly: text,
  untaggedonly: text,
  hidecompleted: text,
  groupby_tanks: text,
  tankoubonsonly: text,
}

export const SearchModel = {
  search: t.Object({ ...filterFields, start: text, sortby: text, order: text }),
  random: t.Object({ ...filterFields, count: text }),
  suggest: t.Object(filterFields),
  tags: t.Object({ q: text, count: text }),
}

type RawSearch = Partial<Record<keyof typeof filterFields | 'start' | 'sortby' | 'order', string>>

function parseCategory(raw: string | undefined): string | null {
  const value = raw?.trim() ?? ''
  return value === '' ? null : parseCategoryId(value)
}

/**
 * The search parameters; `groupedByDefault` is the default of `groupby_tanks` (true for search,
 * false for random, as LANraragi's random endpoint reads it: its picks go straight to readers).
 */
export function parseSearchParams(q: RawSearch, groupedByDefault = true): SearchParams {
  const order = (q.order ?? '').trim().toLowerCase()
  if (order !== '' && order !== 'asc' && order !== 'desc')
    throw fail.bad_request('order must be asc or desc.')
  const tanksOnly = parseFlag(q.tankoubonsonly, 'tankoubonsonly')
  return {
    filter: q.filter ?? '',
    category: parseCategory(q.category),
    start: parseInteger(q.start, 'start', { min: -1, fallback: 0 }),
    sortby: (q.sortby ?? '').trim().toLowerCase() || 'title',
    desc: order === 'desc',
    newonly: parseFlag(q.newonly, 'newonly'),
    untaggedonly: parseFlag(q.untaggedonly, 'untaggedonly'),
    hidecompleted: parseFlag(q.hidecompleted, 'hidecompleted'),
    grouped: parseFlag(q.groupby_tanks, 'groupby_tanks', groupedByDefault) || tanksOnly,
    tanksOnly,
  }
}

/** LANraragi reads a missing or zero count as the default. */
export function parseRandomCount(raw: string | undefined): number {
  return parseInteger(raw, 'count', { min: 0, fallback: 0 }) || 5
}

/** Longest tag query taken: fuzzy matching costs grow with the length. */
const TAG_QUERY_MAX = 200

/** q (required, not blank) and count (1-100, default 10; a larger count gets 100 tags). */
export function parseTagQuery(q: typeof SearchModel.tags.static) {
  const text = q.q?.trim() ?? ''
  if (text === '') throw fail.bad_request('Missing q.')
  if (text.length > TAG_QUERY_MAX)
    throw fail.bad_request(`q must be at most ${TAG_QUERY_MAX} characters.`)
  const count = parseInteger(q.count, 'count', { min: 1, fallback: 10 })
  return { text, count: Math.min(count, 100) }
}

/**
 * GET /api/search (and /api/search/archives): documented only, not declared on the route. The
 * body is joined from kept JSON fragments (http/wire-cache.ts) and answered as a string; a
 * response schema would have Elysia check (and fail) a string, or parse and re-serialize every
 * page of the hottest route. test/http/response-schemas.test.ts checks live answers against it.
 */
export const SearchResponse = t.Object({
  data: t.Array(ArchiveMetadata),
  recordsTotal: Type.Integer(),
  recordsFiltered: Type.Integer(),
})

/** A search or random entry: archive metadata with its `toc`, as LANraragi answers them. */
export function toWireHit(hit: SearchHit): WireArchive {
  if (hit.kind === 'archive') return toWireArchive(hit.row)
  return toWireTankArchive(hit.tank)
}

/** A Tankoubon as archive metadata: its card in grouped searches and (tankoubons_as_archives) reads. */
export function toWireTankArchive(tank: TankHit): WireArchive {
  return {
    arcid: tank.id,
    title: tank.name,
    // LANraragi's Tankoubon card: no file name, the pseudo-extension `.tank`.
    filename: '',
    tags: tank.tags,
    isnew: tank.isnew ? 'true' : 'false',
    extension: '.tank',
    progress: tank.progress,
    pagecount: tank.pagecount,
    lastreadtime: tank.lastreadtime,
    size: tank.size,
    summary: tank.summary,
    toc: [],
  }
}
