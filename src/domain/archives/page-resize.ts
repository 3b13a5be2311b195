// Pages resized for clients (`max_width` on the page route, the OPDS-PSE `{maxWidth}`): when the
// `server_resizes_images` setting is on and a page is wider than asked, a smaller copy in the
// thumbnail format, made by the thumbnail worker pool and kept in a bounded disk cache under
// <data>/resized (least recently used copies go first).
import { readdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Deps } from '../../deps.ts'
import type { ArchiveRow } from '../../db/repos/archives.repo.ts'
import { AppError } from '../../errors.ts'
import { createLogger } from '../../log.ts'
import type { PageBody } from '../../archive/types.ts'
import { createByteBudget, type ByteBudget } from '../../model/byte-budget.ts'
import { pageMimeType } from '../../model/formats.ts'
import { pageEtag } from './pages.ts'

const log = createLogger('archives')

/** Widths a client may ask for; others are brought within these bounds. */
export const MIN_RESIZE_WIDTH = 64
export const MAX_RESIZE_WIDTH = 4096
/** Bytes the cache may hold before its least recently used copies are removed. */
export const RESIZE_CACHE_BYTES = 512 * 1024 * 1024
/** Bytes of original pages held at once for resizing; more requests wait their turn. */
export const RESIZE_BYTES_IN_FLIGHT = 256 * 1024 * 1024

export type ResizedPage = { bytes: Uint8Array; contentType: string; etag: string }

/** The disk cache of one server's data folder (deps.archives), and its pages being resized. */
export type ResizedPages = {
  dir: string
  /** Relative file name -> size, in use order (oldest first). */
  entries: Map<string, number>
  bytes: number
  /** The copies a previous run left, read on first use. */
  loaded: Promise<void> | null
  /** Original pages held whole while they are resized: at most RESIZE_BYTES_IN_FLIGHT. */
  budget: ByteBudget
}

export function createResizedPages(config: Pick<Deps['config'], 'dataDir'>): ResizedPages {
  return {
    dir: join(config.dataDir, 'resized'),
    entries: new Map(),
    bytes: 0,
    loaded: null,
    budget: createByteBudget(RESIZE_BYTES_IN_FLIGHT),
  }
}

/** The copies a previous run left, oldest use (file time) first. */
async function load(cache: ResizedPages): Promise<void> {
  const found: { name: string; size: number; mtime: number }[] = []
  let folders: string[] = []
  try {
    folders = await readdir(cache.dir)
  } catch {
    return
  }
  for (const folder of folders) {
    let names: string[] = []
    try {
      names = await readdir(join(cache.dir, folder))
    } catch {
      continue
    }
    for (const name of names) {
      if (name.includes('.tmp')) continue
      const info = await stat(join(cache.dir, folder, name)).catch(() => null)
      if (info?.isFile())
        found.push({ name: `${folder}/${name}`, size: info.size, mtime: info.mtimeMs })
    }
  }
  found.sort((a, b) => a.mtime - b.mtime)
  for (const f of found) remember(cache, f.name, f.size)
}

function remember(cache: ResizedPages, name: string, size: number): void {
  const known = cache.entries.get(name)
  if (known !== undefined) {
    cache.entries.delete(name)
    cache.bytes -= known
  }
  cache.entries.set(name, size)
  cache.bytes += size
}

async function evict(cache: ResizedPages, limit: number): Promise<void> {
  for (const [name, size] of cache.entries) {
    if (cache.bytes <= limit) break
    cache.entries.delete(name)
    cache.bytes -= size
    await rm(join(cache.dir, name), { force: true })
  }
}

/** `max_width` as asked, brought within MIN..MAX_RESIZE_WIDTH. */
export function clampWidth(width: number): number {
  return Math.min(MAX_RESIZE_WIDTH, Math.max(MIN_RESIZE_WIDTH, width))
}

/** The validator of a resized copy: the page's own, with the width (or `full`) and format. */
export function resizedEtag(row: ArchiveRow, entry: string, width: number, format: string) {
  return `${pageEtag(row, entry).slice(0, -1)}-w${Number.isFinite(width) ? width : 'full'}-${format}"`
}

/**
 * The page at most `width` px wide, or null when the original is to be sent: resizing is off,
 * the page is not wider, or it does not decode (the original then goes out as it is).
 * `convert` (OPDS, which allows no WebP): a copy in that format whatever the settings say, at
 * most `width` (Infinity: the page's own width) wide; null when the page already is in that
 * format and not wider, or does not decode.
 */
export async function resizedPage(
  deps: Pick<Deps, 'archives' | 'config' | 'settings' | 'thumbnailer'>,
  row: ArchiveRow,
  entry: string,
  openPage: () => Promise<PageBody>,
  width: number,
  options: { cacheBytes?: number; convert?: 'jpeg' } = {},
): Promise<ResizedPage | null> {
  if (!options.convert && !deps.settings.get('server_resizes_images')) return null
  const format = options.convert ?? deps.settings.get('thumbnail_format')
  const contentType = format === 'webp' ? 'image/webp' : 'image/jpeg'
  const etag = resizedEtag(row, entry, width, format)
  const cache = deps.archives.resizedPages
  cache.loaded ??= load(cache)
  await cache.loaded
  const key = new Bun.CryptoHasher('sha1').update(etag).digest('hex')
  const name = `${key.slice(0, 2)}/${key}.${format === 'webp' ? 'webp' : 'jpg'}`
  const path = join(cache.dir, name)
  const file = Bun.file(path)
  if (cache.entries.has(name) && (await file.exists())) {
    remember(cache, name, file.size)
    return { bytes: new Uint8Array(await file.arrayBuffer()), contentType, etag }
  }
  // Not wider: the original, unless it has to change format (a JPEG stays as it is).
  const keepsFormat = !options.convert || pageMimeType(entry) === contentType
  const sizeKey = pageEtag(row, entry)
  const known = deps.archives.dimensions.get(sizeKey)
  if (known && (known.width === 0 || (known.width <= width && keepsFormat))) return null
  const page = await openPage()
  try {
    // The page is held whole while it is measured and resized: bounded across requests.
    const made = await cache.budget.use(page.size, async () => {
      const bytes = await new Response(page.body).bytes()
      let size = known
      if (!size) {
        size = await deps.thumbnailer.dimensions(bytes)
        deps.archives.dimensions.set(sizeKey, size)
      }
      if (size.width === 0 || (size.width <= width && keepsFormat)) return false
      const target = Math.min(width, size.width)
      const height = Math.max(1, Math.round((size.height * target) / size.width))
      // The thumbnail call resizes by height and writes atomically: at this height the copy is
      // `target` px wide (give or take rounding), in the format chosen above.
      await deps.thumbnailer.thumbnail(bytes, path, { format, height })
      return true
    })
    if (!made) return null
  } catch (error) {
    if (!(error instanceof AppError)) throw error
    log.warn('page not resized, sent as it is', { id: row.id, page: entry, error: error.message })
    return null
  }
  const resized = new Uint8Array(await Bun.file(path).arrayBuffer())
  remember(cache, name, resized.length)
  await evict(cache, options.cacheBytes ?? RESIZE_CACHE_BYTES)
  return { bytes: resized, contentType, etag }
}
