// A staged download into the library, through the upload pipeline's check and placement: the
// same file already catalogued ends the item in error with that archive's id; another file under
// the same name parks the item (`waiting`) with its staged file kept at temp_path until the user
// answers (overwrite, rename, compare); otherwise the archive is catalogued into the item's
// category and, with auto_fetch_metadata, tagged by the matching metadata plugin.
// Snake_case kept: the pending filename conflict (`existing_id`) is the item row's stored JSON
// (resolve.ts PendingConflict).
import type { Deps } from '../../deps.ts'
import type { PluginRunDeps } from '../plugins/run.ts'
import { findArchiveByPath } from '../../db/repos/archives.repo.ts'
import {
  findDownloadItem,
  type DownloadItemPatch,
  type DownloadItemRow,
} from '../../db/repos/downloads.repo.ts'
import { createLogger } from '../../log.ts'
import { checkStaged, finalPathOf } from '../archives/check-staged.ts'
import { toContentPath } from '../archives/files.ts'
import { placeStaged } from '../archives/place-staged.ts'
import type { StagedUpload } from '../archives/stage.ts'
import { addToCategory, getCategory } from '../collections/categories.ts'
import { commit } from '../commit.ts'
import { fail } from '../../errors.ts'
import { patchDownloadRow } from './item-save.ts'
import { applyMetadataAfterDownload } from './metadata.ts'
import { removeStagedDownload } from './staging.ts'

const log = createLogger('downloads')

export type IngestOutcome =
  | { kind: 'done'; archiveId: string }
  | { kind: 'duplicate'; existingId: string }
  | { kind: 'name_taken'; existingId: string | null; filename: string }

/** Writes `patch` when `owns` still holds for the stored row (the item was not stopped or deleted). */
export function patchItemIf(
  deps: Pick<Deps, 'db' | 'events'>,
  id: string,
  owns: (row: DownloadItemRow) => boolean,
  patch: DownloadItemPatch | ((row: DownloadItemRow) => DownloadItemPatch),
): DownloadItemRow | undefined {
  return commit(deps, (w) => {
    const row = findDownloadItem(w.db, id)
    if (!row || !owns(row)) return undefined
    return patchDownloadRow(w, id, typeof patch === 'function' ? patch(row) : patch)
  })
}

/** A static category the archive can go into; checked before any byte moves. */
export function checkItemCategory(deps: Pick<Deps, 'db'>, category: string | null): void {
  if (category && getCategory(deps, category, null).search)
    throw fail.bad_request('Cannot add an archive to a dynamic category.')
}

/** What cataloguing a download needs: placing the file, its queue item, its metadata plugins. */
export type DownloadIngestDeps = PluginRunDeps &
  Pick<Deps, 'archives' | 'downloads' | 'jobs' | 'locks' | 'reader'>

/**
 * Catalogues `staged` for `item` and records the outcome on the item (when `owns` still holds).
 * The staged file is removed unless a filename conflict keeps it. Throws for a file that cannot
 * be catalogued (not an archive: 422), after removing it.
 */
export async function ingestForItem(
  deps: DownloadIngestDeps,
  item: DownloadItemRow,
  staged: StagedUpload,
  owns: (row: DownloadItemRow) => boolean,
  /** False for all but the last of several resources: the item stays downloading. */
  last = true,
): Promise<IngestOutcome> {
  let placed: Awaited<ReturnType<typeof placeStaged>>
  try {
    const checked = await checkStaged(deps, staged)
    placed =
      checked.kind === 'ready'
        ? await placeStaged(deps, staged, checked.pages, item.title ? { title: item.title } : {})
        : checked
  } catch (error) {
    await removeStagedDownload(deps, staged.path)
    throw error
  }
  // Gone before the item says so: a client that sees the new state finds no staged file left.
  if (placed.kind !== 'name_taken') await removeStagedDownload(deps, staged.path)
  if (placed.kind === 'duplicate') {
    patchItemIf(deps, item.id, owns, {
      state: 'error',
      error: `Already in the library as archive ${placed.id}.`,
      existingId: placed.id,
      tempPath: null,
      pendingFilenameConflict: null,
    })
    return { kind: 'duplicate', existingId: placed.id }
  }
  if (placed.kind === 'name_taken') {
    const existing = findArchiveByPath(
      deps.db,
      toContentPath(deps.config.contentDir, finalPathOf(deps, staged)),
    )
    const existingId = existing?.id ?? null
    patchItemIf(deps, item.id, owns, {
      state: 'waiting',
      error: null,
      tempPath: staged.path,
      existingId,
      pendingFilenameConflict: JSON.stringify({ existing_id: existingId, filename: staged.name }),
    })
    return { kind: 'name_taken', existingId, filename: staged.name }
  }
  const archiveId = placed.row.id
  if (item.category)
    try {
      addToCategory(deps, item.category, archiveId)
    } catch (error) {
      log.warn('downloaded archive not added to its category', {
        category: item.category,
        error: error instanceof Error ? error.message : String(error),
      })
    }
  const title = placed.row.title
  // Several resources catalogued one by one (no bundling) each add their archive.
  patchItemIf(deps, item.id, owns, (row) => ({
    state: last ? 'done' : row.state,
    error: null,
    title,
    archiveIds: JSON.stringify([...(JSON.parse(row.archiveIds) as string[]), archiveId]),
    existingId: null,
    tempPath: null,
    pendingFilenameConflict: null,
    pendingRevisionConfirmation: null,
  }))
  if (item.autoFetchMetadata)
    await applyMetadataAfterDownload(deps, item, archiveId).catch((error: unknown) =>
      log.warn('metadata after download failed', {
        item: item.id,
        error: error instanceof Error ? error.message : String(error),
      }),
    )
  return { kind: 'done', archiveId }
}
