// The download queue (docs/downloads.md): the list, bulk add, edit, delete, starts and stops,
// conflict answers, metadata previews, its event stream, and the one-off POST /api/download_url.
// The comparison routes are download-compare.ts.
import { Elysia } from 'elysia'
import type { Deps } from '../../deps.ts'
import { isAdmin } from '../../domain/auth/caller.ts'
import { requestContext } from '../context.ts'
import { ok } from '../envelope.ts'
import { requestParam } from '../params.ts'
import { queueStream } from '../download-queue-stream.ts'
import {
  addToQueue,
  clearCompleted,
  deleteQueueItem,
  deleteSelected,
  editQueueItem,
  listQueue,
} from '../../domain/downloads/queue.ts'
import {
  confirmOlder,
  startAll,
  startItem,
  startSelected,
  stopItem,
} from '../../domain/downloads/start.ts'
import { overwriteConflict, renameConflict } from '../../domain/downloads/resolve.ts'
import { fetchItemMetadata } from '../../domain/downloads/metadata.ts'
import { queueDownloadUrl } from '../../domain/downloads/download-url.ts'
import type { IngestOutcome } from '../../domain/downloads/ingest.ts'
import {
  DownloadModel,
  toQueueEntry,
  toQueueItemEdit,
  toWireDownloadItem,
} from '../models/downloads.ts'
import { toInsertionRequest } from '../models/download-compare.ts'
import type { PolicyRows } from '../policy.ts'

/** Access policy of this file's routes, keyed by `METHOD /path` as registered (http/policy.ts). */
export const downloadQueuePolicy = {
  'GET /api/download_queue': { op: 'list_download_queue', access: 'any' },
  'POST /api/download_queue': { op: 'add_to_download_queue', access: 'admin' },
  'GET /api/download_queue/stream': { op: 'download_queue_stream', access: 'any' },
  'POST /api/download_queue/clear_completed': { op: 'clear_completed_downloads', access: 'admin' },
  'POST /api/download_queue/start_all': { op: 'start_all_downloads', access: 'admin' },
  'POST /api/download_queue/start_selected': { op: 'start_selected_downloads', access: 'admin' },
  'POST /api/download_queue/delete_selected': { op: 'delete_selected_downloads', access: 'admin' },
  'DELETE /api/download_queue/:id': { op: 'delete_download', access: 'admin' },
  'PATCH /api/download_queue/:id': { op: 'update_download', access: 'session' },
  'POST /api/download_queue/:id/start': { op: 'start_download', access: 'admin' },
  'POST /api/download_queue/:id/stop': { op: 'stop_download', access: 'admin' },
  'POST /api/download_queue/:id/confirm-older': { op: 'confirm_older_download', access: 'admin' },
  'POST /api/download_queue/:id/fetch-metadata': { op: 'fetch_download_metadata', access: 'admin' },
  'POST /api/download_queue/:id/overwrite': { op: 'overwrite_download', access: 'admin' },
  'POST /api/download_queue/:id/rename': { op: 'rename_download', access: 'admin' },
  'POST /api/download_url': { op: 'download_url', access: 'admin' },
} satisfies PolicyRows

const wireOutcome = (outcome: IngestOutcome) =>
  outcome.kind === 'done'
    ? { state: 'done', archive_id: outcome.archiveId }
    : outcome.kind === 'duplicate'
      ? { state: 'error', existing_id: outcome.existingId }
      : { state: 'waiting', existing_id: outcome.existingId, filename: outcome.filename }

export const downloadQueueRoutes = (deps: Deps) =>
  new Elysia({ name: 'routes.download-queue' })
    .use(requestContext(deps))
    .get('/api/download_queue', ({ caller }) => {
      const credentials = isAdmin(caller)
      return { items: listQueue(deps).map((row) => toWireDownloadItem(row, credentials)) }
    })
    .post(
      '/api/download_queue',
      async ({ body }) => {
        const { added, rejected } = await addToQueue(deps, body.items.map(toQueueEntry))
        return ok({ added: added.map((row) => toWireDownloadItem(row, true)), rejected })
      },
      { body: DownloadModel.addBody },
    )
    .get('/api/download_queue/stream', ({ request, caller, ip }) =>
      queueStream(deps, caller, ip, request.signal),
    )
    .post('/api/download_queue/clear_completed', () => ok({ count: clearCompleted(deps) }))
    .post('/api/download_queue/start_all', async () => ok(await startAll(deps)))
    .post(
      '/api/download_queue/start_selected',
      async ({ body }) => ok(await startSelected(deps, body.ids)),
      { body: DownloadModel.idsBody },
    )
    .post(
      '/api/download_queue/delete_selected',
      async ({ body }) => ok({ deleted: await deleteSelected(deps, body.ids) }),
      { body: DownloadModel.idsBody },
    )
    .delete(
      '/api/download_queue/:id',
      async ({ params }) => {
        await deleteQueueItem(deps, params.id)
        return ok({ id: params.id })
      },
      { params: DownloadModel.idParams },
    )
    .patch(
      '/api/download_queue/:id',
      async ({ params, body }) =>
        ok({
          item: toWireDownloadItem(
            await editQueueItem(deps, params.id, toQueueItemEdit(body)),
            true,
          ),
        }),
      { params: DownloadModel.idParams, body: DownloadModel.editBody },
    )
    .post(
      '/api/download_queue/:id/start',
      async ({ params }) => ok({ id: params.id, job: await startItem(deps, params.id) }),
      { params: DownloadModel.idParams },
    )
    .post(
      '/api/download_queue/:id/stop',
      ({ params }) => ok({ id: params.id, stopped: stopItem(deps, params.id) }),
      { params: DownloadModel.idParams },
    )
    .post(
      '/api/download_queue/:id/confirm-older',
      async ({ params, body }) =>
        ok({ id: params.id, ...(await confirmOlder(deps, params.id, body.proceed)) }),
      { params: DownloadModel.idParams, body: DownloadModel.confirmOlderBody },
    )
    .post(
      '/api/download_queue/:id/fetch-metadata',
      async ({ params }) => {
        const preview = await fetchItemMetadata(deps, params.id)
        return ok({
          id: params.id,
          plugin: preview.plugin,
          data: preview.data,
          fetched_at: preview.fetchedAt,
          cached: preview.cached,
        })
      },
      { params: DownloadModel.idParams },
    )
    .post(
      '/api/download_queue/:id/overwrite',
      async ({ params, body }) =>
        ok({
          id: params.id,
          ...wireOutcome(
            await overwriteConflict(deps, params.id, body?.insertions?.map(toInsertionRequest)),
          ),
        }),
      { params: DownloadModel.idParams, body: DownloadModel.overwriteBody },
    )
    .post(
      '/api/download_queue/:id/rename',
      async ({ params, body }) =>
        ok({ id: params.id, ...wireOutcome(await renameConflict(deps, params.id, body.filename)) }),
      { params: DownloadModel.idParams, body: DownloadModel.renameBody },
    )
    // `url` and `catid` are request params to LANraragi: the query's, else a form body's (the
    // spec's multipart body).
    .post(
      '/api/download_url',
      async ({ query, body }) =>
        ok(
          await queueDownloadUrl(deps, {
            url: requestParam(query, body, 'url'),
            catid: requestParam(query, body, 'catid'),
          }),
        ),
      { query: DownloadModel.downloadUrlQuery, body: DownloadModel.downloadUrlBody },
    )
