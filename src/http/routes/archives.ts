// Archive routes: listing, the untagged list, metadata, pages, thumbnails, upload, delete, rename,
// toc, progress.
import { Elysia } from 'elysia'
import type { Deps } from '../../deps.ts'
import { requestContext } from '../context.ts'
import { ok } from '../envelope.ts'
import { parseFlag, parseInteger, parseMaxWidth, requestParam } from '../params.ts'
import { fail } from '../../errors.ts'
import {
  ArchiveMetadata,
  ArchiveModel,
  FilesResponse,
  conflictError,
  coverPage,
  metadataFields,
  toIngestInput,
  archiveListStream,
  toWireArchive,
  toWireUpload,
} from '../models/archives.ts'
import { requireArchive, visibleArchiveBatches } from '../../domain/archives/lookup.ts'
import {
  INVALID_PROGRESS,
  addTocEntry,
  removeTocEntry,
  setNewFlag,
  clearProgress,
  setProgress,
  updateMetadata,
} from '../../domain/archives/edit.ts'
import {
  listFiles,
  pageDimensions,
  pageEntry,
  type PageSelector,
} from '../../domain/archives/pages.ts'
import { deleteArchive, deleteArchives, deletePatch } from '../../domain/archives/remove.ts'
import { renameArchive } from '../../domain/archives/rename.ts'
import { discardStagedUpload, stageUpload } from '../../domain/archives/stage.ts'
import { ingestStaged } from '../../domain/archives/upload.ts'
import { getThumbnail, queuePageThumbnails, setCover } from '../../domain/archives/thumbnails.ts'
import { sendThumbnail } from '../thumbnail-response.ts'
import { sendArchiveFile } from '../archive-download.ts'
import { sendPage } from '../page-response.ts'
import { readMultipart } from '../multipart.ts'
import { notReady } from '../not-ready.ts'
import { untaggedArchiveIds } from '../../domain/search/stats.ts'
import {
  clearTankNewFlags,
  getTankArchiveThumbnail,
  listTankFiles,
  readsTankAsArchive,
  setTankArchiveProgress,
  tankArchiveMetadata,
  tankPageEntry,
} from '../../domain/collections/tank-as-archive.ts'
import { toWireTankArchive } from '../models/search.ts'
import type { PolicyRows } from '../policy.ts'

/** Access policy of this file's routes, keyed by `METHOD /path` as registered (http/policy.ts). */
export const archivesPolicy = {
  'GET /api/archives': { op: 'list_archives', access: 'any', guestScope: true },
  'DELETE /api/archives': { op: 'delete_archives', access: 'session' },
  'GET /api/archives/untagged': { op: 'untagged_archives', access: 'any', guestScope: true },
  'PUT /api/archives/upload': { op: 'upload', access: 'admin', body: 'stream' },
  'GET /api/archives/:id': { op: 'metadata', access: 'any', guestScope: true },
  'DELETE /api/archives/:id': { op: 'delete_archive', access: 'admin' },
  'GET /api/archives/:id/download': { op: 'serve_file', access: 'any', guestScope: true },
  'GET /api/archives/:id/files': { op: 'get_file_list', access: 'any', guestScope: true },
  'POST /api/archives/:id/files/thumbnails': { op: 'generate_page_thumbnails', access: 'admin' },
  'PUT /api/archives/:id/isnew': { op: 'add_new', access: 'admin' },
  'DELETE /api/archives/:id/isnew': { op: 'clear_new', access: 'admin' },
  'GET /api/archives/:id/metadata': { op: 'metadata', access: 'any', guestScope: true },
  'PUT /api/archives/:id/metadata': { op: 'update_metadata', access: 'admin' },
  'GET /api/archives/:id/page': { op: 'serve_page', access: 'any', guestScope: true },
  'GET /api/archives/:id/page-dimensions': {
    op: 'page_dimensions',
    access: 'any',
    guestScope: true,
  },
  'DELETE /api/archives/:id/patch': { op: 'delete_patch', access: 'admin' },
  'PUT /api/archives/:id/progress/:page': { op: 'update_progress', access: 'progress' },
  'PUT /api/archives/:id/rename': { op: 'rename_archive', access: 'admin' },
  'GET /api/archives/:id/thumbnail': { op: 'serve_thumbnail', access: 'any', guestScope: true },
  'PUT /api/archives/:id/thumbnail': { op: 'update_thumbnail', access: 'admin' },
  'PUT /api/archives/:id/toc': { op: 'add_toc', access: 'admin' },
  'DELETE /api/archives/:id/toc': { op: 'remove_toc', access: 'admin' },
} satisfies PolicyRows

export const archivesRoutes = (deps: Deps) =>
  new Elysia({ name: 'routes.archives' })
    .use(requestContext(deps))
    .get(
      '/api/archives',
      ({ guestScoped }) =>
        new Response(archiveListStream(visibleArchiveBatches(deps, guestScoped)), {
          headers: { 'content-type': 'application/json;charset=utf-8' },
        }),
    )
    .delete(
      '/api/archives',
      async ({ body }) => ok({ results: await deleteArchives(deps, body.ids) }),
      { body: ArchiveModel.deleteBody },
    )
    // From the search index: a bare 204 until it is built.
    .get(
      '/api/archives/untagged',
      ({ guestScoped, set }) => untaggedArchiveIds(deps, guestScoped) ?? notReady(set),
    )
    // The body streams (policy `body: 'stream'`): the file part is staged as it arrives, after the
    // access check has run on the headers.
    .put('/api/archives/upload', async ({ request }) => {
      const form = await readMultipart(request, deps.config, {
        field: 'file',
        receive: (name, content) => stageUpload(deps, name, content),
        discard: discardStagedUpload,
      })
      const ingested = await ingestStaged(deps, form.file, toIngestInput(form.fields))
      if (ingested.kind !== 'placed') throw conflictError(ingested)
      return ok(toWireUpload(ingested.row))
    })
    .get(
      '/api/archives/:id/metadata',
      ({ params, guestScoped }) => metadataOf(deps, params.id, guestScoped),
      { params: ArchiveModel.params, response: ArchiveMetadata },
    )
    // LANraragi's older (deprecated, still routed) spelling of the metadata read.
    .get(
      '/api/archives/:id',
      ({ params, guestScoped }) => metadataOf(deps, params.id, guestScoped),
      { params: ArchiveModel.params, response: ArchiveMetadata },
    )
    .put(
      '/api/archives/:id/metadata',
      async ({ params, query, body }) => {
        const row = requireArchive(deps, params.id)
        const updated = await updateMetadata(deps, row, metadataFields(body, query))
        return ok({ successMessage: `Updated metadata for "${updated.title}"!` })
      },
      {
        params: ArchiveModel.params,
        query: ArchiveModel.metadataQuery,
        body: ArchiveModel.metadataBody,
      },
    )
    .delete(
      '/api/archives/:id',
      async ({ params }) => ok(await deleteArchive(deps, requireArchive(deps, params.id))),
      { params: ArchiveModel.params },
    )
    .get(
      '/api/archives/:id/download',
      ({ params, guestScoped }) =>
        sendArchiveFile(deps, requireArchive(deps, params.id, guestScoped)),
      { params: ArchiveModel.params },
    )
    .get(
      '/api/archives/:id/files',
      ({ params, query, guestScoped }) => {
        const force = parseFlag(query.force, 'force')
        if (readsTankAsArchive(deps, params.id))
          return listTankFiles(deps, params.id, force, guestScoped)
        return listFiles(deps, requireArchive(deps, params.id, guestScoped), force)
      },
      { params: ArchiveModel.params, query: ArchiveModel.forceQuery, response: FilesResponse },
    )
    .post(
      '/api/archives/:id/files/thumbnails',
      ({ params, query, body, set }) => {
        const row = requireArchive(deps, params.id)
        const force = parseFlag(requestParam(query, body, 'force'), 'force')
        const outcome = queuePageThumbnails(deps, row, force)
        if (outcome.kind === 'complete')
          return ok({ message: 'No job queued, all thumbnails already exist.' })
        set.status = 202
        return ok({ job: outcome.job })
      },
      {
        params: ArchiveModel.params,
        query: ArchiveModel.forceQuery,
        body: ArchiveModel.paramsBody,
      },
    )
    .put(
      '/api/archives/:id/isnew',
      async ({ params }) => {
        await setNewFlag(deps, requireArchive(deps, params.id), true)
        return ok({ id: params.id })
      },
      { params: ArchiveModel.params },
    )
    .delete(
      '/api/archives/:id/isnew',
      async ({ params }) => {
        if (readsTankAsArchive(deps, params.id)) await clearTankNewFlags(deps, params.id)
        else await setNewFlag(deps, requireArchive(deps, params.id), false)
        return ok({ id: params.id })
      },
      { params: ArchiveModel.params },
    )
    .get(
      '/api/archives/:id/page',
      async ({ params, query, request, guestScoped }) => {
        const { row, entry } = await pageOf(deps, params.id, pageSelector(query), guestScoped)
        const maxWidth = parseMaxWidth(query.max_width)
        return sendPage(deps, row, entry, request.headers.get('if-none-match'), maxWidth)
      },
      { params: ArchiveModel.params, query: ArchiveModel.pageQuery },
    )
    .get(
      '/api/archives/:id/page-dimensions',
      async ({ params, query, guestScoped }) => {
        const row = requireArchive(deps, params.id, guestScoped)
        const count = parseInteger(query.count, 'count', { min: 1, fallback: row.pagecount })
        return ok({ dimensions: await pageDimensions(deps, row, count) })
      },
      { params: ArchiveModel.params, query: ArchiveModel.dimensionsQuery },
    )
    .put(
      '/api/archives/:id/progress/:page',
      async ({ params, query, body }) => {
        // LANraragi's `force` skips the page checks: clients clear progress with page 0.
        const force = parseFlag(requestParam(query, body, 'force'), 'force')
        const page = progressPage(params.page, force)
        if (readsTankAsArchive(deps, params.id))
          return ok(await setTankArchiveProgress(deps, params.id, page))
        const row = requireArchive(deps, params.id)
        const updated =
          page === 0 ? await clearProgress(deps, row) : await setProgress(deps, row, page)
        return ok({ id: row.id, page, lastreadtime: updated.lastreadtime })
      },
      {
        params: ArchiveModel.progressParams,
        query: ArchiveModel.progressQuery,
        body: ArchiveModel.paramsBody,
      },
    )
    .put(
      '/api/archives/:id/rename',
      async ({ params, body }) => {
        const row = await renameArchive(deps, requireArchive(deps, params.id), body.filename)
        return ok({ filename: `${row.filename}.${row.extension}` })
      },
      { params: ArchiveModel.params, body: ArchiveModel.renameBody },
    )
    .get(
      '/api/archives/:id/thumbnail',
      async ({ params, query, set, request, guestScoped }) => {
        const tank = readsTankAsArchive(deps, params.id)
        const row = tank ? null : requireArchive(deps, params.id, guestScoped)
        const page = parseInteger(query.page, 'page', { min: 0, fallback: 0 })
        const noFallback = parseFlag(query.no_fallback, 'no_fallback')
        const outcome = row
          ? await getThumbnail(deps, row, { page, noFallback })
          : await getTankArchiveThumbnail(deps, params.id, { page, noFallback }, guestScoped)
        return sendThumbnail(outcome, set, request)
      },
      { params: ArchiveModel.params, query: ArchiveModel.thumbnailQuery },
    )
    .put(
      '/api/archives/:id/thumbnail',
      async ({ params, query, body }) => {
        requireArchive(deps, params.id)
        // LANraragi reads a page of 0 like an absent one: the default, page 1.
        const page = parseInteger(coverPage(body, query), 'page', { min: 0, fallback: 1 }) || 1
        return ok({ new_thumbnail: await setCover(deps, params.id, page) })
      },
      { params: ArchiveModel.params, query: ArchiveModel.coverQuery, body: ArchiveModel.coverBody },
    )
    .put(
      '/api/archives/:id/toc',
      async ({ params, query, body }) => {
        const row = requireArchive(deps, params.id)
        const page = parseInteger(requestParam(query, body, 'page'), 'page', { min: 1 })
        const title = requestParam(query, body, 'title')?.trim()
        if (!title) throw fail.bad_request('Missing title.')
        await addTocEntry(deps, row, page, title)
        return ok({ successMessage: `Added ToC entry for page ${page}.` })
      },
      { params: ArchiveModel.params, query: ArchiveModel.tocQuery, body: ArchiveModel.paramsBody },
    )
    .delete(
      '/api/archives/:id/toc',
      async ({ params, query, body }) => {
        const row = requireArchive(deps, params.id)
        const page = parseInteger(requestParam(query, body, 'page'), 'page', { min: 1 })
        await removeTocEntry(deps, row, page)
        return ok({ successMessage: `Removed ToC entry for page ${page}.` })
      },
      { params: ArchiveModel.params, query: ArchiveModel.tocQuery, body: ArchiveModel.paramsBody },
    )
    .delete(
      '/api/archives/:id/patch',
      async ({ params }) => {
        const row = await deletePatch(deps, requireArchive(deps, params.id))
        return ok({ id: row.id })
      },
      { params: ArchiveModel.params },
    )

/** Archive metadata, or a Tankoubon's as one long archive (tankoubons_as_archives). */
function metadataOf(
  deps: Pick<Deps, 'db' | 'search' | 'searchState' | 'settings'>,
  id: string,
  guestScoped: boolean,
) {
  if (!readsTankAsArchive(deps, id)) return toWireArchive(requireArchive(deps, id, guestScoped))
  const { tank, toc } = tankArchiveMetadata(deps, id, guestScoped)
  return { ...toWireTankArchive(tank), toc }
}

/** The archive and entry a page request names; under a Tankoubon's id, a member's. */
async function pageOf(
  deps: Pick<Deps, 'config' | 'db' | 'reader' | 'search' | 'searchState' | 'settings'>,
  id: string,
  selector: PageSelector,
  guestScoped: boolean,
) {
  if (readsTankAsArchive(deps, id)) return tankPageEntry(deps, id, selector, guestScoped)
  const row = requireArchive(deps, id, guestScoped)
  // Checked after the archive: a guest gets its 404 for a hidden archive first.
  return { row, entry: await pageEntry(deps, row, selector) }
}

/**
 * `path=` (an entry name) or `page=N`: 1-based, or 0-based with zero_based=true (the numbering
 * of the OPDS-PSE stream link, docs/clients.md).
 */
function pageSelector(query: { path?: string; page?: string; zero_based?: string }): PageSelector {
  if (query.path !== undefined) return { path: query.path }
  if (query.page === undefined) throw fail.bad_request('Missing path.')
  const zeroBased = parseFlag(query.zero_based, 'zero_based')
  const page = parseInteger(query.page, 'page', { min: zeroBased ? 0 : 1 })
  return { index: zeroBased ? page : page - 1, asked: page }
}

/** The page of a progress update; LANraragi refuses any it cannot store with one message. */
function progressPage(raw: string, force: boolean): number {
  if (!/^\d{1,9}$/.test(raw) || (!force && Number(raw) < 1))
    throw fail.bad_request(INVALID_PROGRESS)
  return Number(raw)
}
