// database/clean: rows whose file is gone are unlinked (hidden) first; a later run deletes them.
import { existsSync } from 'node:fs'
import type { Deps } from '../../deps.ts'
import { listArchiveFileStamps } from '../../db/repos/archives.repo.ts'
import { commit } from '../commit.ts'
import { toAbsolutePath } from './files.ts'
import { deleteThumbnails } from './thumbnails.ts'
import { deleteArchiveRows, hideArchive } from './save.ts'

export async function cleanDatabase(
  deps: Pick<Deps, 'config' | 'db' | 'events'>,
): Promise<{ deleted: number; unlinked: number }> {
  const toDelete: string[] = []
  const toUnlink: string[] = []
  for (const row of listArchiveFileStamps(deps.db)) {
    if (existsSync(toAbsolutePath(deps.config.contentDir, row.path))) continue
    ;(row.unlinked ? toDelete : toUnlink).push(row.id)
  }
  commit(deps, (w) => deleteArchiveRows(w, toDelete))
  // An unlinked row keeps its memberships: the file may come back (scan.ts shows it again).
  commit(deps, (w) => {
    for (const id of toUnlink) hideArchive(w, id)
  })
  for (const id of toDelete) await deleteThumbnails(deps, id)
  return { deleted: toDelete.length, unlinked: toUnlink.length }
}
