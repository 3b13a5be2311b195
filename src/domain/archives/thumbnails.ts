// Cover and page thumbnails: where they live, making them in the worker pool, what a thumbnail
// request gets (the file, a queued job, or the placeholder), and when a page-thumbnail job is due.
import { statSync, type Stats } from 'node:fs'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Deps } from '../../deps.ts'
import { findArchive, type ArchiveRow } from '../../db/repos/archives.repo.ts'
import { fail } from '../../errors.ts'
import { pageListOf, readListedPage } from './patch.ts'
import { asReadFailure } from './read-failure.ts'
import { commit } from '../commit.ts'
import { patchArchive } from './save.ts'

/** A thumbnail file with what its validator is made of (one stat answers both questions). */
export type ThumbnailFile = { path: string; contentType: string; size: number; mtimeMs: number }

/** A thumbnail read whole: its bytes and the stamp of the very file they came from. */
export type ThumbnailImage = {
  bytes: Uint8Array
  contentType: string
  size: number
  mtimeMs: number
}

export type ThumbnailOutcome =
  ({ kind: 'file' } & ThumbnailImage) | { kind: 'queued'; job: number } | { kind: 'placeholder' }

const FORMATS = [
  { ext: 'webp', contentType: 'image/webp' },
  { ext: 'jpg', contentType: 'image/jpeg' },
] as const

function thumbBase(deps: Pick<Deps, 'config'>, id: string, page: number): string {
  const dir = join(deps.config.thumbsDir, id.slice(0, 2))
  return page <= 0 ? join(dir, id) : join(dir, id, String(page))
}

/** A path that cannot be a file (a missing folder, or a file where a folder belongs) is none. */
function statOrNull(path: string): Stats | null {
  try {
    return statSync(path, { throwIfNoEntry: false }) ?? null
  } catch {
    return null
  }
}

/** The existing thumbnail file of a cover (page 0) or page, in either format. */
export function findThumbnailFile(
  deps: Pick<Deps, 'config'>,
  id: string,
  page: number,
): ThumbnailFile | null {
  const base = thumbBase(deps, id, page)
  for (const f of FORMATS) {
    const path = `${base}.${f.ext}`
    const st = statOrNull(path)
    if (st?.isFile())
      return { path, contentType: f.contentType, size: st.size, mtimeMs: st.mtimeMs }
  }
  return null
}

/**
 * The image at `path` read whole, or null when there is none. A rescan removes an archive's
 * thumbnails whenever it finds its file changed, so a file found by name may be gone by the time
 * it is read: then there is none. The stamp is taken before the read, so a thumbnail renamed over
 * in between goes out under the older one, which its next revalidation finds stale. (A file
 * handle's open, stat, read and close are four thread-pool calls: covers took twice as long.)
 */
export async function readImageFile(
  path: string,
  contentType: string,
): Promise<ThumbnailImage | null> {
  const st = statOrNull(path)
  if (!st?.isFile()) return null
  const bytes = await Bun.file(path)
    .bytes()
    .catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return null
      throw error
    })
  return bytes && { bytes, contentType, size: st.size, mtimeMs: st.mtimeMs }
}

/** The thumbnail of a cover (page 0) or page, in either format, read whole (null: none). */
export async function readThumbnailFile(
  deps: Pick<Deps, 'config'>,
  id: string,
  page: number,
): Promise<ThumbnailImage | null> {
  const base = thumbBase(deps, id, page)
  for (const f of FORMATS) {
    const image = await readImageFile(`${base}.${f.ext}`, f.contentType)
    if (image) return image
  }
  return null
}

function targetPath(deps: Pick<Deps, 'config' | 'settings'>, id: string, page: number): string {
  const ext = deps.settings.get('thumbnail_format') === 'jpeg' ? 'jpg' : 'webp'
  return `${thumbBase(deps, id, page)}.${ext}`
}

/** Times a thumbnail is made when the archive's file keeps changing under it (rescans). */
const MAX_MAKES = 3

/** What a thumbnail is made from: the file (size, time) and the patch's pages among it. */
const madeFrom = (row: ArchiveRow) => `${row.size}:${row.mtimeMs}:${row.hasPatch}`

/** What making a thumbnail needs: the archive's pages, the image worker, the thumbnail's row. */
export type ThumbnailDeps = Pick<
  Deps,
  'archives' | 'config' | 'db' | 'events' | 'reader' | 'settings' | 'thumbnailer'
>

/**
 * Makes the thumbnail of a cover (page 0 = the archive's cover page) or of page N (1-based).
 * The cover is taken from the page stored as the archive's cover choice, default page 1.
 * A page that cannot be read or decoded is a 400 with a short reason (detail in the log).
 */
export async function makeThumbnail(
  deps: ThumbnailDeps,
  row: ArchiveRow,
  page: number,
  sourcePage?: number,
): Promise<string> {
  for (let make = 1; ; make++) {
    const { out, sha1 } = await writeThumbnail(deps, row, page, sourcePage)
    // A delete does not wait for the covers being made: one deleted meanwhile leaves no file.
    const now = findArchive(deps.db, row.id)
    if (!now) {
      await deleteThumbnails(deps, row.id)
      throw fail.bad_request(`No archive with ID ${row.id}.`)
    }
    // A rescan that refreshed the archive from a changed file meanwhile removed its thumbnails
    // before this one was written, or will: it may show the old pages, and the rescan's covers
    // job would take it for current. It is made again from the file as the row now describes it.
    if (madeFrom(now) !== madeFrom(row) && make < MAX_MAKES) {
      row = now
      continue
    }
    if (page <= 0) {
      // The SHA-1 the worker took of what it wrote: a rescan that finds the archive's file changed
      // removes its covers at any moment, this one included, so it is not read back.
      // No perceptual hash here: it cost a cover ~30% of its time (2,000 covers of 640x905 pages
      // 106 -> 77/s); the duplicate scan hashes covers from these files, keyed by this SHA-1.
      commit(deps, (w) => patchArchive(w, row.id, { thumbhash: sha1 }))
    }
    return out
  }
}

/** One thumbnail from the page as the row lists it, written in place of the old one. */
async function writeThumbnail(
  deps: Pick<Deps, 'archives' | 'config' | 'db' | 'reader' | 'settings' | 'thumbnailer'>,
  row: ArchiveRow,
  page: number,
  sourcePage: number | undefined,
): Promise<{ out: string; sha1: string }> {
  const pages = await pageListOf(deps, row)
  const index = (page <= 0 ? (sourcePage ?? row.coverPage) : page) - 1
  const entry = pages[index]
  if (entry === undefined)
    throw fail.bad_request(`Page ${index + 1} does not exist in this archive.`)
  const format = deps.settings.get('thumbnail_format') === 'jpeg' ? 'jpeg' : 'webp'
  const out = targetPath(deps, row.id, page)
  let sha1: string
  try {
    const input = await readListedPage(deps, row, entry)
    ;({ sha1 } = await deps.thumbnailer.thumbnail(input, out, { format }))
  } catch (error) {
    throw asReadFailure(error, `Making a thumbnail of page ${index + 1}`, { id: row.id, entry })
  }
  // One format per thumbnail: drop the other one so a format switch takes effect.
  for (const f of FORMATS) {
    const other = `${thumbBase(deps, row.id, page)}.${f.ext}`
    if (other !== out) await rm(other, { force: true })
  }
  deps.archives.thumbnailFailures.delete(failureKey(row.id, page))
  return { out, sha1 }
}

/** A thumbnail that could not be made from the file as it is, and the job that found it. */
type KnownFailure = { job: number; stamp: string; at: number }

/** Thumbnails that failed on the page itself, by archive and page: per server (deps.archives). */
export type ThumbnailFailures = Map<string, KnownFailure>

/** At most this many remembered, the oldest dropped first. */
const MAX_KNOWN_FAILURES = 10_000
/** A failure is tried again past this (a file that vanished and came back unchanged). */
const KNOWN_FAILURE_MS = 10 * 60_000

export const createThumbnailFailures = (): ThumbnailFailures => new Map()

const failureKey = (id: string, page: number) => `${id}:${page}`
/** What a failure depends on: the file, the cover choice, the patch. */
const stampOf = (row: ArchiveRow) => `${row.size}:${row.mtimeMs}:${row.coverPage}:${row.hasPatch}`

/**
 * Called by a one-thumbnail job that failed on the page itself (undecodable, refused, missing):
 * asked again for the same file, GET thumbnail answers that job instead of queueing another, which
 * would fail alike and push real jobs out of the list. A system error (a full disk) is not kept.
 */
export function rememberThumbnailFailure(
  deps: Pick<Deps, 'archives'>,
  row: ArchiveRow,
  page: number,
  job: number,
): void {
  const map = deps.archives.thumbnailFailures
  const key = failureKey(row.id, page)
  map.delete(key)
  map.set(key, { job, stamp: stampOf(row), at: Date.now() })
  if (map.size > MAX_KNOWN_FAILURES) map.delete(map.keys().next().value!)
}

/** The failed job of this thumbnail of the file as it is now, if one is remembered. */
function knownFailure(deps: Pick<Deps, 'archives'>, row: ArchiveRow, page: number): number | null {
  const failure = deps.archives.thumbnailFailures.get(failureKey(row.id, page))
  const current =
    failure && failure.stamp === stampOf(row) && Date.now() - failure.at < KNOWN_FAILURE_MS
  return current ? failure.job : null
}

/** GET thumbnail: the file when it exists; otherwise queue it and answer 202 or the placeholder. */
export async function getThumbnail(
  deps: Pick<Deps, 'archives' | 'config' | 'db' | 'jobs'>,
  row: ArchiveRow,
  options: { page?: number; noFallback: boolean },
): Promise<ThumbnailOutcome> {
  const archiveId = row.id
  if (row.unlinked) throw fail.bad_request(`No archive with ID ${archiveId}.`)
  const page = options.page ?? 0
  if (page > 0 && page > row.pagecount)
    throw fail.bad_request(`Page ${page} does not exist in this archive.`)
  // Read now, not handed to the response by name: a rescan may remove it before that opens it.
  const existing = await readThumbnailFile(deps, archiveId, page)
  if (existing) return { kind: 'file', ...existing }
  const job =
    knownFailure(deps, row, page) ?? deps.jobs.enqueue('thumbnails', { ids: [archiveId], page })
  return options.noFallback ? { kind: 'queued', job } : { kind: 'placeholder' }
}

export type PageThumbnailsOutcome = { kind: 'queued'; job: number } | { kind: 'complete' }

/**
 * POST page thumbnails: a job makes every page's thumbnail. Nothing is queued when they all exist,
 * unless `force` remakes them.
 */
export function queuePageThumbnails(
  deps: Pick<Deps, 'config' | 'jobs'>,
  row: ArchiveRow,
  force: boolean,
): PageThumbnailsOutcome {
  const missing = Array.from({ length: row.pagecount }, (_, i) => i + 1).some(
    (page) => !findThumbnailFile(deps, row.id, page),
  )
  if (!force && !missing) return { kind: 'complete' }
  return {
    kind: 'queued',
    job: deps.jobs.enqueue('thumbnails', { ids: [row.id], page: 'all', force }),
  }
}

/** PUT thumbnail: the cover is remade from page N; returns the thumbnail's URL. */
export async function setCover(
  deps: ThumbnailDeps,
  archiveId: string,
  page: number,
): Promise<string> {
  const row = findArchive(deps.db, archiveId)
  if (!row || row.unlinked) throw fail.bad_request(`No archive with ID ${archiveId}.`)
  if (!Number.isInteger(page) || page < 1 || page > row.pagecount)
    throw fail.bad_request(`Page ${page} does not exist in this archive.`)
  await makeThumbnail(deps, row, 0, page)
  commit(deps, (w) => patchArchive(w, archiveId, { coverPage: page }))
  return `/api/archives/${archiveId}/thumbnail`
}

export async function deleteThumbnails(deps: Pick<Deps, 'config'>, id: string): Promise<void> {
  const base = thumbBase(deps, id, 0)
  for (const f of FORMATS) await rm(`${base}.${f.ext}`, { force: true })
  await rm(base, { recursive: true, force: true })
}

/** Page thumbnails (not the cover), numbered by page: stale once pages are inserted or removed. */
export async function deletePageThumbnails(deps: Pick<Deps, 'config'>, id: string): Promise<void> {
  await rm(thumbBase(deps, id, 0), { recursive: true, force: true })
}
