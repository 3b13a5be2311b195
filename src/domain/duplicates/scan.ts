// The duplicate scan (the find_duplicates job): every archive's cover hash (stored when its
// thumbnail was made; computed now when missing or stale), candidate pairs from the cover index,
// sampled page hashes for the archives in a candidate pair only, the pairs whose pages agree joined
// into groups, and the groups stored in place of the last scan's.
// Snake_case kept: `covers_hashed` is the find_duplicates job's result (stored job JSON, JobStatus
// `result`).
import type { Deps } from '../../deps.ts'
import { tx } from '../../db/client.ts'
import {
  findArchive,
  listDuplicateScanRows,
  type ArchiveRow,
  type DuplicateScanRow,
} from '../../db/repos/archives.repo.ts'
import {
  findArchiveHashes,
  listArchiveHashes,
  replaceDuplicateGroups,
  savePageHashes,
  type ArchiveHashRow,
} from '../../db/repos/duplicates.repo.ts'
import { makeThumbnail, readThumbnailFile, type ThumbnailDeps } from '../archives/thumbnails.ts'
import { AppError } from '../../errors.ts'
import { eachLimited } from '../../model/each-limited.ts'
import {
  buildCoverIndex,
  FLAT_HASH,
  groupPairs,
  packHashes,
  pagesAgree,
  samplePages,
} from './group.ts'
import { hashCover, pagesSourceOf, SIGNATURE } from './hashes.ts'

/** Two archives hashed at once, like thumbnails: sharp gains from two in flight on two cores. */
const IN_FLIGHT = 2
/** Cover index queries between two yields to the event loop (HTTP stays responsive). */
const QUERIES_PER_SLICE = 5_000

export type ScanControl = {
  /** 0..1, with notes for the job's status. */
  progress(fraction: number, notes?: Record<string, unknown>): void
  signal: AbortSignal
  jobId: number | null
}

export type ScanOutcome = {
  /** Linked archives looked at. */
  archives: number
  /** Covers hashed by this scan (the others were stored when their thumbnails were made). */
  covers_hashed: number
  /** Archives whose cover had a candidate, and so were compared page by page. */
  compared: number
  groups: number
  /** Archives in a group. */
  duplicates: number
  /** Archives that could not be hashed, with the reason (raw: the job makes it public). */
  failed: { id: string; error: string }[]
  /** Whether the scan stopped before storing groups (server stopping). */
  interrupted?: true
}

/** A stored cover hash is current while the archive's thumbnail is the one it was taken from. */
function coverIsCurrent(row: DuplicateScanRow, stored: ArchiveHashRow | undefined): boolean {
  return !!stored && row.thumbhash !== null && stored.coverSource === row.thumbhash
}

/**
 * The cover from its existing thumbnail (a small decode), else from a new thumbnail, whose making
 * hashes it (thumbnails.ts). Returns the hash, null when it could not be taken.
 */
async function hashMissingCover(deps: ThumbnailDeps, row: ArchiveRow): Promise<string | null> {
  // Read when found, in one step: a rescan may remove it between a look and a later read.
  const image = row.thumbhash === null ? null : await readThumbnailFile(deps, row.id, 0)
  if (image) return hashCover(deps, row.id, image.bytes, row.thumbhash!)
  await makeThumbnail(deps, row, 0)
  return findArchiveHashes(deps.db, [row.id])[0]?.coverHash ?? null
}

/**
 * A sampled page's hash, from its page thumbnail (made now when missing, and kept for the reader).
 * A page that cannot be read or decoded gets null: it agrees with nothing.
 */
async function hashPage(
  deps: ThumbnailDeps,
  row: ArchiveRow,
  page: number,
): Promise<string | null> {
  try {
    const kept = await readThumbnailFile(deps, row.id, page)
    const bytes = kept?.bytes ?? (await Bun.file(await makeThumbnail(deps, row, page)).bytes())
    return (await deps.thumbnailer.signature(bytes, SIGNATURE)).hash
  } catch (error) {
    if (error instanceof AppError && error.code === 'bad_request') return null
    throw error
  }
}

/** Hashes the sampled pages (group.ts `samplePages`) and stores them. */
async function hashSampledPages(deps: ThumbnailDeps, row: ArchiveRow): Promise<(string | null)[]> {
  const hashes: (string | null)[] = []
  for (const page of samplePages(row.pagecount)) hashes.push(await hashPage(deps, row, page))
  savePageHashes(deps.db, row.id, hashes, pagesSourceOf(row))
  return hashes
}

/**
 * The whole row of an archive the scan must hash (its file is read), read only then: at a million
 * archives, whole rows of all of them (tags, summaries) are ~1 GB the scan never looks at.
 */
function wholeRowOf(deps: Pick<Deps, 'db'>, row: DuplicateScanRow): ArchiveRow {
  const whole = findArchive(deps.db, row.id)
  if (!whole || whole.unlinked) throw new Error('the archive is gone')
  return whole
}

export async function findDuplicates(
  deps: ThumbnailDeps,
  control: ScanControl,
): Promise<ScanOutcome> {
  const { signal } = control
  const rows = listDuplicateScanRows(deps.db)
  const stored = new Map(listArchiveHashes(deps.db).map((h) => [h.archiveId, h]))
  const outcome: ScanOutcome = {
    archives: rows.length,
    covers_hashed: 0,
    compared: 0,
    groups: 0,
    duplicates: 0,
    failed: [],
  }
  const failed = (row: DuplicateScanRow, error: unknown) =>
    outcome.failed.push({ id: row.id, error: (error as Error).message ?? String(error) })

  // 1. Covers (0 .. 0.5 of the progress).
  const covers = new Map<string, string>()
  const missing: DuplicateScanRow[] = []
  for (const row of rows) {
    const hash = stored.get(row.id)
    if (coverIsCurrent(row, hash)) covers.set(row.id, hash!.coverHash)
    else missing.push(row)
  }
  let done = 0
  await eachLimited(
    missing,
    IN_FLIGHT,
    async (row) => {
      try {
        const hash = await hashMissingCover(deps, wholeRowOf(deps, row))
        if (hash === null) throw new Error('the cover could not be hashed')
        covers.set(row.id, hash)
        outcome.covers_hashed++
      } catch (error) {
        failed(row, error)
      }
      done++
      control.progress((0.5 * done) / missing.length, { phase: 'covers', progress: done })
    },
    signal,
  )
  if (signal.aborted) return { ...outcome, interrupted: true }

  // 2. Candidate pairs from the cover index (0.5 .. 0.6). Flat covers say nothing: not indexed.
  const indexed = rows.filter((row) => {
    const hash = covers.get(row.id)
    return hash !== undefined && hash !== FLAT_HASH
  })
  const index = buildCoverIndex(packHashes(indexed.map((row) => covers.get(row.id)!)))
  const candidates: [number, number][] = []
  for (let i = 0; i < indexed.length; i++) {
    for (const j of index.candidatesOf(i)) candidates.push([i, j])
    if ((i + 1) % QUERIES_PER_SLICE === 0) {
      control.progress(0.5 + (0.1 * (i + 1)) / indexed.length, { phase: 'covers_compared' })
      await Bun.sleep(0)
      if (signal.aborted) return { ...outcome, interrupted: true }
    }
  }

  // 3. Sampled pages of the archives in a candidate pair (0.6 .. 0.95), stored for next time.
  const involved = [...new Set(candidates.flat())].map((i) => indexed[i]!)
  const pages = new Map<string, (string | null)[]>()
  const storedNow = new Map(listArchiveHashes(deps.db).map((h) => [h.archiveId, h]))
  const toSample: DuplicateScanRow[] = []
  for (const row of involved) {
    const hash = storedNow.get(row.id)
    if (hash?.pageHashes && hash.pagesSource === pagesSourceOf(row))
      pages.set(row.id, JSON.parse(hash.pageHashes) as (string | null)[])
    else toSample.push(row)
  }
  done = 0
  await eachLimited(
    toSample,
    IN_FLIGHT,
    async (row) => {
      try {
        pages.set(row.id, await hashSampledPages(deps, wholeRowOf(deps, row)))
      } catch (error) {
        failed(row, error)
      }
      done++
      control.progress(0.6 + (0.35 * done) / toSample.length, { phase: 'pages', progress: done })
    },
    signal,
  )
  if (signal.aborted) return { ...outcome, interrupted: true }
  outcome.compared = involved.length

  // 4. Pairs whose pages agree, joined into groups, oldest archive first in each.
  const confirmed = candidates.filter(([i, j]) => {
    const a = pages.get(indexed[i]!.id)
    const b = pages.get(indexed[j]!.id)
    return a !== undefined && b !== undefined && pagesAgree(a, b)
  })
  const groups = groupPairs(indexed.length, confirmed).map((group) =>
    group
      .map((i) => indexed[i]!)
      .sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id))
      .map((row) => row.id),
  )
  tx(deps.db, () => replaceDuplicateGroups(deps.db, groups, control.jobId))
  outcome.groups = groups.length
  outcome.duplicates = groups.reduce((sum, group) => sum + group.length, 0)
  control.progress(1, { phase: 'done' })
  return outcome
}
