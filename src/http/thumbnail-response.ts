// Turns a ThumbnailOutcome into the HTTP answer: the image, 202 + job, or the placeholder.
import type { ThumbnailOutcome } from '../domain/archives/thumbnails.ts'

/** A neutral grey 2:3 placeholder, so clients always get an image when they did not opt out. */
const PLACEHOLDER_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="300" viewBox="0 0 200 300"><rect width="200" height="300" fill="#d8d8d8"/><path d="M70 120h60v60H70z" fill="none" stroke="#9a9a9a" stroke-width="6"/></svg>`

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
      return new Response(PLACEHOLDER_SVG, {
        headers: { 'content-type': 'image/svg+xml', 'cache-control': 'no-store' },
      })
  }
}
