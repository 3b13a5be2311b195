// Wire shapes of archives: the metadata object (LANraragi's field names), the params, queries and
// bodies of the archive routes, and the upload form's fields and conflicts, converted once here.
import { Type } from '@sinclair/typebox'
import { t } from 'elysia'
import type { ArchiveRow } from '../../domain/archives/lookup.ts'
import type { Conflict } from '../../domain/archives/check-staged.ts'
import type { IngestInput } from '../../domain/archives/upload.ts'
import { fail, type AppError } from '../../errors.ts'
import { ParamText, ParamsBody, requestParam } from '../params.ts'
import { nextTurn } from '../../model/each-limited.ts'

const RENAME_BODY = 'Body must be {"filename": "new name"}.'
const DELETE_BODY = 'Body must be {"ids": [archive ids]}.'

/**
 * Query values stay strings: LANraragi clients send loose ones (`force=1`, `true`, `"false"`), read
 * by http/params.ts (parseFlag, parseInteger) with its messages.
 */
export const ArchiveModel = {
  params: t.Object({ id: t.String() }),
  progressParams: t.Object({ id: t.String(), page: t.String() }),
  /** Delete several: `{"ids": [...]}` as JSON (or a form repeating `ids`). */
  deleteBody: t.Object(
    { ids: t.Array(t.String({ error: DELETE_BODY }), { minItems: 1, error: DELETE_BODY }) },
    { error: DELETE_BODY },
  ),
  /** Read as params: the query string or a form (or JSON) body; see metadataFields. */
  metadataQuery: t.Object({
    title: t.Optional(t.String()),
    tags: t.Optional(t.String()),
    summary: t.Optional(t.String()),
  }),
  metadataBody: t.Optional(
    t.Object(
      { title: ParamText, tags: ParamText, summary: ParamText },
      { additionalProperties: true },
    ),
  ),
  /** Files list and page thumbnails: `force` re-reads or remakes. */
  forceQuery: t.Object({ force: t.Optional(t.String()) }),
  /** One page: its entry name, as the files list gave it. */
  /** `path` (an entry name) or `page` (1-based, 0-based with zero_based=true: OPDS-PSE). */
  pageQuery: t.Object({
    path: t.Optional(t.String()),
    page: t.Optional(t.String()),
    zero_based: t.Optional(t.String()),
    max_width: t.Optional(t.String()),
  }),
  /** How many pages to measure, from the first; all of them by default. */
  dimensionsQuery: t.Object({ count: t.Optional(t.String()) }),
  thumbnailQuery: t.Object({ page: t.Optional(t.String()), no_fallback: t.Optional(t.String()) }),
  /** The page the cover is remade from. */
  coverQuery: t.Object({ page: t.Optional(t.String()) }),
  /** LANraragi reads the cover's `page` as a request param: a form (or JSON) body may carry it. */
  coverBody: t.Optional(t.Object({ page: ParamText }, { additionalProperties: true })),
  progressQuery: t.Object({ force: t.Optional(t.String()) }),
  /**
   * A form (or JSON) body whose string fields stand for the query's (http/params.ts,
   * requestParam): LANraragi reads `force`, `page` and `title` as request params.
   */
  paramsBody: ParamsBody,
  /** Form-urlencoded, multipart or JSON. */
  renameBody: t.Object({ filename: t.String({ error: RENAME_BODY }) }, { error: RENAME_BODY }),
  tocQuery: t.Object({ page: t.Optional(t.String()), title: t.Optional(t.String()) }),
}

export type MetadataQuery = typeof ArchiveModel.metadataQuery.static
export type MetadataBody = typeof ArchiveModel.metadataBody.static
export type CoverQuery = typeof ArchiveModel.coverQuery.static
export type CoverBody = typeof ArchiveModel.coverBody.static

/**
 * LANraragi reads these as request params, from the query string or the body; a field in both
 * takes the query's value.
 */
export function metadataFields(
  body: MetadataBody | null,
  query: MetadataQuery,
): { title?: string; tags?: string; summary?: string } {
  return {
    title: requestParam(query, body, 'title'),
    tags: requestParam(query, body, 'tags'),
    summary: requestParam(query, body, 'summary'),
  }
}

/** The cover's page: the query's, else a string `page` of the body (as metadataFields). */
export function coverPage(body: CoverBody | null, query: CoverQuery): string | undefined {
  return requestParam(query, body, 'page')
}

/**
 * The upload form's text fields (read by http/multipart.ts), by their wire names; others are
 * ignored. An empty checksum or category counts as none.
 */
export function toIngestInput(fields: Map<string, string>): IngestInput {
  return {
    checksum: fields.get('file_checksum') || undefined,
    categoryId: fields.get('category_id') || undefined,
    title: fields.get('title'),
    tags: fields.get('tags'),
    summary: fields.get('summary'),
  }
}

/** A clash with the library, refused as the upload's 409. */
export function conflictError(conflict: Conflict): AppError {
  return conflict.kind === 'duplicate'
    ? fail.conflict('This file already exists in the library.', { id: conflict.id })
    : fail.conflict(`A file named ${conflict.name} already exists in the content folder.`)
}

/** The uploaded archive: the stored base name, never a client path (`../x.cbz`) sent with it. */
export function toWireUpload(row: ArchiveRow) {
  return { id: row.id, name: row.path.split('/').pop(), title: row.title }
}

export type WireArchive = {
  arcid: string
  title: string
  filename: string
  tags: string
  isnew: string
  extension: string
  progress: number
  pagecount: number
  lastreadtime: number
  size: number
  summary: string
  toc?: { name: string; page: number }[]
}

/**
 * Archive metadata as answered (LANraragi's contract), keys in the order toWireArchive writes
 * them: a response schema cleans an answer into its own key order. `toc` is left out only by
 * list answers that do not carry it. Response schemas take TypeBox's plain `Type.Integer`:
 * Elysia's `t.Integer` also accepts numeric strings, at twice the check's cost.
 */
export const ArchiveMetadata = t.Object({
  arcid: t.String(),
  title: t.String(),
  filename: t.String(),
  tags: t.String(),
  isnew: t.String(),
  extension: t.String(),
  progress: Type.Integer(),
  pagecount: Type.Integer(),
  lastreadtime: Type.Integer(),
  size: Type.Integer(),
  summary: t.String(),
  toc: t.Optional(t.Array(t.Object({ name: t.String(), page: Type.Integer() }))),
})

/**
 * GET /api/archives, documented only: the list is streamed batch by batch as a Response (never
 * one object in memory), which Elysia does not validate.
 */
export const ArchiveListResponse = t.Array(ArchiveMetadata)

/** GET /api/archives/:id/files: the extract job's id and the page URLs. */
export const FilesResponse = t.Object({ job: Type.Integer(), pages: t.Array(t.String()) })

/** The stored toc (JSON page -> title) as the spec's ordered array. */
export function tocEntries(toc: string): { name: string; page: number }[] {
  const map = JSON.parse(toc) as Record<string, string>
  return Object.entries(map)
    .map(([page, name]) => ({ name, page: Number(page) }))
    .sort((a, b) => a.page - b.page)
}

/** isnew goes out as "true"/"false" like LANraragi, which clients compare as strings. */
export function toWireArchive(
  row: ArchiveRow,
  options: { toc?: boolean } = { toc: true },
): WireArchive {
  const wire: WireArchive = {
    arcid: row.id,
    title: row.title,
    filename: row.filename,
    tags: row.tags,
    isnew: row.isnew ? 'true' : 'false',
    extension: row.extension,
    progress: row.progress,
    pagecount: row.pagecount,
    lastreadtime: row.lastreadtime,
    size: row.size,
    summary: row.summary,
  }
  if (options.toc !== false) wire.toc = tocEntries(row.toc)
  return wire
}

/**
 * The full archive list as one JSON array, written batch by batch as the client reads it: at a
 * million archives the whole list is ~550 MB of JSON, which must never be built in memory. A
 * direct stream hands each batch's text to the response's own buffer and waits while the client
 * is behind; chunks enqueued as fresh byte arrays were garbage the collector left for seconds
 * (a million-archive list grew the server by ~1.2 GB).
 */
export function archiveListStream(batches: Iterator<ArchiveRow[]>): ReadableStream<Uint8Array> {
  let cancelled = false
  const source: Bun.DirectUnderlyingSource<Uint8Array> = {
    type: 'direct',
    async pull(controller) {
      let opened = false
      try {
        for (let next = batches.next(); !next.done && !cancelled; next = batches.next()) {
          if (next.value.length === 0) continue
          const items = next.value.map((row) => JSON.stringify(toWireArchive(row))).join(',')
          await controller.write((opened ? ',' : '[') + items)
          opened = true
          // Other requests get their turn between batches, also when the client keeps up.
          await nextTurn()
        }
        if (!cancelled) await controller.write(opened ? ']' : '[]')
      } finally {
        batches.return?.(undefined)
      }
      controller.close()
    },
    cancel() {
      cancelled = true
    },
  }
  // Bun's ReadableStream type takes a direct source; the DOM library's, which the browser tests'
  // config adds (test/ui/tsconfig.json), has no such overload.
  return new ReadableStream(source as never)
}
