// The answer to a page read: the page's bytes with a strong ETag (304 when the client has them),
// or a resized copy when asked for one. Shared by the archive page route and OPDS-PSE.
import type { Deps } from '../deps.ts'
import type { ArchiveRow } from '../domain/archives/lookup.ts'
import { openPageBody, pageEtag } from '../domain/archives/pages.ts'
import { resizedEtag, resizedPage, type ResizedPage } from '../domain/archives/page-resize.ts'
import { pageMimeType } from '../model/formats.ts'
import { etagMatches } from './conditional.ts'

const CACHE_CONTROL = 'private, max-age=604800'

/** The 304 of a page the client has. */
export const pageNotModified = (etag: string): Response =>
  new Response(null, { status: 304, headers: { etag, 'cache-control': CACHE_CONTROL } })

/** A resized or converted copy of a page. */
export const resizedPageResponse = (resized: ResizedPage): Response =>
  new Response(resized.bytes as Uint8Array<ArrayBuffer>, {
    headers: {
      etag: resized.etag,
      'cache-control': CACHE_CONTROL,
      'content-type': resized.contentType,
    },
  })

/** The page as stored, streamed: a file slice goes out with its length, an inflated entry chunked. */
export async function originalPageResponse(
  deps: Pick<Deps, 'config' | 'reader'>,
  row: ArchiveRow,
  entry: string,
): Promise<Response> {
  const page = await openPageBody(deps, row, entry)
  return new Response(page.body, {
    headers: {
      etag: pageEtag(row, entry),
      'cache-control': CACHE_CONTROL,
      'content-type': pageMimeType(entry),
    },
  })
}

/** `maxWidth`: resize past this width (when the server resizes images); null: the original. */
export async function sendPage(
  deps: Pick<Deps, 'archives' | 'config' | 'reader' | 'settings' | 'thumbnailer'>,
  row: ArchiveRow,
  entry: string,
  ifNoneMatch: string | null,
  maxWidth: number | null,
): Promise<Response> {
  const resizing = maxWidth !== null && deps.settings.get('server_resizes_images')
  if (resizing) {
    const etag = resizedEtag(row, entry, maxWidth, deps.settings.get('thumbnail_format'))
    if (etagMatches(ifNoneMatch, etag)) return pageNotModified(etag)
  }
  const etag = pageEtag(row, entry)
  if (etagMatches(ifNoneMatch, etag)) return pageNotModified(etag)
  if (resizing) {
    const open = () => openPageBody(deps, row, entry)
    const resized = await resizedPage(deps, row, entry, open, maxWidth)
    if (resized) return resizedPageResponse(resized)
  }
  return originalPageResponse(deps, row, entry)
}
