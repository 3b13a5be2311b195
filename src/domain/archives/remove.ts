// Deleting archives: the file (and its sidecar patch), the row, thumbnails, index entries.
import { rm } from 'node:fs/promises'
import { basename } from 'node:path'
import type { Deps } from '../../deps.ts'
import { findArchive, type ArchiveRow } from '../../db/repos/archives.repo.ts'
import { AppError } from '../../errors.ts'
import { isArchiveId } from '../../model/ids.ts'
import { patchPathOf, toAbsolutePath } from './files.ts'
import { deletePageThumbnails, deleteThumbnails } from './thumbnails.ts'
import { ownPageCount } from './patch.ts'
import { commit } from '../commit.ts'
import { deleteArchiveRows, patchArchive } from './save.ts'

/** The spec's "deletes metadata and file": the one place user files are removed. */
export function deleteArchive(
  deps: Pick<Deps, 'config' | 'db' | 'events' | 'locks' | 'reader'>,
  row: ArchiveRow,
): Promise<{ filename: string; id: string }> {
  return deps.locks.withLock(row.id, async () => {
    const absPath = toAbsolutePath(deps.config.contentDir, row.path)
    deps.reader.dropCached(absPath)
    commit(deps, (w) => deleteArchiveRows(w, [row.id]))
    await rm(absPath, { force: true })
    await rm(patchPathOf(absPath), { force: true })
    await deleteThumbnails(deps, row.id)
    return { filename: basename(row.path), id: row.id }
  })
}

export async function deleteArchives(
  deps: Pick<Deps, 'config' | 'db' | 'events' | 'locks' | 'reader'>,
  ids: string[],
): Promise<{ id: string; success: 0 | 1; error?: string }[]> {
  const results: { id: string; success: 0 | 1; error?: string }[] = []
  for (const id of ids) {
    if (!isArchiveId(id)) {
      results.push({ id, success: 0, error: 'Invalid archive ID.' })
      continue
    }
    const row = findArchive(deps.db, id)
    if (!row) {
      results.push({ id, success: 0, error: 'No archive with this ID.' })
      continue
    }
    try {
      await deleteArchive(deps, row)
      results.push({ id, success: 1 })
    } catch (error) {
      if (!(error instanceof AppError)) throw error
      results.push({ id, success: 0, error: error.message })
    }
  }
  return results
}

/**
 * Removes the sidecar patch zip (if any) and clears has_patch: the page list, its count and the
 * page thumbnails (numbered by page) go back to the archive's own.
 */
export function deletePatch(
  deps: Pick<Deps, 'config' | 'db' | 'events' | 'locks' | 'reader'>,
  row: ArchiveRow,
): Promise<ArchiveRow> {
  return deps.locks.withLock(row.id, async () => {
    const patchPath = patchPathOf(toAbsolutePath(deps.config.contentDir, row.path))
    await rm(patchPath, { force: true })
    deps.reader.dropCached(patchPath)
    const pagecount = ownPageCount(deps, row)
    const updated = commit(deps, (w) => patchArchive(w, row.id, { hasPatch: false, pagecount }))
    if (row.hasPatch) await deletePageThumbnails(deps, row.id)
    return updated ?? row
  })
}
