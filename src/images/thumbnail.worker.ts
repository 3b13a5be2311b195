// Runs inside a Bun Worker: sharp resizes pages to thumbnails and reads image headers.
import { mkdir, rename, rm } from 'node:fs/promises'
import { dirname } from 'node:path'
import sharp from 'sharp'
import { AppError, fail } from '../errors.ts'
import { MAX_IMAGE_PIXELS } from './limits.ts'
import { serveCalls } from '../workers/protocol.ts'

export type ThumbnailRequest =
  | {
      kind: 'thumbnail'
      input: Uint8Array
      outPath: string
      format: 'webp' | 'jpeg'
      height: number
    }
  | { kind: 'dimensions'; input: Uint8Array }

export type ThumbnailResult = { width: number; height: number } | null

const decodeOptions = {
  limitInputPixels: MAX_IMAGE_PIXELS,
  // Scanned pages often carry slightly broken JPEG data that every viewer still shows.
  failOn: 'none',
  autoOrient: true,
} as const

const undecodable = (err: unknown): AppError =>
  new AppError('unprocessable', `undecodable image: ${(err as Error).message}`, undefined, {
    cause: err,
  })

async function makeThumbnail(request: Extract<ThumbnailRequest, { kind: 'thumbnail' }>) {
  const pipeline = sharp(request.input, decodeOptions).resize({
    height: request.height,
    withoutEnlargement: true,
  })
  // libwebp's fastest method: a cover in ~10% less time than effort 2 for ~15% more bytes, and
  // cover generation is CPU-bound on a small box (bench/covers.ts).
  const encoded =
    request.format === 'webp'
      ? pipeline.webp({ effort: 0 })
      : pipeline.jpeg({ quality: 85, mozjpeg: false })
  const bytes = await encoded.toBuffer().catch((err) => {
    throw undecodable(err)
  })
  await writeThumbnailFile(request.outPath, bytes)
}

/** The file operations of a thumbnail write that a test may stage a race in. */
export type WriteOps = { rename: (from: string, to: string) => Promise<void> }

/**
 * Writes aside and renames over, so readers never see a half-written thumbnail. The folder is
 * made right before; a rescan may still drop it between that and the rename (ENOENT): once more.
 */
export async function writeThumbnailFile(
  outPath: string,
  bytes: Uint8Array,
  ops: WriteOps = { rename },
): Promise<void> {
  try {
    await writeAside(outPath, bytes, ops)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
    await writeAside(outPath, bytes, ops)
  }
}

async function writeAside(outPath: string, bytes: Uint8Array, ops: WriteOps): Promise<void> {
  await mkdir(dirname(outPath), { recursive: true })
  const tmp = `${outPath}.tmp-${crypto.randomUUID()}`
  try {
    await Bun.write(tmp, bytes)
    await ops.rename(tmp, outPath)
  } catch (err) {
    await rm(tmp, { force: true })
    throw err
  }
}

async function readDimensions(input: Uint8Array): Promise<{ width: number; height: number }> {
  const meta = await sharp(input, decodeOptions)
    .metadata()
    .catch((err) => {
      throw undecodable(err)
    })
  // Browsers lay pages out EXIF-rotated, so report the oriented size.
  const { width, height } = meta.autoOrient ?? meta
  if (!width || !height) throw fail.unprocessable('undecodable image: no dimensions')
  if (width * height > MAX_IMAGE_PIXELS)
    throw fail.unprocessable(`image exceeds ${MAX_IMAGE_PIXELS} pixels`)
  return { width, height }
}

// Imported on the main thread (tests of writeThumbnailFile), this module serves nothing.
if (!Bun.isMainThread) {
  // Parallelism comes from the pool's workers; more libvips threads per worker only contend.
  sharp.concurrency(1)
  serveCalls<ThumbnailRequest, ThumbnailResult>(async (request) => {
    if (request.kind === 'thumbnail') {
      await makeThumbnail(request)
      return null
    }
    return readDimensions(request.input)
  })
}
