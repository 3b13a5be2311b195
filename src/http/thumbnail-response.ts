// Turns a ThumbnailOutcome into the HTTP answer: the image, 202 + job, or the placeholder.
import type { ThumbnailOutcome } from '../domain/archives/thumbnails.ts'
import { etagMatches } from './conditional.ts'

/**
 * A neutral grey 200x300 PNG (a frame in the middle), so clients that did not opt out of the
 * fallback always get an image they can decode, as LANraragi's noThumb.png.
 */
const PLACEHOLDER_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAMgAAAEsCAMAAACxJAyMAAAABlBMVEXY2Niamppqn6ePAAAACXBIWXMAAAsTAAALEwEAmpwYAAAAjklEQVR42u3asQ0AQAgDMX7/pRnipQiE3ae4PlUAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQMz7JkSIECH5kPxWiBAhQoQIESJEiBAhQoQIESJEiBAhQoQIESJEiBAhQoQIESJEiBAhQoQIESJEyPwQv18hQoRsCQEAAAAAAAAAAAAAAAAAAAAAAAAAAACAExqMJQWhy4lXDQAAAABJRU5ErkJggg==',
  'base64',
)

/** A validator from the file's size and time: a remade thumbnail gets a new one. */
function thumbnailEtag(file: { size: number; mtimeMs: number }): string {
  return `"${file.size.toString(36)}-${Math.floor(file.mtimeMs).toString(36)}"`
}

/** `request` turns on If-None-Match handling (304 when the client's copy is current). */
export function sendThumbnail(
  outcome: ThumbnailOutcome,
  set: { status?: number | string },
  request?: Request,
) {
  switch (outcome.kind) {
    case 'file': {
      const etag = thumbnailEtag(outcome)
      // Short max-age: a cover can be remade (PUT thumbnail), then the ETag revalidates cheaply.
      const headers: Record<string, string> = { 'cache-control': 'private, max-age=3600', etag }
      if (request && etagMatches(request.headers.get('if-none-match'), etag))
        return new Response(null, { status: 304, headers })
      return new Response(outcome.bytes as Uint8Array<ArrayBuffer>, {
        headers: { ...headers, 'content-type': outcome.contentType },
      })
    }
    case 'queued':
      set.status = 202
      return { job: outcome.job, success: 1 as const }
    case 'placeholder':
      return new Response(PLACEHOLDER_PNG, {
        headers: { 'content-type': 'image/png', 'cache-control': 'no-store' },
      })
  }
}
