// Forgetting a catalogue row for good (API delete, database/clean): LANraragi drops a deleted
// archive from every category and every Tankoubon, so no collection keeps a dangling id.
import type { Deps } from '../../deps.ts'
import { tx } from '../../db/client.ts'
import { deleteArchiveRow } from '../../db/repos/archives.repo.ts'
import { removeMemberEverywhere } from '../../db/repos/categories.repo.ts'
import { removeTankMemberEverywhere } from '../../db/repos/tankoubons.repo.ts'

/** Deletes the rows of `ids` and their memberships in one transaction, then updates the index. */
export function forgetArchiveRows(deps: Deps, ids: string[]): void {
  const tanks = new Set<string>()
  tx(deps.db, () => {
    for (const id of ids) {
      deleteArchiveRow(deps.db, id)
      removeMemberEverywhere(deps.db, id)
      for (const tankId of removeTankMemberEverywhere(deps.db, id)) tanks.add(tankId)
    }
  })
  for (const id of ids) deps.search.removeArchive(id)
  for (const tankId of tanks) deps.search.refreshTankoubon(tankId)
  deps.search.clearCache()
}
