// Maintenance script repair-mojibake: every stored title, tag list, summary and name whose text
// was doubly encoded (mojibake.ts) is repaired in one transaction, through the writers.
import type { Deps } from '../../deps.ts'
import { listCategoryRows } from '../../db/repos/categories.repo.ts'
import { listBackupArchiveRows } from '../../db/repos/database.repo.ts'
import { listTankoubonRows } from '../../db/repos/tankoubons.repo.ts'
import { normalizeTags } from '../../model/tags.ts'
import { commit } from '../commit.ts'
import { patchArchive } from '../archives/save.ts'
import { patchCategory } from '../collections/category-save.ts'
import { patchTankoubon } from '../collections/tank-save.ts'
import { repairMojibake, repairTagsWith } from './mojibake.ts'

export type MojibakeRepair = { archives: number; categories: number; tankoubons: number }

/** The fields of `row` whose repair differs, or null when none does. */
function repaired<K extends string>(
  row: Record<K, string>,
  keys: readonly K[],
): Partial<Record<K, string>> | null {
  const patch: Partial<Record<K, string>> = {}
  let any = false
  for (const key of keys) {
    const fixed =
      key === 'tags' ? repairTagsWith(row[key], repairMojibake) : repairMojibake(row[key])
    if (fixed !== row[key]) {
      patch[key] = fixed
      any = true
    }
  }
  return any ? patch : null
}

export function repairStoredMojibake(deps: Pick<Deps, 'db' | 'events'>): MojibakeRepair {
  return commit(deps, (w) => {
    const counts: MojibakeRepair = { archives: 0, categories: 0, tankoubons: 0 }
    for (const row of listBackupArchiveRows(w.db)) {
      const patch = repaired(row, ['title', 'tags', 'summary'] as const)
      if (!patch) continue
      if (patch.tags !== undefined) patch.tags = normalizeTags(patch.tags)
      patchArchive(w, row.id, patch)
      counts.archives++
    }
    for (const row of listTankoubonRows(w.db)) {
      const patch = repaired(row, ['name', 'summary', 'tags'] as const)
      if (!patch) continue
      if (patch.tags !== undefined) patch.tags = normalizeTags(patch.tags)
      patchTankoubon(w, row.id, patch)
      counts.tankoubons++
    }
    for (const row of listCategoryRows(w.db)) {
      const patch = repaired(row, ['name', 'search'] as const)
      if (!patch) continue
      patchCategory(w, row.id, patch)
      counts.categories++
    }
    return counts
  })
}
