// Start-up work of the queue (boot runs it before the job queue resumes): items a crash or a stop
// left in flight become `error` with the reason stale_after_restart (their jobs are gone, so they
// would otherwise stay `downloading` forever), and staged downloads no item points at are removed.
import type { Deps } from '../../deps.ts'
import { listDownloadItems, listDownloadItemsByState } from '../../db/repos/downloads.repo.ts'
import { commit } from '../commit.ts'
import { patchDownloadRow } from './item-save.ts'
import { IN_FLIGHT_STATES } from './queue.ts'
import { removeOrphanStagedDownloads } from './staging.ts'

/** The error of an item whose download was cut by the server stopping. */
export const STALE_AFTER_RESTART = 'stale_after_restart'

export async function sweepInterruptedDownloads(
  deps: Pick<Deps, 'config' | 'db' | 'events'>,
): Promise<{ stale: number; orphans: number }> {
  const stale = listDownloadItemsByState(deps.db, IN_FLIGHT_STATES)
  if (stale.length > 0)
    commit(deps, (w) => {
      for (const item of stale)
        patchDownloadRow(w, item.id, { state: 'error', error: STALE_AFTER_RESTART })
    })
  const kept = new Set(listDownloadItems(deps.db).flatMap((item) => item.tempPath ?? []))
  const orphans = await removeOrphanStagedDownloads(deps, kept)
  return { stale: stale.length, orphans }
}
