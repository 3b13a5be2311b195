// Comparing a staged download (side a) with the archive its filename collides with (side b):
// page signatures in the image workers, an order-preserving alignment, sharpness per aligned
// pair (coarse for every page first, then precise for the pairs). Read-only: both files are only
// read, through the archive reader, and nothing is resolved.
import { stat } from 'node:fs/promises'
import { isAbsolute, join, relative, resolve, sep } from 'node:path'
import type { Deps } from '../../deps.ts'
import { findArchive, type ArchiveRow } from '../../db/repos/archives.repo.ts'
import { findDownloadItem, type DownloadItemRow } from '../../db/repos/downloads.repo.ts'
import { AppError, fail } from '../../errors.ts'
import { createLogger } from '../../log.ts'
import { naturalCompare } from '../../model/natural-sort.ts'
import { toAbsolutePath } from '../archives/files.ts'
import { asReadFailure } from '../archives/read-failure.ts'
import {
  alignPages,
  MAX_ALIGNMENT_CELLS,
  recommend,
  sharperSide,
  unmatchedPages,
  type Better,
  type Recommendation,
  type Side,
  type UnmatchedPage,
} from './compare-align.ts'
import { mapLimited } from '../../model/each-limited.ts'

const log = createLogger('downloads.compare')

/** Height pages are measured at in the coarse pass (every page) and the precise one (pairs). */
export const COARSE_SHARPNESS_HEIGHT = 128
export const PRECISE_SHARPNESS_HEIGHT = 768
/** Pages read and measured at once: bounds the page bytes held in memory. */
const PAGES_IN_FLIGHT = 4

/** One aligned pair: a page of each side, their distance and sharpness. */
export type ComparisonSample = {
  aIndex: number
  bIndex: number
  aFilename: string
  bFilename: string
  distance: number
  aSharpness: number
  bSharpness: number
  better: Better
}

export type ComparisonResult = {
  pairs: ComparisonSample[]
  aTotal: number
  bTotal: number
  unmatchedA: UnmatchedPage[]
  unmatchedB: UnmatchedPage[]
  recommendation: Recommendation
  reason: string
}

export type SampleEvent = {
  sampleIndex: number
  phase: 'coarse' | 'precise'
  sample: ComparisonSample
}

/** The two files of a filename conflict: a = the staged download, b = the existing archive. */
export type CompareSides = {
  item: DownloadItemRow
  aPath: string
  bPath: string
  bRow: ArchiveRow
}

export function requireDownloadItem(deps: Pick<Deps, 'db'>, id: string): DownloadItemRow {
  const item = findDownloadItem(deps.db, id)
  if (!item) throw fail.not_found('No download queue item with this ID.')
  return item
}

/** 404 for an unknown item; 400 when it has no staged download and existing archive to compare. */
export function requireCompareSides(deps: Pick<Deps, 'db' | 'config'>, id: string): CompareSides {
  const item = requireDownloadItem(deps, id)
  if (!item.tempPath || !item.existingId)
    throw fail.bad_request('This item has no staged download and existing archive to compare.')
  const bRow = findArchive(deps.db, item.existingId)
  if (!bRow || bRow.unlinked) throw fail.bad_request('The existing archive is no longer there.')
  // Staged downloads live in the data folder; a stored path pointing elsewhere is not read.
  const aPath = resolve(
    isAbsolute(item.tempPath) ? item.tempPath : join(deps.config.tempDir, item.tempPath),
  )
  const inside = relative(resolve(deps.config.dataDir), aPath)
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside) || inside.startsWith(sep))
    throw fail.bad_request('The staged download is not in the data folder.')
  return { item, aPath, bPath: toAbsolutePath(deps.config.contentDir, bRow.path), bRow }
}

async function fileStamp(path: string, missing: string): Promise<string> {
  const info = await stat(path).catch(() => null)
  if (!info?.isFile()) throw fail.bad_request(missing)
  return `${info.size}:${info.mtimeMs}`
}

/** What a kept comparison is valid for: both files as they are now. */
async function identityOf(sides: CompareSides): Promise<string> {
  const a = await fileStamp(sides.aPath, 'The staged download file is missing.')
  const b = await fileStamp(sides.bPath, 'The existing archive file is missing.')
  return `${a}|${b}`
}

type Signature = { hash: string | null; sharpness: number }

/** A page that cannot be read or decoded gets no hash (it matches nothing) and sharpness 0. */
async function measure(
  deps: Pick<Deps, 'reader' | 'thumbnailer'>,
  path: string,
  entry: string,
  options: { hash: boolean; sharpnessHeight: number },
): Promise<Signature> {
  try {
    return await deps.thumbnailer.signature(await deps.reader.readPage(path, entry), options)
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'unprocessable') throw error
    log.warn('page not measured', { entry, error: error.message })
    return { hash: null, sharpness: 0 }
  }
}

/**
 * Pages of one side in natural order (the reader's pages; side b without its patch pages): the
 * spec's "natural-sort page position", not the reader's order, which puts covers first.
 */
export async function sidePages(deps: Pick<Deps, 'reader'>, sides: CompareSides, side: Side) {
  const pages = await deps.reader.listPages(side === 'a' ? sides.aPath : sides.bPath)
  return [...pages].sort(naturalCompare)
}

/** Runs the whole comparison, reporting each pair's coarse sample, then its precise one. */
export async function runComparison(
  deps: Pick<Deps, 'reader' | 'thumbnailer'>,
  sides: CompareSides,
  onSample: (event: SampleEvent) => void = () => {},
): Promise<ComparisonResult> {
  const aPages = await sidePages(deps, sides, 'a')
  const bPages = await sidePages(deps, sides, 'b')
  if ((aPages.length + 1) * (bPages.length + 1) > MAX_ALIGNMENT_CELLS)
    throw fail.unprocessable('These archives have too many pages to compare.')
  const coarse = { hash: true, sharpnessHeight: COARSE_SHARPNESS_HEIGHT }
  const aSigs = await mapLimited(aPages, PAGES_IN_FLIGHT, (e) =>
    measure(deps, sides.aPath, e, coarse),
  )
  const bSigs = await mapLimited(bPages, PAGES_IN_FLIGHT, (e) =>
    measure(deps, sides.bPath, e, coarse),
  )
  const aligned = alignPages(
    aSigs.map((s) => s.hash),
    bSigs.map((s) => s.hash),
  )
  const pairs = aligned.map((pair, index): ComparisonSample => {
    const aSharpness = aSigs[pair.a]!.sharpness
    const bSharpness = bSigs[pair.b]!.sharpness
    const sample: ComparisonSample = {
      aIndex: pair.a,
      bIndex: pair.b,
      aFilename: aPages[pair.a]!,
      bFilename: bPages[pair.b]!,
      distance: pair.distance,
      aSharpness,
      bSharpness,
      better: sharperSide(aSharpness, bSharpness),
    }
    onSample({ sampleIndex: index, phase: 'coarse', sample })
    return sample
  })
  const precise = { hash: false, sharpnessHeight: PRECISE_SHARPNESS_HEIGHT }
  await mapLimited(pairs, PAGES_IN_FLIGHT / 2, async (sample, index) => {
    const [a, b] = await Promise.all([
      measure(deps, sides.aPath, sample.aFilename, precise),
      measure(deps, sides.bPath, sample.bFilename, precise),
    ])
    const replaced: ComparisonSample = {
      ...sample,
      aSharpness: a.sharpness,
      bSharpness: b.sharpness,
      better: sharperSide(a.sharpness, b.sharpness),
    }
    pairs[index] = replaced
    onSample({ sampleIndex: index, phase: 'precise', sample: replaced })
  })
  const unmatchedA = unmatchedPages('a', aPages, bPages, aligned)
  const unmatchedB = unmatchedPages('b', bPages, aPages, aligned)
  return {
    pairs,
    aTotal: aPages.length,
    bTotal: bPages.length,
    unmatchedA,
    unmatchedB,
    ...recommend({
      better: pairs.map((p) => p.better),
      unmatchedA: unmatchedA.length,
      unmatchedB: unmatchedB.length,
    }),
  }
}

/**
 * POST compare and the stream: the kept comparison of this item when both files are unchanged
 * (replayed to `onSample` as a burst of coarse samples with the final figures), else a new run,
 * kept for the next caller. A run in flight is shared: a second caller waits for it, then replays.
 */
export async function compareDownload(
  deps: Pick<Deps, 'config' | 'db' | 'downloads' | 'reader' | 'thumbnailer'>,
  id: string,
  onSample?: (event: SampleEvent) => void,
): Promise<ComparisonResult> {
  const sides = requireCompareSides(deps, id)
  const key = await identityOf(sides)
  const kept = deps.downloads.comparisons.get(id)
  if (kept && kept.key === key) {
    const result = kept.settled ?? (await kept.result)
    result.pairs.forEach((sample, index) =>
      onSample?.({ sampleIndex: index, phase: 'coarse', sample }),
    )
    return result
  }
  return deps.downloads.comparisons.set(id, key, runComparison(deps, sides, onSample)).result
}

/** GET compare/pages: entry names of one side in natural page order. */
export async function listSidePages(
  deps: Pick<Deps, 'config' | 'db' | 'reader'>,
  id: string,
  side: Side,
): Promise<string[]> {
  const sides = requireCompareSides(deps, id)
  try {
    return await sidePages(deps, sides, side)
  } catch (error) {
    throw asReadFailure(error, `Reading side ${side}`, { item: id })
  }
}

/** GET compare/page: one page of one side by its position (0-based) in that order. */
export async function readSidePage(
  deps: Pick<Deps, 'config' | 'db' | 'reader'>,
  id: string,
  side: Side,
  index: number,
): Promise<{ entry: string; bytes: Uint8Array<ArrayBuffer> }> {
  const sides = requireCompareSides(deps, id)
  const pages = await listSidePages(deps, id, side)
  const entry = pages[index]
  if (entry === undefined) throw fail.bad_request(`Side ${side} has no page ${index}.`)
  try {
    return {
      entry,
      bytes: await deps.reader.readPage(side === 'a' ? sides.aPath : sides.bPath, entry),
    }
  } catch (error) {
    throw asReadFailure(error, 'Reading the page', { item: id, side, entry })
  }
}
