// Page lists and page bytes of an archive, and the natural size of its first pages.
import type { Deps } from '../../deps.ts'
import type { ArchiveRow } from '../../db/repos/archives.repo.ts'
import { fail } from '../../errors.ts'
import { createLogger } from '../../log.ts'
import { mapLimited } from '../../model/each-limited.ts'
import type { PageBody } from '../../archive/types.ts'
import { openListedPage, pageListOf, readListedPage } from './patch.ts'
import { asReadFailure, isReadFailure } from './read-failure.ts'

const log = createLogger('archives')

/** The archive's pages, its patch's placed among them (archives/patch.ts). */
export function pagesOf(
  deps: Pick<Deps, 'db' | 'reader' | 'config'>,
  row: ArchiveRow,
): Promise<string[]> {
  return pageListOf(deps, row)
}

/**
 * Root-relative page URLs exactly as LANraragi gives them: clients prepend the base URL. Like
 * LANraragi, the folder separators of the entry path stay readable (`path=sub/001.jpg`).
 */
export function pageUrls(row: ArchiveRow, pages: string[]): string[] {
  return pages.map((p) => {
    const path = encodeURIComponent(p).replaceAll('%2F', '/')
    return `/api/archives/${row.id}/page?path=${path}`
  })
}

/**
 * GET /files: page URLs at once, and the id of an `extract` job for every archive. LANraragi
 * clients read `job` as an integer and poll it; for ZIP and TAR the job only opens the archive
 * (warming its directory), for RAR, 7z and compressed tar it fills the page cache.
 */
export async function listFiles(
  deps: Pick<Deps, 'config' | 'db' | 'jobs' | 'reader'>,
  row: ArchiveRow,
  force: boolean,
): Promise<{ job: number; pages: string[] }> {
  const job = deps.jobs.enqueue('extract', { id: row.id, force })
  return { job, pages: pageUrls(row, await pagesOf(deps, row)) }
}

export type PageBytes = { bytes: Uint8Array; contentType: string; etag: string }

/** A strong validator from what identifies the bytes: archive, its file stamp, the entry. */
export function pageEtag(row: ArchiveRow, entry: string): string {
  const digest = new Bun.CryptoHasher('sha1')
    .update(`${row.id}|${row.size}|${row.mtimeMs}|${entry}`)
    .digest('base64url')
  return `"${digest}"`
}

export async function requirePage(
  deps: Pick<Deps, 'db' | 'reader' | 'config'>,
  row: ArchiveRow,
  path: string,
): Promise<string> {
  if (!path || path.includes('\0')) throw fail.bad_request('Invalid page path.')
  if (!(await pagesOf(deps, row)).includes(path))
    throw fail.bad_request(`${path.slice(0, 200)} is not a page of this archive.`)
  return path
}

/**
 * The entry a page request names: `path` (an entry of the page list) or `index`, its 0-based
 * place in the page list (the route turns `page=N` into it; `asked` is N as the caller wrote it,
 * 1-based or 0-based, for the error).
 */
export type PageSelector = { path: string } | { index: number; asked?: number }

export async function pageEntry(
  deps: Pick<Deps, 'db' | 'reader' | 'config'>,
  row: ArchiveRow,
  selector: PageSelector,
): Promise<string> {
  if ('path' in selector) return requirePage(deps, row, selector.path)
  const pages = await pagesOf(deps, row)
  const entry = pages[selector.index]
  if (entry === undefined)
    throw fail.bad_request(
      `This archive has ${pages.length} pages; page ${selector.asked ?? selector.index + 1} is past them.`,
    )
  return entry
}

/**
 * A page to send, streamed from the archive rather than read whole (six readers of a 200 MB page
 * held 2.4 GB); a damaged archive or a vanished file is a 400 with a short reason.
 */
export async function openPageBody(
  deps: Pick<Deps, 'config' | 'reader'>,
  row: ArchiveRow,
  entry: string,
): Promise<PageBody> {
  try {
    return await openListedPage(deps, row, entry)
  } catch (error) {
    throw asReadFailure(error, 'Reading the page', { id: row.id, page: entry })
  }
}

type Size = { width: number; height: number }

/** One server's measured page sizes, by page etag. */
export type DimensionCache = {
  get(etag: string): Size | undefined
  set(etag: string, size: Size): void
}

/** Past this many sizes the cache starts over: bounded memory, no per-hit bookkeeping. */
const DIMENSION_CACHE_MAX = 20_000

export function createDimensionCache(): DimensionCache {
  const sizes = new Map<string, Size>()
  return {
    get: (etag) => sizes.get(etag),
    set(etag, size) {
      if (sizes.size >= DIMENSION_CACHE_MAX) sizes.clear()
      sizes.set(etag, size)
    },
  }
}

/** Pages measured per request at most (each page is read and its header parsed in a worker). */
export const MAX_DIMENSION_PAGES = 500
/** Pages read at once to measure: enough to keep both thumbnail workers busy. */
const DIMENSION_READS_IN_FLIGHT = 4

/**
 * Natural sizes of the first `count` pages, in page order. A page that cannot be read or decoded
 * is answered 0 x 0 (and logged) so one bad page does not hide the sizes of the others.
 */
export async function pageDimensions(
  deps: Pick<Deps, 'archives' | 'config' | 'db' | 'reader' | 'thumbnailer'>,
  row: ArchiveRow,
  count: number,
): Promise<{ page: number; path: string; width: number; height: number }[]> {
  const pages = (await pagesOf(deps, row)).slice(0, Math.min(count, MAX_DIMENSION_PAGES))
  const failed: { page: string; error: string }[] = []
  // A few pages at a time: each is read whole to find its header, and 500 at once held 500 pages
  // (gigabytes for large scans, or for a crafted archive of near-limit entries).
  const sizes = await mapLimited(pages, DIMENSION_READS_IN_FLIGHT, async (entry, index) => {
    const key = pageEtag(row, entry)
    let size = deps.archives.dimensions.get(key)
    if (!size) {
      try {
        const bytes = await readListedPage(deps, row, entry)
        size = await deps.thumbnailer.dimensions(bytes)
      } catch (error) {
        if (!isReadFailure(error)) throw error
        failed.push({ page: entry, error: error.message })
        return { page: index + 1, path: entry, width: 0, height: 0 }
      }
      deps.archives.dimensions.set(key, size)
    }
    return { page: index + 1, path: entry, ...size }
  })
  // One line per request, not per page: a broken archive may fail hundreds of them.
  if (failed.length > 0)
    log.warn('unreadable pages measured as 0x0', {
      id: row.id,
      count: failed.length,
      first: failed.slice(0, 5),
    })
  return sizes
}
