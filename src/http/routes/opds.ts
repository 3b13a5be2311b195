// OPDS 1.2 catalog routes (docs/clients.md, "OPDS"): Atom XML feeds for e-readers and comic
// apps, guest-scoped like the archive reads, LANraragi's own OPDS reads (one archive's entry, a
// PSE page), and the images and downloads the feeds link, typed as the feeds say. Until the
// search index is built the acquisition feeds answer a bare 204, as /api/search does.
import { Elysia } from 'elysia'
import type { Deps } from '../../deps.ts'
import { requestContext } from '../context.ts'
import { parseFlag, parseInteger, parseMaxWidth } from '../params.ts'
import { notReady } from '../not-ready.ts'
import { OpdsModel, parseFeedPage, parseSearchTerms } from '../models/opds.ts'
import { fail } from '../../errors.ts'
import {
  ACQUISITION_TYPE,
  NAVIGATION_TYPE,
  OPENSEARCH_TYPE,
  acquisitionFeed,
  categoriesFeed,
  categoryRequest,
  isListName,
  listRequest,
  openSearchDescription,
  rootFeed,
  searchRequest,
  type AcquisitionRequest,
} from '../../domain/opds/feeds.ts'
import { ENTRY_TYPE, entryDocument, readerMimeType } from '../../domain/opds/entry.ts'
import { opdsCover } from '../../domain/opds/images.ts'
import { requireArchive } from '../../domain/archives/lookup.ts'
import { pageEntry } from '../../domain/archives/pages.ts'
import { isArchiveId } from '../../model/ids.ts'
import { sendArchiveFile } from '../archive-download.ts'
import { sendOpdsCover, sendOpdsPage } from '../opds-images.ts'
import { OPDS_READ, type PolicyRows } from '../policy.ts'

/** Access policy of this file's routes, keyed by `METHOD /path` as registered (http/policy.ts). */
export const opdsPolicy = {
  // OPDS (docs/clients.md): read like the archive routes, guest-scoped
  'GET /api/opds': { op: 'opds_root', access: 'any', ...OPDS_READ },
  'GET /api/opds/opensearch.xml': { op: 'opds_opensearch', access: 'any', ...OPDS_READ },
  'GET /api/opds/categories': { op: 'opds_categories', access: 'any', ...OPDS_READ },
  'GET /api/opds/categories/:id': { op: 'opds_category', access: 'any', ...OPDS_READ },
  'GET /api/opds/search': { op: 'opds_search', access: 'any', ...OPDS_READ },
  'GET /api/opds/:list': { op: 'opds_list', access: 'any', ...OPDS_READ },
  'GET /api/opds/:list/pse': { op: 'serve_opds_page', access: 'any', ...OPDS_READ },
  'GET /api/opds/:list/thumbnail': { op: 'opds_thumbnail', access: 'any', ...OPDS_READ },
  'GET /api/opds/:list/download': { op: 'opds_download', access: 'any', ...OPDS_READ },
} satisfies PolicyRows

type ResponseSet = { status?: number | string; headers: Record<string, string | number> }

function xml(set: ResponseSet, type: string, body: string): string {
  set.headers['content-type'] = `${type};charset=utf-8`
  set.headers['cache-control'] = 'private, no-cache'
  return body
}

export const opdsRoutes = (deps: Deps) => {
  const acquisition = (set: ResponseSet, request: AcquisitionRequest, guestScoped: boolean) => {
    const body = acquisitionFeed(deps, request, guestScoped)
    if (body === null) return notReady(set)
    return xml(set, ACQUISITION_TYPE, body)
  }
  return new Elysia({ name: 'routes.opds' })
    .use(requestContext(deps))
    .get(
      '/api/opds',
      ({ query, set, guestScoped }) => {
        // LANraragi's catalog takes `category` here: that category's feed (categories/{id}).
        if (!query.category) return xml(set, NAVIGATION_TYPE, rootFeed(deps))
        const page = parseFeedPage(query.page)
        return acquisition(
          set,
          categoryRequest(deps, query.category, page, guestScoped),
          guestScoped,
        )
      },
      { query: OpdsModel.rootQuery },
    )
    .get('/api/opds/opensearch.xml', ({ set }) =>
      xml(set, OPENSEARCH_TYPE, openSearchDescription(deps)),
    )
    .get('/api/opds/categories', ({ set, guestScoped }) =>
      xml(set, NAVIGATION_TYPE, categoriesFeed(deps, guestScoped)),
    )
    .get(
      '/api/opds/categories/:id',
      ({ params, query, set, guestScoped }) =>
        acquisition(
          set,
          categoryRequest(deps, params.id, parseFeedPage(query.page), guestScoped),
          guestScoped,
        ),
      { params: OpdsModel.categoryParams, query: OpdsModel.pageQuery },
    )
    .get(
      '/api/opds/search',
      ({ query, set, guestScoped }) => {
        const q = parseSearchTerms(query.q)
        return acquisition(set, searchRequest(q, parseFeedPage(query.page)), guestScoped)
      },
      { query: OpdsModel.searchQuery },
    )
    .get(
      '/api/opds/:list/pse',
      async ({ params, query, request, guestScoped }) => {
        // LANraragi's OPDS-PSE page read: `page` from 1 (0, none or past the end is page 1); the
        // feeds' PSE links number from 0 (zero_based=true), as PSE does. Sent as JPEG.
        const row = requireArchive(deps, params.list, guestScoped)
        const zeroBased = parseFlag(query.zero_based, 'zero_based')
        const page = parseInteger(query.page, 'page', { fallback: zeroBased ? 0 : 1 })
        const first = zeroBased ? 0 : 1
        const index = page >= first && page < first + row.pagecount ? page - first : 0
        const entry = await pageEntry(deps, row, { index })
        const maxWidth = parseMaxWidth(query.max_width)
        return sendOpdsPage(deps, row, entry, request.headers.get('if-none-match'), maxWidth)
      },
      { params: OpdsModel.listParams, query: OpdsModel.pseQuery },
    )
    .get(
      '/api/opds/:list/thumbnail',
      async ({ params, set, request, guestScoped }) => {
        const row = requireArchive(deps, params.list, guestScoped)
        return sendOpdsCover(await opdsCover(deps, row), set, request)
      },
      { params: OpdsModel.listParams },
    )
    .get(
      '/api/opds/:list/download',
      ({ params, guestScoped }) =>
        // The archive under the comic-book type the entry announced (readers know those).
        sendArchiveFile(deps, requireArchive(deps, params.list, guestScoped), readerMimeType),
      { params: OpdsModel.listParams },
    )
    .get(
      '/api/opds/:list',
      ({ params, query, set, guestScoped }) => {
        // An archive id: LANraragi's single-entry read of that archive.
        if (isArchiveId(params.list)) {
          const row = requireArchive(deps, params.list, guestScoped)
          return xml(set, ENTRY_TYPE, entryDocument(deps, row))
        }
        if (!isListName(params.list)) throw fail.not_found('No such OPDS feed.')
        return acquisition(set, listRequest(params.list, parseFeedPage(query.page)), guestScoped)
      },
      { params: OpdsModel.listParams, query: OpdsModel.pageQuery },
    )
}
