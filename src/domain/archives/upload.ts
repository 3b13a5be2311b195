// The upload pipeline, from a staged file (stage.ts) to a catalogued archive: check
// (check-staged.ts), place (place-staged.ts), then the category it was sent into. Uploads and,
// later, downloads enter it through ingestStaged.
import { readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Deps } from '../../deps.ts'
import { fail } from '../../errors.ts'
import { addToCategory, getCategory } from '../collections/categories.ts'
import { TEMP_MARKER } from './files.ts'
import { walkContentFolder } from './walk.ts'
import type { ImportOverrides } from './catalog-row.ts'
import { checkStaged, type Conflict } from './check-staged.ts'
import { placeStaged, type Placed } from './place-staged.ts'
import { discardStagedUpload, STAGED_PREFIX, type StagedUpload } from './stage.ts'

/** One server's uploads in progress. */
export type UploadsInFlight = {
  /** Ids being uploaded right now: a concurrent upload of the same file is a duplicate (409). */
  ids: Set<string>
  /** Paths being written into the content folder right now. */
  paths: Set<string>
  /**
   * Test seam: a disk fault to raise instead of the next write of a received file (an upload
   * being staged, a backup file for restore or import). A full disk (ENOSPC) or a failing one
   * (EIO) cannot be produced unprivileged in a test.
   */
  stagingWriteFault?: () => Error | undefined
  /** Test seam: the same, for the copy of a checked file into the content folder. */
  placementFault?: () => Error | undefined
}

export function createUploadsInFlight(): UploadsInFlight {
  return { ids: new Set(), paths: new Set() }
}

/**
 * What comes with a staged file: the SHA-1 (hex) the sender announced, the static category to add
 * it to, and metadata that replaces what the file name gives.
 */
export type IngestInput = ImportOverrides & { checksum?: string; categoryId?: string }

export type Ingested = Placed | Conflict

/**
 * Checks and catalogues a staged file, into `categoryId` when given; the staged file is removed
 * whatever happens. A clash with the library comes back as data; a caller that must answer it
 * before the file is gone (a download) asks checkStaged first.
 */
export async function ingestStaged(
  deps: Pick<Deps, 'archives' | 'config' | 'db' | 'events' | 'jobs' | 'reader'>,
  staged: StagedUpload,
  input: IngestInput,
): Promise<Ingested> {
  try {
    const { checksum, categoryId, ...overrides } = input
    // Checked before the file lands, so a bad category refuses the file instead of half-doing it.
    if (categoryId && getCategory(deps, categoryId, null).search)
      throw fail.bad_request('Cannot add an archive to a dynamic category.')
    const checked = await checkStaged(deps, staged, { checksum })
    if (checked.kind !== 'ready') return checked
    const placed = await placeStaged(deps, staged, checked.pages, overrides)
    if (placed.kind === 'placed' && categoryId) addToCategory(deps, categoryId, placed.row.id)
    return placed
  } finally {
    await discardStagedUpload(staged)
  }
}

/**
 * Boot only (no write can be in flight): removes what a crash left of uploads, the staged copies
 * in the temp folder and the temp-named files in the content folder. Returns how many.
 */
export async function removeInterruptedWrites(config: Deps['config']): Promise<number> {
  const leftovers = [
    ...(await readdir(config.tempDir).catch(() => []))
      .filter((name) => name.startsWith(STAGED_PREFIX))
      .map((name) => join(config.tempDir, name)),
    ...(
      await walkContentFolder(config.contentDir, (name) => name.includes(TEMP_MARKER)).catch(
        () => ({ files: [] }),
      )
    ).files,
  ]
  for (const path of leftovers) await rm(path, { force: true })
  return leftovers.length
}
