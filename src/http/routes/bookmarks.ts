// Bookmarks: per archive, per Tankoubon (global pages resolved to member + local page),
// the aggregated list, and the two display preferences.
import { Elysia } from 'elysia'
import type { Deps } from '../../deps.ts'
import { requestContext } from '../context.ts'
import { ok } from '../envelope.ts'
import { scopeFor } from '../../domain/search/guest-scope.ts'
import {
  addBookmark,
  archiveBookmarks,
  removeBookmark,
  renameBookmark,
} from '../../domain/collections/bookmarks.ts'
import { listBookmarkEntries } from '../../domain/collections/bookmark-list.ts'
import {
  getHoverPageOrder,
  getOnlyMatching,
  setHoverPageOrder,
  setOnlyMatching,
} from '../../domain/collections/bookmark-prefs.ts'
import { tankBookmarks } from '../../domain/collections/tank-bookmarks.ts'
import { resolveTankPage } from '../../domain/collections/tank-progress.ts'
import {
  BookmarkModel,
  parseListOptions,
  toWireBookmark,
  toWireBookmarkEntry,
  toWireTankBookmark,
} from '../models/bookmarks.ts'
import { parsePageNumber } from '../models/tankoubons.ts'
import type { PolicyRows } from '../policy.ts'

/** Access policy of this file's routes, keyed by `METHOD /path` as registered (http/policy.ts). */
export const bookmarksPolicy = {
  'GET /api/tankoubons/:id/bookmarks': {
    op: 'list_tank_bookmarks',
    access: 'any',
    guestScope: true,
  },
  'POST /api/tankoubons/:id/bookmarks/:page': { op: 'add_bookmark', access: 'admin' },
  'DELETE /api/tankoubons/:id/bookmarks/:page': { op: 'remove_bookmark', access: 'admin' },
  'PUT /api/tankoubons/:id/bookmarks/:page/name': { op: 'rename_bookmark', access: 'admin' },
  'GET /api/archives/:id/bookmarks': {
    op: 'list_archive_bookmarks',
    access: 'any',
    guestScope: true,
  },
  'POST /api/archives/:id/bookmarks/:page': { op: 'add_bookmark', access: 'admin' },
  'DELETE /api/archives/:id/bookmarks/:page': { op: 'remove_bookmark', access: 'admin' },
  'PUT /api/archives/:id/bookmarks/:page/name': { op: 'rename_bookmark', access: 'admin' },
  'GET /api/bookmarks': { op: 'list_bookmarks', access: 'any', guestScope: true },
  'GET /api/bookmarks/hover-page-order': {
    op: 'get_hover_page_order',
    access: 'any',
    guestScope: true,
  },
  'PUT /api/bookmarks/hover-page-order': { op: 'put_hover_page_order', access: 'admin' },
  'GET /api/bookmarks/only-matching': {
    op: 'get_only_matching_bookmarks',
    access: 'any',
    guestScope: true,
  },
  'PUT /api/bookmarks/only-matching': { op: 'put_only_matching_bookmarks', access: 'admin' },
} satisfies PolicyRows

/** The member archive and local page a Tankoubon's global page lands on. */
function tankTarget(deps: Pick<Deps, 'db'>, params: { id: string; page: string }) {
  const resolved = resolveTankPage(deps, params.id, parsePageNumber(params.page))
  return { archiveId: resolved.archiveId, page: resolved.localPage }
}

export const bookmarksRoutes = (deps: Deps) =>
  new Elysia({ name: 'routes.bookmarks' })
    .use(requestContext(deps))
    .get(
      '/api/archives/:id/bookmarks',
      ({ params, guestScoped }) =>
        archiveBookmarks(deps, params.id, scopeFor(deps, guestScoped)).map(toWireBookmark),
      { params: BookmarkModel.archiveParams },
    )
    .post(
      '/api/archives/:id/bookmarks/:page',
      ({ params }) => {
        const page = parsePageNumber(params.page)
        addBookmark(deps, params.id, page)
        return ok({ archive_id: params.id, page })
      },
      { params: BookmarkModel.pageParams },
    )
    .delete(
      '/api/archives/:id/bookmarks/:page',
      ({ params }) => {
        const page = parsePageNumber(params.page)
        removeBookmark(deps, params.id, page)
        return ok({ archive_id: params.id, page })
      },
      { params: BookmarkModel.pageParams },
    )
    .put(
      '/api/archives/:id/bookmarks/:page/name',
      ({ params, body }) => {
        const page = parsePageNumber(params.page)
        const name = renameBookmark(deps, params.id, page, body.name)
        return ok({ archive_id: params.id, page, name })
      },
      { params: BookmarkModel.pageParams, body: BookmarkModel.renameBody },
    )
    .get(
      '/api/bookmarks',
      ({ query, guestScoped }) => {
        const list = listBookmarkEntries(deps, parseListOptions(query), scopeFor(deps, guestScoped))
        return { entries: list.entries.map(toWireBookmarkEntry), next_cursor: list.nextCursor }
      },
      { query: BookmarkModel.listQuery },
    )
    .get('/api/bookmarks/hover-page-order', () => ({ order: getHoverPageOrder(deps) }))
    .put(
      '/api/bookmarks/hover-page-order',
      ({ body }) => ok({ order: setHoverPageOrder(deps, body.order) }),
      { body: BookmarkModel.hoverOrderBody },
    )
    .get('/api/bookmarks/only-matching', () => ({ only_matching: getOnlyMatching(deps) }))
    .put(
      '/api/bookmarks/only-matching',
      ({ body }) => ok({ only_matching: setOnlyMatching(deps, body.only_matching) }),
      { body: BookmarkModel.onlyMatchingBody },
    )
    .get(
      '/api/tankoubons/:id/bookmarks',
      ({ params, guestScoped }) =>
        tankBookmarks(deps, params.id, scopeFor(deps, guestScoped)).map(toWireTankBookmark),
      { params: BookmarkModel.archiveParams },
    )
    .post(
      '/api/tankoubons/:id/bookmarks/:page',
      ({ params }) => {
        const target = tankTarget(deps, params)
        addBookmark(deps, target.archiveId, target.page)
        return ok({ archive_id: target.archiveId, page: target.page })
      },
      { params: BookmarkModel.pageParams },
    )
    .delete(
      '/api/tankoubons/:id/bookmarks/:page',
      ({ params }) => {
        const target = tankTarget(deps, params)
        removeBookmark(deps, target.archiveId, target.page)
        return ok({ archive_id: target.archiveId, page: target.page })
      },
      { params: BookmarkModel.pageParams },
    )
    .put(
      '/api/tankoubons/:id/bookmarks/:page/name',
      ({ params, body }) => {
        const target = tankTarget(deps, params)
        const name = renameBookmark(deps, target.archiveId, target.page, body.name)
        return ok({ archive_id: target.archiveId, page: target.page, name })
      },
      { params: BookmarkModel.pageParams, body: BookmarkModel.renameBody },
    )
