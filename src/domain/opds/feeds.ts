// The OPDS 1.2 catalog (docs/clients.md, "OPDS"): Atom feeds built from the search index, with
// the Page Streaming Extension 1.2 link on every entry. Hrefs are root-relative, resolved by the
// client against the feed's own URL, so a reverse proxy's host name never has to be known here.
import type { Deps } from '../../deps.ts'
import { listCategoryRows, listGuestCategoryRows } from '../../db/repos/categories.repo.ts'
import { fail } from '../../errors.ts'
import { loadHits, searchIds, searchParamsOf, type SearchParams } from '../search/run-search.ts'
import {
  NAVIGATION_TYPE,
  archiveEntry,
  excludedNamespaces,
  iso,
  link,
  openTag,
  updatedOf,
} from './entry.ts'
import { element } from './xml.ts'

export { NAVIGATION_TYPE }
export const ACQUISITION_TYPE = 'application/atom+xml;profile=opds-catalog;kind=acquisition'
export const OPENSEARCH_TYPE = 'application/opensearchdescription+xml'

const ROOT = '/api/opds'

/** The acquisition feeds the root lists, by path segment. */
const LISTS = {
  all: { title: 'All archives', sort: { sortby: 'title', desc: false } },
  new: { title: 'New archives', sort: { sortby: 'title', desc: false, newonly: true } },
  'recently-added': { title: 'Recently added', sort: { sortby: 'date_added', desc: true } },
  // LANraragi's lastread order lists the most recent first unless `desc` turns it round.
  'recently-read': { title: 'Recently read', sort: { sortby: 'lastread', desc: false } },
} as const satisfies Record<string, { title: string; sort: Partial<SearchParams> }>

export type ListName = keyof typeof LISTS
export const isListName = (name: string): name is ListName => Object.hasOwn(LISTS, name)

function feed(
  id: string,
  title: string,
  updated: string,
  links: string[],
  body: string[],
  extra: string[] = [],
): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    openTag('feed'),
    element('id', {}, id),
    element('title', {}, title),
    element('updated', {}, updated),
    '<author><name>Tankobun</name></author>',
    ...extra,
    ...links,
    ...body,
    '</feed>',
  ].join('\n')
}

/** Links every feed carries: the root (start), search, and itself. */
function commonLinks(self: string, selfType: string): string[] {
  return [
    link('self', self, selfType),
    link('start', ROOT, NAVIGATION_TYPE),
    link('search', `${ROOT}/opensearch.xml`, OPENSEARCH_TYPE, 'Search'),
  ]
}

function navigationEntry(id: string, title: string, href: string, content: string, type: string) {
  return [
    '<entry>',
    element('title', {}, title),
    element('id', {}, id),
    element('updated', {}, new Date().toISOString()),
    element('content', { type: 'text' }, content),
    link('subsection', href, type, title),
    '</entry>',
  ].join('\n')
}

/** GET /api/opds: the lists, the categories feed and search. */
export function rootFeed(deps: Pick<Deps, 'settings'>): string {
  const now = new Date().toISOString()
  const entries = (Object.keys(LISTS) as ListName[]).map((name) =>
    navigationEntry(
      `urn:tankobun:opds:${name}`,
      LISTS[name].title,
      `${ROOT}/${name}`,
      LISTS[name].title,
      ACQUISITION_TYPE,
    ),
  )
  entries.push(
    navigationEntry(
      'urn:tankobun:opds:categories',
      'Categories',
      `${ROOT}/categories`,
      'Archives by category',
      NAVIGATION_TYPE,
    ),
  )
  return feed(
    'urn:tankobun:opds:root',
    deps.settings.get('name'),
    now,
    commonLinks(ROOT, NAVIGATION_TYPE),
    entries,
  )
}

/** GET /api/opds/categories: one subsection per category a caller may see. */
export function categoriesFeed(deps: Pick<Deps, 'db'>, guestScoped: boolean): string {
  const rows = guestScoped ? listGuestCategoryRows(deps.db) : listCategoryRows(deps.db)
  const entries = rows.map((c) =>
    navigationEntry(
      `urn:tankobun:category:${c.id}`,
      c.name,
      `${ROOT}/categories/${encodeURIComponent(c.id)}`,
      c.search.trim() ? `Dynamic category: ${c.search}` : `Category ${c.name}`,
      ACQUISITION_TYPE,
    ),
  )
  return feed(
    'urn:tankobun:opds:categories',
    'Categories',
    new Date().toISOString(),
    [...commonLinks(`${ROOT}/categories`, NAVIGATION_TYPE), link('up', ROOT, NAVIGATION_TYPE)],
    entries,
  )
}

export type AcquisitionRequest = {
  /** Stable id part and path of the feed (`all`, `categories/<id>`, `search`). */
  path: string
  title: string
  params: Partial<SearchParams>
  /** 1-based page of the feed. */
  page: number
  /** Query kept on the paging links (search's `q`). */
  query?: Record<string, string>
  /** The navigation feed above this one (`up`): the root, or the categories list. */
  up: string
}

/** The feed of one list (all, new, recently added or read). */
export function listRequest(name: ListName, page: number): AcquisitionRequest {
  return { path: name, title: LISTS[name].title, params: LISTS[name].sort, page, up: ROOT }
}

export function categoryRequest(
  deps: Pick<Deps, 'db'>,
  id: string,
  page: number,
  guestScoped: boolean,
): AcquisitionRequest {
  const rows = guestScoped ? listGuestCategoryRows(deps.db) : listCategoryRows(deps.db)
  const category = rows.find((c) => c.id === id)
  if (!category) throw fail.not_found('Category not found.')
  return {
    path: `categories/${encodeURIComponent(id)}`,
    title: category.name,
    params: { category: id, sortby: 'title', desc: false },
    page,
    up: `${ROOT}/categories`,
  }
}

export function searchRequest(q: string, page: number): AcquisitionRequest {
  return {
    path: 'search',
    title: q ? `Search: ${q}` : 'Search',
    params: { filter: q, sortby: 'title', desc: false },
    page,
    query: { q },
    up: ROOT,
  }
}

function searchParams(params: Partial<SearchParams>, start: number): SearchParams {
  return searchParamsOf({ start, ...params })
}

function href(path: string, page: number, query: Record<string, string> = {}): string {
  const search = new URLSearchParams(query)
  if (page > 1) search.set('page', String(page))
  const text = search.toString()
  return `${ROOT}/${path}${text ? `?${text}` : ''}`
}

/**
 * A page of an acquisition feed, or null while the search index is still being built. Archives
 * only: Tankoubons have no file to acquire and no single page list to stream.
 */
export function acquisitionFeed(
  deps: Pick<Deps, 'db' | 'search' | 'searchState' | 'settings'>,
  request: AcquisitionRequest,
  guestScoped: boolean,
): string | null {
  const perPage = deps.settings.get('archives_per_page')
  const start = (request.page - 1) * perPage
  const found = searchIds(deps, searchParams(request.params, start), guestScoped, perPage)
  if (!found) return null
  const rows = loadHits(deps, found.data).flatMap((hit) =>
    hit.kind === 'archive' ? [hit.row] : [],
  )
  const total = found.recordsFiltered
  const last = Math.max(1, Math.ceil(total / perPage))
  const self = href(request.path, request.page, request.query)
  const links = [
    ...commonLinks(self, ACQUISITION_TYPE),
    link('up', request.up, NAVIGATION_TYPE),
    link('first', href(request.path, 1, request.query), ACQUISITION_TYPE),
    link('last', href(request.path, last, request.query), ACQUISITION_TYPE),
  ]
  if (request.page > 1)
    links.push(
      link('previous', href(request.path, request.page - 1, request.query), ACQUISITION_TYPE),
    )
  if (request.page < last)
    links.push(link('next', href(request.path, request.page + 1, request.query), ACQUISITION_TYPE))
  const excluded = excludedNamespaces(deps)
  const updated = rows.reduce((max, row) => Math.max(max, updatedOf(row)), 0)
  return feed(
    `urn:tankobun:opds:${request.path}`,
    request.title,
    iso(updated || Math.floor(Date.now() / 1000)),
    links,
    rows.map((row) => archiveEntry(row, excluded)),
    [
      element('opensearch:totalResults', {}, String(total)),
      element('opensearch:itemsPerPage', {}, String(perPage)),
      element('opensearch:startIndex', {}, String(start + 1)),
    ],
  )
}

/** GET /api/opds/opensearch.xml: the search template, in the server's search syntax. */
export function openSearchDescription(deps: Pick<Deps, 'settings'>): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/">',
    element('ShortName', {}, deps.settings.get('name').slice(0, 16)),
    element('Description', {}, `Search the archives of ${deps.settings.get('name')}`),
    element('InputEncoding', {}, 'UTF-8'),
    element('OutputEncoding', {}, 'UTF-8'),
    element('Url', { type: ACQUISITION_TYPE, template: `${ROOT}/search?q={searchTerms}` }),
    '</OpenSearchDescription>',
  ].join('\n')
}
