// Placing, the last step of an upload: a checked staged file is copied into the content folder
// under a temp name, fsynced, catalogued through the archive writer and renamed to its own name.
// A failure at any step leaves no half file in the content folder and no orphan row.
import { copyFile, open, rename, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Deps } from '../../deps.ts'
import type { ArchiveRow } from '../../db/repos/archives.repo.ts'
import { AppError } from '../../errors.ts'
import { commit, type Write } from '../commit.ts'
import { TEMP_MARKER } from './files.ts'
import { isPathTaken } from './placement.ts'
import { findArchive, readArchivePages } from '../../db/repos/archives.repo.ts'
import { insertCatalogRow, relinkCatalogRow, type ImportOverrides } from './catalog-row.ts'
import { deleteArchiveRows, patchArchive } from './save.ts'
import { deleteThumbnails } from './thumbnails.ts'
import { findDuplicate, findNameClash, finalPathOf, type Conflict } from './check-staged.ts'
import { removeQuietly, type StagedUpload } from './stage.ts'

export type Placed = { kind: 'placed'; row: ArchiveRow }

async function fsyncFile(path: string): Promise<void> {
  const handle = await open(path, 'r+')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/**
 * Catalogues a checked staged file (`pages` from checkStaged) and queues its cover thumbnail. The
 * file's id and name are claimed while it is placed, so a concurrent upload of the same file or
 * under the same name is a conflict. The staged file itself is left to the caller.
 */
export async function placeStaged(
  deps: Pick<Deps, 'archives' | 'config' | 'db' | 'events' | 'jobs'>,
  staged: StagedUpload,
  pages: string[],
  overrides: ImportOverrides,
): Promise<Placed | Conflict> {
  const duplicate = await findDuplicate(deps, staged)
  if (duplicate) return duplicate
  deps.archives.uploads.ids.add(staged.id)
  let claimedPath: string | null = null
  try {
    // Early answer before the copy; checked again where the file is placed. Two different files
    // uploaded under one name at once: the second is a conflict as well.
    const clash = await findNameClash(deps, staged)
    if (clash) return clash
    const finalPath = finalPathOf(deps, staged)
    deps.archives.uploads.paths.add(finalPath)
    claimedPath = finalPath
    const row = await copyIntoPlace(deps, staged, finalPath, pages, overrides)
    if (!row) return { kind: 'name_taken', name: staged.name }
    deps.jobs.enqueue('thumbnails', { ids: [staged.id], page: 0 })
    return { kind: 'placed', row }
  } finally {
    deps.archives.uploads.ids.delete(staged.id)
    if (claimedPath) deps.archives.uploads.paths.delete(claimedPath)
  }
}

/** The copy, the row and the rename; null when a rename took the name since the early check. */
async function copyIntoPlace(
  deps: Pick<Deps, 'archives' | 'config' | 'db' | 'events'>,
  staged: StagedUpload,
  finalPath: string,
  pages: string[],
  overrides: ImportOverrides,
): Promise<ArchiveRow | null> {
  // Not named after the upload: a name near the length limit must not overflow it here.
  const tempPath = join(deps.config.contentDir, `${TEMP_MARKER}${crypto.randomUUID()}`)
  try {
    try {
      const fault = deps.archives.uploads.placementFault?.()
      if (fault) throw fault
      await copyFile(staged.path, tempPath)
      await fsyncFile(tempPath)
    } catch (error) {
      throw new AppError(
        'internal',
        "The file couldn't be written to the content folder.",
        undefined,
        { cause: error },
      )
    }
    const st = await stat(tempPath)
    return await deps.archives.placement.alone(async () => {
      if (await isPathTaken(deps, finalPath, undefined, staged.id)) return null
      // A row without its file (findDuplicate let it through) comes back for this file.
      const lost = findArchive(deps.db, staged.id)
      const lostPages = lost && readArchivePages(deps.db, lost.id)
      const read = { id: staged.id, pages }
      // The row is written before the rename so the watcher's rescan finds the file known.
      const row = commit(deps, (w) =>
        lost
          ? relinkCatalogRow(deps, w, finalPath, st, read, overrides, lost)
          : insertCatalogRow(deps, w, finalPath, st, read, overrides),
      )
      try {
        await rename(tempPath, finalPath)
      } catch (error) {
        commit(deps, (w) =>
          lost ? restoreRow(w, lost, lostPages) : deleteArchiveRows(w, [staged.id]),
        )
        throw error
      }
      if (lost) await deleteThumbnails(deps, lost.id)
      return row ?? null
    })
  } finally {
    await removeQuietly(tempPath)
  }
}

/** Undoes a relink whose file could not take its name: the row as it was, pages included. */
function restoreRow(w: Write, row: ArchiveRow, pages: string[] | undefined): void {
  const { id, ...fields } = row
  patchArchive(w, id, fields, pages)
}
