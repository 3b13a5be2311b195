// Turns a ThumbnailOutcome into the HTTP answer: the image, 202 + job, or the placeholder.
import type { ThumbnailOutcome } from '../domain/archives/thumbnails.ts'

/**
 * A neutral grey 200x300 PNG (a frame in the middle), so clients that did not opt out of the
 * fallback always get an image they can decode, as LANraragi's noThumb.png.
 */
const PLACEHOLDER_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAMgAAAEsCAMAAACxJAyMAAAABlBMVEXY2Niamppqn6ePAAAACXBIWXMAAAsTAAALEwEAmpwYAAAAjklEQVR42u3asQ0AQAgDMX7/pRnipQiE3ae4PlUAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQMz7JkSIECH5kPxWiBAhQoQIESJEiBAhQoQIESJEiBAhQoQIESJEiBAhQoQIESJEiBAhQoQIESJEyPwQv18hQoRsCQEAAAAAAAAAAAAAAAAAAAAAAAAAAACAExqMJQWhy4lXDQAAAABJRU5ErkJggg==',
  'base64',
)

export function sendThumbnail(outcome: ThumbnailOutcome, set: { status?: number | string }) {
  switch (outcome.kind) {
    case 'file':
      return new Response(Bun.file(outcome.path), {
        headers: { 'content-type': outcome.contentType, 'cache-control': 'private, max-age=3600' },
      })
    case 'queued':
      set.status = 202
      return { job: outcome.job, success: 1 as const }
    case 'placeholder':
      return new Response(PLACEHOLDER_PNG, {
        headers: { 'content-type': 'image/png', 'cache-control': 'no-store' },
      })
  }
}
