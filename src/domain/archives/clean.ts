// database/clean: rows whose file is gone are unlinked (hidden) first; a later run deletes them.
import { existsSync } from 'node:fs'
import type { Deps } from '../../deps.ts'
import { tx } from '../../db/client.ts'
import { updateArchive } from '../../db/repos/archives.repo.ts'
import { archives } from '../../db/schema/archives.ts'
import { toAbsolutePath } from './files.ts'
import { deleteThumbnails } from './thumbnails.ts'
import { tankoubonsHolding } from '../../db/repos/tankoubons.repo.ts'
import { forgetArchiveRows } from './forget.ts'

export async function cleanDatabase(deps: Deps): Promise<{ deleted: number; unlinked: number }> {
  const rows = deps.db
    .select({ id: archives.id, path: archives.path, unlinked: archives.unlinked })
    .from(archives)
    .all()
  const gone = rows.filter((row) => !existsSync(toAbsolutePath(deps.config.contentDir, row.path)))
  const toDelete = gone.filter((row) => row.unlinked).map((row) => row.id)
  const toUnlink = gone.filter((row) => !row.unlinked).map((row) => row.id)
  forgetArchiveRows(deps, toDelete)
  // An unlinked row keeps its memberships: the file may come back (scan.ts shows it again).
  tx(deps.db, () => {
    for (const id of toUnlink) updateArchive(deps.db, id, { unlinked: true })
  })
  for (const id of toUnlink) {
    deps.search.removeArchive(id)
    for (const tankId of tankoubonsHolding(deps.db, id)) deps.search.refreshTankoubon(tankId)
  }
  for (const id of toDelete) await deleteThumbnails(deps, id)
  return { deleted: toDelete.length, unlinked: toUnlink.length }
}
