// Replacing an archive without risking it: its file (and sidecar patch) is renamed to a temp-marked
// name in the same folder, which frees its name and which the scanner skips, and its row follows.
// The caller then places the replacement and either discards the old archive (deleted as the spec
// says) or, when placing failed, restores it exactly as it was.
import { rename, rm } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { Deps } from '../../deps.ts'
import { findArchive, type ArchiveRow } from '../../db/repos/archives.repo.ts'
import { commit } from '../commit.ts'
import { patchPathOf, TEMP_MARKER, toAbsolutePath, toContentPath } from './files.ts'
import { deleteArchive } from './remove.ts'
import { patchArchive } from './save.ts'

export type ArchiveSetAside = {
  /** Puts file, patch and row back under the original name. */
  restore(): Promise<void>
  /** Deletes the old archive (file, patch, row, thumbnails). */
  discard(): Promise<void>
}

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException)?.code === 'ENOENT'

export function setArchiveAside(
  deps: Pick<Deps, 'config' | 'db' | 'events' | 'locks' | 'reader'>,
  row: ArchiveRow,
): Promise<ArchiveSetAside> {
  return deps.locks.withLock(row.id, async () => {
    const { contentDir } = deps.config
    const absPath = toAbsolutePath(contentDir, row.path)
    const asidePath = join(dirname(absPath), `${TEMP_MARKER}${crypto.randomUUID()}`)
    const patchPath = patchPathOf(absPath)
    const patchAside = `${asidePath}.patch`
    deps.reader.dropCached(absPath)
    await rename(absPath, asidePath)
    let movedPatch = false
    try {
      await rename(patchPath, patchAside)
      movedPatch = true
    } catch (error) {
      if (!isMissing(error)) {
        await rename(asidePath, absPath)
        throw error
      }
    }
    commit(deps, (w) => patchArchive(w, row.id, { path: toContentPath(contentDir, asidePath) }))

    return {
      restore: () =>
        deps.locks.withLock(row.id, async () => {
          deps.reader.dropCached(asidePath)
          await rename(asidePath, absPath)
          if (movedPatch) await rename(patchAside, patchPath)
          commit(deps, (w) => patchArchive(w, row.id, { path: row.path }))
        }),
      discard: async () => {
        const current = findArchive(deps.db, row.id)
        if (current) await deleteArchive(deps, current)
        else await rm(asidePath, { force: true })
        await rm(patchAside, { force: true })
      },
    }
  })
}
