// Archive routes: listing, metadata, pages, thumbnails, upload, delete, rename, toc, progress.
import { Elysia, t } from 'elysia'
import type { Deps } from '../../deps.ts'
import { requestContext } from '../context.ts'
import { ok } from '../envelope.ts'
import { parseFlag, parseInteger } from '../params.ts'
import { fail } from '../../errors.ts'
import { toWireArchive } from '../models/archives.ts'
import { listVisibleArchives, requireArchive } from '../../domain/archives/lookup.ts'
import {
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
  pageEtag,
  readPageBytes,
  requirePage,
} from '../../domain/archives/pages.ts'
import {
  deleteArchive,
  deleteArchives,
  deletePatch,
  requireIdList,
} from '../../domain/archives/remove.ts'
import { renameArchive } from '../../domain/archives/rename.ts'
import { discardStagedUpload, uploadArchive } from '../../domain/archives/upload.ts'
import { findThumbnailFile, getThumbnail, setCover } from '../../domain/archives/thumbnails.ts'
import { sendThumbnail } from '../thumbnail-response.ts'
import { etagMatches } from '../conditional.ts'
import { leaveBodyUnread, readUploadForm } from '../upload-form.ts'
import { addToCategory, getCategory } from '../../domain/collections/categories.ts'
import { toAbsolutePath } from '../../domain/archives/files.ts'
import { archiveMimeType, pageMimeType } from '../../model/formats.ts'

const IdParams = t.Object({ id: t.String() })

/** String fields of a form or JSON body; anything else is ignored. */
function formFields(body: unknown): Record<string, string> {
  if (!body || typeof body !== 'object') return {}
  return Object.fromEntries(Object.entries(body).filter(([, v]) => typeof v === 'string'))
}
const Query = t.Record(t.String(), t.String())

/**
 * `filename` (quoted, ASCII only) for clients that read nothing else, and `filename*` (RFC 6266,
 * UTF-8) with the exact name for those that do.
 */
function attachmentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')
  const exact = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  )
  return `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`
}

export const archivesRoutes = (deps: Deps) =>
  new Elysia({ name: 'routes.archives' })
    .use(requestContext(deps))
    .get('/api/archives', ({ guestScoped }) =>
      listVisibleArchives(deps, guestScoped).map((row) => toWireArchive(row)),
    )
    .delete('/api/archives', async ({ body }) =>
      ok({ results: await deleteArchives(deps, requireIdList(body)) }),
    )
    .put(
      '/api/archives/upload',
      async ({ request }) => {
        const { staged, fields } = await readUploadForm(deps, request)
        try {
          const categoryId = fields.get('category_id') || undefined
          // Checked before the file lands, so a bad category refuses the upload instead of
          // half-doing it.
          if (categoryId && getCategory(deps, categoryId, null).search)
            throw fail.bad_request('Cannot add an archive to a dynamic category.')
          const row = await uploadArchive(deps, staged, {
            checksum: fields.get('file_checksum') || undefined,
            title: fields.get('title'),
            tags: fields.get('tags'),
            summary: fields.get('summary'),
          })
          if (categoryId) addToCategory(deps, categoryId, row.id)
          // The stored base name: a client path sent with the file (`../x.cbz`) is never echoed.
          return ok({ id: row.id, name: row.path.split('/').pop(), title: row.title })
        } finally {
          await discardStagedUpload(staged)
        }
      },
      // Streamed by readUploadForm, after the access check (context.ts) has run on the headers.
      { parse: leaveBodyUnread },
    )
    .get(
      '/api/archives/:id/metadata',
      ({ params, guestScoped }) => toWireArchive(requireArchive(deps, params.id, guestScoped)),
      { params: IdParams },
    )
    // LANraragi's older (deprecated, still routed) spelling of the metadata read.
    .get(
      '/api/archives/:id',
      ({ params, guestScoped }) => toWireArchive(requireArchive(deps, params.id, guestScoped)),
      { params: IdParams },
    )
    .put(
      '/api/archives/:id/metadata',
      async ({ params, query, body }) => {
        const row = requireArchive(deps, params.id)
        // LANraragi reads these as request params: the query string or a form body.
        const fields = { ...formFields(body), ...query }
        await updateMetadata(deps, row, {
          title: fields.title,
          tags: fields.tags,
          summary: fields.summary,
        })
        return ok({ successMessage: `Updated metadata of ${row.id}.` })
      },
      { params: IdParams, query: Query },
    )
    .delete(
      '/api/archives/:id',
      async ({ params }) => ok(await deleteArchive(deps, requireArchive(deps, params.id))),
      {
        params: IdParams,
      },
    )
    .get(
      '/api/archives/:id/download',
      ({ params, guestScoped }) => {
        const row = requireArchive(deps, params.id, guestScoped)
        const file = Bun.file(toAbsolutePath(deps.config.contentDir, row.path))
        const name = `${row.filename}.${row.extension}`
        return new Response(file, {
          headers: {
            'content-type': archiveMimeType(row.extension),
            'content-disposition': attachmentDisposition(name),
          },
        })
      },
      { params: IdParams },
    )
    .get(
      '/api/archives/:id/files',
      ({ params, query, guestScoped }) => {
        const row = requireArchive(deps, params.id, guestScoped)
        return listFiles(deps, row, parseFlag(query.force, 'force'))
      },
      { params: IdParams, query: Query },
    )
    .post(
      '/api/archives/:id/files/thumbnails',
      ({ params, query, set }) => {
        const row = requireArchive(deps, params.id)
        const force = parseFlag(query.force, 'force')
        const missing = Array.from({ length: row.pagecount }, (_, i) => i + 1).some(
          (page) => !findThumbnailFile(deps, row.id, page),
        )
        if (!force && !missing)
          return ok({ message: 'No job queued, all thumbnails already exist.' })
        set.status = 202
        return ok({ job: deps.jobs.enqueue('thumbnails', { ids: [row.id], page: 'all', force }) })
      },
      { params: IdParams, query: Query },
    )
    .put(
      '/api/archives/:id/isnew',
      async ({ params }) => {
        await setNewFlag(deps, requireArchive(deps, params.id), true)
        return ok({ id: params.id })
      },
      { params: IdParams },
    )
    .delete(
      '/api/archives/:id/isnew',
      async ({ params }) => {
        await setNewFlag(deps, requireArchive(deps, params.id), false)
        return ok({ id: params.id })
      },
      { params: IdParams },
    )
    .get(
      '/api/archives/:id/page',
      async ({ params, query, request, guestScoped }) => {
        const row = requireArchive(deps, params.id, guestScoped)
        if (query.path === undefined) throw fail.bad_request('Missing path.')
        const entry = requirePage(deps, row, query.path)
        const etag = pageEtag(row, entry)
        const headers = { etag, 'cache-control': 'private, max-age=604800' }
        if (etagMatches(request.headers.get('if-none-match'), etag))
          return new Response(null, { status: 304, headers })
        const bytes = await readPageBytes(deps, row, entry)
        return new Response(bytes as Uint8Array<ArrayBuffer>, {
          headers: { ...headers, 'content-type': pageMimeType(entry) },
        })
      },
      { params: IdParams, query: Query },
    )
    .get(
      '/api/archives/:id/page-dimensions',
      async ({ params, query, guestScoped }) => {
        const row = requireArchive(deps, params.id, guestScoped)
        const count = parseInteger(query.count, 'count', { min: 1, fallback: row.pagecount })
        return ok({ dimensions: await pageDimensions(deps, row, count) })
      },
      { params: IdParams, query: Query },
    )
    .put(
      '/api/archives/:id/progress/:page',
      async ({ params, query }) => {
        const row = requireArchive(deps, params.id)
        // LANraragi's `force` skips the page checks: clients clear progress with page 0.
        const force = parseFlag(query.force, 'force')
        const page = parseInteger(params.page, 'page', { min: force ? 0 : 1 })
        const updated =
          page === 0 ? await clearProgress(deps, row) : await setProgress(deps, row, page)
        return ok({ id: row.id, page, lastreadtime: updated.lastreadtime })
      },
      { params: t.Object({ id: t.String(), page: t.String() }), query: Query },
    )
    .put(
      '/api/archives/:id/rename',
      async ({ params, body }) => {
        const filename = (body as { filename?: unknown } | undefined)?.filename
        if (typeof filename !== 'string')
          throw fail.bad_request('Body must be {"filename": "new name"}.')
        const row = await renameArchive(deps, requireArchive(deps, params.id), filename)
        return ok({ filename: `${row.filename}.${row.extension}` })
      },
      { params: IdParams },
    )
    .get(
      '/api/archives/:id/thumbnail',
      async ({ params, query, set, request, guestScoped }) => {
        requireArchive(deps, params.id, guestScoped)
        const page = parseInteger(query.page, 'page', { min: 0, fallback: 0 })
        const outcome = await getThumbnail(deps, params.id, {
          page,
          noFallback: parseFlag(query.no_fallback, 'no_fallback'),
        })
        return sendThumbnail(outcome, set, request)
      },
      { params: IdParams, query: Query },
    )
    .put(
      '/api/archives/:id/thumbnail',
      async ({ params, query }) => {
        requireArchive(deps, params.id)
        // LANraragi reads a page of 0 like an absent one: the default, page 1.
        const page = parseInteger(query.page, 'page', { min: 0, fallback: 1 }) || 1
        return ok({ new_thumbnail: await setCover(deps, params.id, page) })
      },
      { params: IdParams, query: Query },
    )
    .put(
      '/api/archives/:id/toc',
      async ({ params, query }) => {
        const row = requireArchive(deps, params.id)
        const page = parseInteger(query.page, 'page', { min: 1 })
        if (!query.title?.trim()) throw fail.bad_request('Missing title.')
        await addTocEntry(deps, row, page, query.title.trim())
        return ok({ successMessage: `Added chapter ${query.title.trim()} at page ${page}.` })
      },
      { params: IdParams, query: Query },
    )
    .delete(
      '/api/archives/:id/toc',
      async ({ params, query }) => {
        const row = requireArchive(deps, params.id)
        const page = parseInteger(query.page, 'page', { min: 1 })
        await removeTocEntry(deps, row, page)
        return ok({ successMessage: `Removed the chapter at page ${page}.` })
      },
      { params: IdParams, query: Query },
    )
    .delete(
      '/api/archives/:id/patch',
      async ({ params }) => {
        const row = await deletePatch(deps, requireArchive(deps, params.id))
        return ok({ id: row.id })
      },
      { params: IdParams },
    )
