// Runs inside a Bun Worker: sharp resizes pages to thumbnails, reads image headers and takes page
// signatures (perceptual hash and sharpness) for the download comparison.
import { mkdir, rename, rm } from 'node:fs/promises'
import { dirname } from 'node:path'
import type Sharp from 'sharp'
import { prepareSharp } from '../assets.ts'
import { AppError, fail } from '../errors.ts'
import { MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE } from './limits.ts'
import type { PageSignature } from './types.ts'
import { serveCalls } from '../workers/protocol.ts'

// Required once its native part can load (the single binary copies libvips out of itself first:
// src/assets.ts); synchronously, so the Worker is ready for its first call.
prepareSharp()
const sharp: typeof Sharp = require('sharp')

export type ThumbnailRequest =
  | {
      kind: 'thumbnail'
      input: Uint8Array
      outPath: string
      format: 'webp' | 'jpeg'
      height: number
      /** Also the dHash of the thumbnail's pixels (a cover, for the duplicate scan). */
      hash?: boolean
    }
  | { kind: 'dimensions'; input: Uint8Array }
  | { kind: 'signature'; input: Uint8Array; sharpnessHeight: number; hash: boolean }

export type ThumbnailResult =
  { width: number; height: number } | PageSignature | { hash: string | null; sha1: string } | null

const decodeOptions = {
  limitInputPixels: MAX_IMAGE_PIXELS,
  // Scanned pages often carry slightly broken JPEG data that every viewer still shows.
  failOn: 'none',
  autoOrient: true,
} as const

/**
 * One decode at a time in this worker: sharp runs each pipeline on the process's thread pool,
 * which file reads share. Two workers with two calls each would hold four of its threads, and
 * on a small pool every page read of the server waited behind a cover. The second call in flight
 * still overlaps its hand-off and file write with this one's decode.
 */
let decodeTurn: Promise<unknown> = Promise.resolve()
function inDecodeTurn<T>(decode: () => Promise<T>): Promise<T> {
  const turn = decodeTurn.then(decode, decode)
  decodeTurn = turn.catch(() => {})
  return turn
}

const undecodable = (err: unknown): AppError =>
  new AppError('unprocessable', `undecodable image: ${(err as Error).message}`, undefined, {
    cause: err,
  })

/**
 * The image's size from its header (no decode), refused past the pixel cap or MAX_IMAGE_SIDE:
 * every decode asks this first, so no image costs more than a bounded decode.
 */
async function boundedSize(input: Uint8Array): Promise<{ width: number; height: number }> {
  const meta = await sharp(input, decodeOptions)
    .metadata()
    .catch((err) => {
      throw undecodable(err)
    })
  const { width, height } = meta
  if (!width || !height) throw fail.unprocessable('undecodable image: no dimensions')
  if (width * height > MAX_IMAGE_PIXELS)
    throw fail.unprocessable(`image exceeds the pixel limit (${MAX_IMAGE_PIXELS} pixels)`)
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE)
    throw fail.unprocessable(`image side exceeds ${MAX_IMAGE_SIDE} pixels (${width} x ${height})`)
  // Browsers lay pages out EXIF-rotated, so report the oriented size.
  const oriented = meta.autoOrient ?? { width, height }
  return { width: oriented.width, height: oriented.height }
}

async function makeThumbnail(
  request: Extract<ThumbnailRequest, { kind: 'thumbnail' }>,
): Promise<{ hash: string | null; sha1: string }> {
  await boundedSize(request.input)
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
  const { bytes, hash } = await inDecodeTurn(async () => {
    const bytes = await encoded.toBuffer().catch((err) => {
      throw undecodable(err)
    })
    // The hash of the bytes written, in this call: exactly what a signature of the file reads
    // (covers hashed now and by a later scan compare alike), without another hand-off.
    return { bytes, hash: request.hash ? await differenceHash(bytes) : null }
  })
  await writeThumbnailFile(request.outPath, bytes)
  // The file's SHA-1 from the bytes in hand: a rescan may remove the file as soon as it is renamed
  // into place, and reading it back then failed the thumbnail with ENOENT.
  return { hash, sha1: new Bun.CryptoHasher('sha1').update(bytes).digest('hex') }
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

/** dHash: a 9x8 grey image, one bit per horizontal neighbour pair (left brighter), as 16 hex. */
async function differenceHash(input: Uint8Array): Promise<string> {
  const pixels = await greyPipeline(input).resize(9, 8, { fit: 'fill' }).raw().toBuffer()
  let hex = ''
  for (let y = 0; y < 8; y++) {
    let byte = 0
    for (let x = 0; x < 8; x++)
      byte = (byte << 1) | (pixels[y * 9 + x]! > pixels[y * 9 + x + 1]! ? 1 : 0)
    hex += byte.toString(16).padStart(2, '0')
  }
  return hex
}

/**
 * Variance of the Laplacian of the page scaled to `height` px (enlarged too: a low-resolution page
 * scaled up is blurry, which is what the figure should say). Both sides of a comparison are
 * measured at the same height, so their figures compare.
 */
async function laplacianVariance(input: Uint8Array, height: number): Promise<number> {
  const { data, info } = await greyPipeline(input)
    .resize({ height })
    .raw()
    .toBuffer({ resolveWithObject: true })
  const { width, height: rows } = info
  if (width < 3 || rows < 3) return 0
  let sum = 0
  let squares = 0
  for (let y = 1; y < rows - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const at = y * width + x
      const value =
        data[at - width]! + data[at + width]! + data[at - 1]! + data[at + 1]! - 4 * data[at]!
      sum += value
      squares += value * value
    }
  }
  const count = (width - 2) * (rows - 2)
  const mean = sum / count
  return squares / count - mean * mean
}

/** One grey channel, transparency flattened on white (a page's paper). */
function greyPipeline(input: Uint8Array) {
  return sharp(input, decodeOptions).flatten({ background: '#ffffff' }).toColourspace('b-w')
}

async function pageSignature(
  request: Extract<ThumbnailRequest, { kind: 'signature' }>,
): Promise<PageSignature> {
  try {
    await boundedSize(request.input)
    return await inDecodeTurn(async () => {
      const hash = request.hash ? await differenceHash(request.input) : null
      // Height 0: the hash alone (the duplicate scan), without a second decode for the sharpness.
      const sharpness =
        request.sharpnessHeight > 0
          ? await laplacianVariance(request.input, request.sharpnessHeight)
          : 0
      return { hash, sharpness }
    })
  } catch (err) {
    if (err instanceof AppError) throw err
    throw undecodable(err)
  }
}

// Imported on the main thread (tests of writeThumbnailFile), this module serves nothing.
if (!Bun.isMainThread) {
  // Parallelism comes from the pool's workers; more libvips threads per worker only contend.
  sharp.concurrency(1)
  serveCalls<ThumbnailRequest, ThumbnailResult>(async (request) => {
    if (request.kind === 'thumbnail') return makeThumbnail(request)
    if (request.kind === 'signature') return pageSignature(request)
    return boundedSize(request.input)
  })
}
