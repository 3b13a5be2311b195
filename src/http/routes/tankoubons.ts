// Tankoubons: list, create/rename, get (plain and full), update, delete, append/remove members,
// progress on the global page, thumbnail, the Tankoubons of an archive, and the language model's
// rename and group suggestions with their ignore list (without a provider key the model routes
// answer 400; the ignore list works without one).
import { Elysia } from 'elysia'
import type { Deps } from '../../deps.ts'
import { requestContext } from '../context.ts'
import { ok } from '../envelope.ts'
import { parseFlag } from '../params.ts'
import { sendThumbnail } from '../thumbnail-response.ts'
import { scopeFor } from '../../domain/search/guest-scope.ts'
import {
  createOrRenameTankoubon,
  deleteTankoubon,
  getFullTankoubon,
  getTankoubon,
  listTankoubons,
  tankoubonsOfArchive,
} from '../../domain/collections/tankoubons.ts'
import {
  appendToTankoubon,
  removeFromTankoubon,
  updateTankoubon,
} from '../../domain/collections/tank-members.ts'
import { updateTankProgress } from '../../domain/collections/tank-progress.ts'
import { getTankThumbnail, setTankThumbnail } from '../../domain/collections/tank-thumbnail.ts'
import { suggestChapterRename, suggestTankRename } from '../../domain/collections/tank-rename.ts'
import {
  ignoreGroupSuggestion,
  listIgnoredGroupSuggestions,
  suggestGroups,
  unignoreGroupSuggestion,
} from '../../domain/collections/group-suggestions.ts'
import {
  TankSuggestionModel,
  TankoubonListResponse,
  TankoubonModel,
  parseListPage,
  parsePageNumber,
  checkTankUpdateBody,
  toWireChapterRename,
  toWireFullTankoubon,
  toWireGroupSuggestions,
  toWireIgnored,
  toWireRenameSuggestions,
  toWireTankoubon,
} from '../models/tankoubons.ts'
import type { PolicyRows } from '../policy.ts'

/** Access policy of this file's routes, keyed by `METHOD /path` as registered (http/policy.ts). */
export const tankoubonsPolicy = {
  'GET /api/archives/:id/tankoubons': {
    op: 'find_arc_tankoubons',
    access: 'any',
    guestScope: true,
  },
  'GET /api/tankoubons': { op: 'get_tankoubon_list', access: 'any', guestScope: true },
  'PUT /api/tankoubons': { op: 'create_tankoubon', access: 'admin' },
  'GET /api/tankoubons/:id': { op: 'get_tankoubon', access: 'any', guestScope: true },
  'GET /api/tankoubons/:id/full': { op: 'get_tankoubon_full', access: 'any', guestScope: true },
  'PUT /api/tankoubons/:id': { op: 'update_tankoubon', access: 'admin' },
  'DELETE /api/tankoubons/:id': { op: 'delete_tankoubon', access: 'admin' },
  'PUT /api/tankoubons/:id/:archive': { op: 'add_to_tankoubon', access: 'admin' },
  'DELETE /api/tankoubons/:id/:archive': { op: 'remove_from_tankoubon', access: 'admin' },
  'PUT /api/tankoubons/:id/progress/:page': { op: 'update_tank_progress', access: 'progress' },
  'GET /api/tankoubons/:id/thumbnail': {
    op: 'serve_tankoubon_thumbnail',
    access: 'any',
    guestScope: true,
  },
  'PUT /api/tankoubons/:id/thumbnail': { op: 'update_tankoubon_thumbnail', access: 'admin' },
  // docs/llm.md: without a provider key the model routes answer 400
  'POST /api/tankoubons/:id/ai/rename-suggestions': {
    op: 'ai_rename_suggestions',
    access: 'admin',
  },
  'POST /api/tankoubons/:id/ai/rename-chapter': { op: 'ai_rename_chapter', access: 'admin' },
  'POST /api/tankoubons/ai-group-suggestions': { op: 'ai_group_suggestions', access: 'admin' },
  'POST /api/tankoubons/ai-group-suggestions/ignore': {
    op: 'ignore_group_suggestion',
    access: 'admin',
  },
  'DELETE /api/tankoubons/ai-group-suggestions/ignore': {
    op: 'unignore_group_suggestion',
    access: 'admin',
  },
  'GET /api/tankoubons/ai-group-suggestions/ignored': {
    op: 'ignored_group_suggestions',
    access: 'any',
  },
} satisfies PolicyRows

export const tankoubonsRoutes = (deps: Deps) =>
  new Elysia({ name: 'routes.tankoubons' })
    .use(requestContext(deps))
    .get(
      '/api/tankoubons',
      ({ query, guestScoped }) => {
        const list = listTankoubons(deps, parseListPage(query.page, 0), scopeFor(deps, guestScoped))
        return {
          filtered: list.filtered,
          result: list.result.map(toWireTankoubon),
          total: list.total,
        }
      },
      { query: TankoubonModel.listQuery, response: TankoubonListResponse },
    )
    .put(
      '/api/tankoubons',
      ({ body, query }) => {
        // LANraragi reads these as request params: the query string or the body (body first).
        const name = body?.name ?? query.name
        const id = createOrRenameTankoubon(deps, { name, tankId: body?.tankid ?? query.tankid })
        return ok({ tankoubon_id: id })
      },
      { body: TankoubonModel.createBody },
    )
    .get(
      '/api/tankoubons/:id',
      ({ params, query, guestScoped }) => {
        // LANraragi clients written before /full ask for the members this way (0.9.7x).
        if (wantsFullData(query.include_full_data))
          return fullTankoubon(deps, params.id, query.page, guestScoped)
        return toWireTankoubon(getTankoubon(deps, params.id, scopeFor(deps, guestScoped)))
      },
      { params: TankoubonModel.params, query: TankoubonModel.getQuery },
    )
    .get(
      '/api/tankoubons/:id/full',
      ({ params, query, guestScoped }) => fullTankoubon(deps, params.id, query.page, guestScoped),
      { params: TankoubonModel.params, query: TankoubonModel.listQuery },
    )
    .put(
      '/api/tankoubons/:id',
      ({ params, body }) => ok({ successMessage: updateTankoubon(deps, params.id, body ?? {}) }),
      {
        params: TankoubonModel.params,
        transform: checkTankUpdateBody,
        body: TankoubonModel.updateBody,
      },
    )
    .delete(
      '/api/tankoubons/:id',
      ({ params }) => {
        deleteTankoubon(deps, params.id)
        return ok()
      },
      { params: TankoubonModel.params },
    )
    .put(
      '/api/tankoubons/:id/progress/:page',
      async ({ params, guestScoped }) => {
        const page = parsePageNumber(params.page, 'progress value')
        return ok(await updateTankProgress(deps, params.id, page, scopeFor(deps, guestScoped)))
      },
      { params: TankoubonModel.pageParams },
    )
    .get(
      '/api/tankoubons/:id/thumbnail',
      async ({ params, query, guestScoped, set }) => {
        const noFallback = parseFlag(query.no_fallback, 'no_fallback')
        const scope = scopeFor(deps, guestScoped)
        return sendThumbnail(await getTankThumbnail(deps, params.id, noFallback, scope), set)
      },
      { params: TankoubonModel.params, query: TankoubonModel.thumbnailQuery },
    )
    .put(
      '/api/tankoubons/:id/thumbnail',
      async ({ params, query }) =>
        ok({ new_thumbnail: await setTankThumbnail(deps, params.id, parsePageNumber(query.page)) }),
      { params: TankoubonModel.params, query: TankoubonModel.thumbnailQuery },
    )
    .put(
      '/api/tankoubons/:id/:archive',
      ({ params }) => ok({ successMessage: appendToTankoubon(deps, params.id, params.archive) }),
      { params: TankoubonModel.memberParams },
    )
    .delete(
      '/api/tankoubons/:id/:archive',
      ({ params }) => ok({ successMessage: removeFromTankoubon(deps, params.id, params.archive) }),
      { params: TankoubonModel.memberParams },
    )
    .get(
      '/api/archives/:id/tankoubons',
      ({ params, guestScoped }) =>
        ok({ tankoubons: tankoubonsOfArchive(deps, params.id, scopeFor(deps, guestScoped)) }),
      { params: TankoubonModel.params },
    )
    .post(
      '/api/tankoubons/:id/ai/rename-suggestions',
      async ({ params, request }) =>
        ok(toWireRenameSuggestions(await suggestTankRename(deps, params.id, request.signal))),
      { params: TankoubonModel.params },
    )
    .post(
      '/api/tankoubons/:id/ai/rename-chapter',
      async ({ params, body, request }) =>
        ok(
          toWireChapterRename(
            await suggestChapterRename(deps, params.id, body.archive_index, request.signal),
          ),
        ),
      { params: TankoubonModel.params, body: TankSuggestionModel.chapterBody },
    )
    .post(
      '/api/tankoubons/ai-group-suggestions',
      async ({ body, request }) =>
        ok(
          toWireGroupSuggestions(
            await suggestGroups(deps, { limit: body?.limit, signal: request.signal }),
          ),
        ),
      { body: TankSuggestionModel.groupBody },
    )
    .post(
      '/api/tankoubons/ai-group-suggestions/ignore',
      ({ body }) => ok(toWireIgnored(ignoreGroupSuggestion(deps, body.archives))),
      { body: TankSuggestionModel.ignoreBody },
    )
    .delete(
      '/api/tankoubons/ai-group-suggestions/ignore',
      ({ body, query }) =>
        ok(
          unignoreGroupSuggestion(deps, {
            key: body?.key ?? query.key,
            archiveIds: body?.archives,
          }),
        ),
      { body: TankSuggestionModel.unignoreBody, query: TankSuggestionModel.unignoreQuery },
    )
    .get('/api/tankoubons/ai-group-suggestions/ignored', () =>
      ok({ ignored: listIgnoredGroupSuggestions(deps).map(toWireIgnored) }),
    )

/** The full response: `{filtered, result (with full_data), total}`, paged by `page` (-1 = all). */
function fullTankoubon(
  deps: Pick<Deps, 'db' | 'search' | 'searchState' | 'settings'>,
  id: string,
  rawPage: string | undefined,
  guestScoped: boolean,
) {
  const page = parseListPage(rawPage, -1)
  const full = getFullTankoubon(deps, id, page, scopeFor(deps, guestScoped))
  return { filtered: full.filtered, result: toWireFullTankoubon(full.result), total: full.total }
}

/** LANraragi's reading of `include_full_data`: any value but empty, `0` or `false` asks for it. */
function wantsFullData(raw: string | undefined): boolean {
  return raw !== undefined && raw !== '' && raw !== '0' && raw.toLowerCase() !== 'false'
}
