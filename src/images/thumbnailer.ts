// The Thumbnailer: sharp in a pool of Bun Workers, so resizing never blocks the HTTP loop.
import type { PageSignature, Thumbnailer } from './types.ts'
import { MAX_THUMBNAIL_MS } from './limits.ts'
import { THUMBNAIL_WORKER_URL } from '../assets.ts'
import { createWorkerPool } from '../workers/pool.ts'
import type { ThumbnailRequest, ThumbnailResult } from './thumbnail.worker.ts'

const DEFAULT_HEIGHT = 500

export function createThumbnailer(options: { workers?: number } = {}): Thumbnailer {
  const pool = createWorkerPool<ThumbnailRequest, ThumbnailResult>({
    url: THUMBNAIL_WORKER_URL,
    size: options.workers ?? 2,
    // Two in flight per worker overlap one decode with the other's file write.
    callsPerWorker: 2,
    crashMessage: 'thumbnail failed',
    timeoutMs: MAX_THUMBNAIL_MS,
  })
  return {
    async thumbnail(input, outPath, { format, height = DEFAULT_HEIGHT, hash = false }) {
      const result = await pool.run({ kind: 'thumbnail', input, outPath, format, height, hash })
      return result as { hash: string | null; sha1: string }
    },
    async dimensions(input) {
      const size = await pool.run({ kind: 'dimensions', input })
      return size as { width: number; height: number }
    },
    async signature(input, { sharpnessHeight, hash }) {
      const result = await pool.run({ kind: 'signature', input, sharpnessHeight, hash })
      return result as PageSignature
    },
    close: () => pool.close(),
  }
}
