// The download queue (SPEC.md section 4 "Download queue"): the list, bulk add, edit, delete,
// starts and stops, conflict answers, metadata previews, its event stream, and the one-off
// POST /api/download_url. The comparison routes are download-compare.ts.
import { Elysia } from 'elysia'
import type { Deps } from '../../deps.ts'
import type { EventOf } from '../../events.ts'
import { requestContext } from '../context.ts'
import { ok } from '../envelope.ts'
import { requestParam } from '../params.ts'
import { sseResponse } from '../sse.ts'
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
import { itemOfJob } from '../../domain/downloads/runtime.ts'
import type { IngestOutcome } from '../../domain/downloads/ingest.ts'
import { DownloadModel, toWireDownloadItem } from '../models/downloads.ts'

/** Progress deltas per item and stream: at most one per this many ms (about four a second). */
const PROGRESS_DELTA_MS = 250

const wireOutcome = (outcome: IngestOutcome) =>
  outcome.kind === 'done'
    ? { state: 'done', archive_id: outcome.archiveId }
    : outcome.kind === 'duplicate'
      ? { state: 'error', existing_id: outcome.existingId }
      : { state: 'waiting', existing_id: outcome.existingId, filename: outcome.filename }

/**
 * The queue's stream: `full` with every item, then a `delta` after each committed write (add,
 * update, remove) and transfer progress of running downloads, throttled per item.
 */
function queueStream(deps: Deps, signal: AbortSignal): Response {
  return sseResponse((sink) => {
    // Read and subscribed in one tick: no write can fall between the list and the deltas.
    sink.send('full', { type: 'full', items: listQueue(deps).map(toWireDownloadItem) })
    const lastProgress = new Map<string, number>()
    const onSaved = (event: EventOf<'download.saved'>) => {
      const item = toWireDownloadItem(event.row)
      sink.send(
        'delta',
        event.created
          ? { type: 'delta', kind: 'add', item }
          : { type: 'delta', kind: 'update', ...item },
      )
    }
    const onRemoved = (event: EventOf<'download.removed'>) => {
      lastProgress.delete(event.id)
      sink.send('delta', { type: 'delta', kind: 'remove', id: event.id })
    }
    const onProgress = (event: EventOf<'job.progress'>) => {
      if (event.downloadedBytes === undefined) return
      const id = itemOfJob(deps, event.id)
      if (!id) return
      const now = Date.now()
      if (now - (lastProgress.get(id) ?? 0) < PROGRESS_DELTA_MS) return
      lastProgress.set(id, now)
      sink.send('delta', {
        type: 'delta',
        kind: 'progress',
        id,
        job_id: event.id,
        downloaded_bytes: event.downloadedBytes,
        ...(event.totalBytes !== undefined ? { total_bytes: event.totalBytes } : {}),
      })
    }
    const stops = [
      deps.events.subscribe('download.saved', onSaved),
      deps.events.subscribe('download.removed', onRemoved),
      deps.events.subscribe('job.progress', onProgress),
    ]
    return () => stops.forEach((stop) => stop())
  }, signal)
}

export const downloadQueueRoutes = (deps: Deps) =>
  new Elysia({ name: 'routes.download-queue' })
    .use(requestContext(deps))
    .get('/api/download_queue', () => ({ items: listQueue(deps).map(toWireDownloadItem) }))
    .post(
      '/api/download_queue',
      async ({ body }) => {
        const { added, rejected } = await addToQueue(deps, body.items)
        return ok({ added: added.map(toWireDownloadItem), rejected })
      },
      { body: DownloadModel.addBody },
    )
    .get('/api/download_queue/stream', ({ request }) => queueStream(deps, request.signal))
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
        ok({ item: toWireDownloadItem(await editQueueItem(deps, params.id, body)) }),
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
          ...wireOutcome(await overwriteConflict(deps, params.id, body?.insertions)),
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
