// Download comparison routes: a staged download (side a) against the archive its filename collides
// with (side b): the comparison (whole, or streamed), each side's pages, a patch export, keep-b.
import { Elysia } from 'elysia'
import type { Deps } from '../../deps.ts'
import { AppError } from '../../errors.ts'
import { createLogger } from '../../log.ts'
import { requestContext } from '../context.ts'
import { ok } from '../envelope.ts'
import { parseInteger } from '../params.ts'
import { sseResponse } from '../sse.ts'
import {
  CompareModel,
  parseSide,
  toInsertionRequest,
  toWireComparison,
  toWireSampleEvent,
} from '../models/download-compare.ts'
import {
  compareDownload,
  listSidePages,
  readSidePage,
  requireCompareSides,
} from '../../domain/downloads/compare.ts'
import { exportPatch, keepExisting } from '../../domain/downloads/compare-patch.ts'
import { pageMimeType } from '../../model/formats.ts'
import type { PolicyRows } from '../policy.ts'

/** Access policy of this file's routes, keyed by `METHOD /path` as registered (http/policy.ts). */
export const downloadComparePolicy = {
  'POST /api/download_queue/:id/compare': { op: 'compare_download', access: 'admin' },
  'GET /api/download_queue/:id/compare/stream': { op: 'compare_download_stream', access: 'any' },
  'GET /api/download_queue/:id/compare/pages': { op: 'compare_pages', access: 'any' },
  'GET /api/download_queue/:id/compare/page': { op: 'compare_page', access: 'any' },
  'POST /api/download_queue/:id/compare/export-patch': { op: 'export_patch', access: 'admin' },
  'POST /api/download_queue/:id/compare/keep-b': { op: 'compare_keep_b', access: 'admin' },
} satisfies PolicyRows

const log = createLogger('http.compare')

export const downloadCompareRoutes = (deps: Deps) =>
  new Elysia({ name: 'routes.download-compare' })
    .use(requestContext(deps))
    .post(
      '/api/download_queue/:id/compare',
      async ({ params }) => ok(toWireComparison(await compareDownload(deps, params.id))),
      { params: CompareModel.params },
    )
    .get(
      '/api/download_queue/:id/compare/stream',
      ({ params, request }) => {
        // An unknown item or one with nothing to compare is an Env answer, not a stream.
        requireCompareSides(deps, params.id)
        return sseResponse((sink) => {
          void compareDownload(deps, params.id, (event) =>
            sink.send('sample', toWireSampleEvent(event)),
          )
            .then(
              (result) => sink.send('done', toWireComparison(result)),
              (error: unknown) => {
                if (!(error instanceof AppError))
                  log.error('comparison failed', { item: params.id, error: String(error) })
                const message = error instanceof AppError ? error.message : 'internal error'
                sink.send('error', { error: message })
              },
            )
            .finally(() => {
              sink.send('end', {})
              sink.close()
            })
        }, request.signal)
      },
      { params: CompareModel.params },
    )
    .get(
      '/api/download_queue/:id/compare/pages',
      async ({ params, query }) => {
        const side = parseSide(query.side)
        return ok({ side, pages: await listSidePages(deps, params.id, side) })
      },
      { params: CompareModel.params, query: CompareModel.pagesQuery },
    )
    .get(
      '/api/download_queue/:id/compare/page',
      async ({ params, query }) => {
        const side = parseSide(query.side)
        const index = parseInteger(query.index, 'index', { min: 0 })
        const page = await readSidePage(deps, params.id, side, index)
        return new Response(page.bytes, {
          headers: { 'content-type': pageMimeType(page.entry), 'cache-control': 'no-store' },
        })
      },
      { params: CompareModel.params, query: CompareModel.pageQuery },
    )
    .post(
      '/api/download_queue/:id/compare/export-patch',
      async ({ params, body }) => {
        const zip = await exportPatch(deps, params.id, body.insertions.map(toInsertionRequest))
        return new Response(zip as Uint8Array<ArrayBuffer>, {
          headers: {
            'content-type': 'application/zip',
            'content-disposition': 'attachment; filename="export.patch.zip"',
          },
        })
      },
      { params: CompareModel.params, body: CompareModel.exportBody },
    )
    .post(
      '/api/download_queue/:id/compare/keep-b',
      async ({ params, body }) => {
        const insertions = (body?.insertions ?? []).map(toInsertionRequest)
        const kept = await keepExisting(deps, params.id, insertions)
        return ok({ id: params.id, archive_id: kept.archive.id, inserted: kept.inserted })
      },
      { params: CompareModel.params, body: CompareModel.keepBody },
    )
