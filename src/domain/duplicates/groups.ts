// Reading and clearing the stored duplicate groups (docs/maintenance.md, Duplicates).
import type { Deps } from '../../deps.ts'
import { tx } from '../../db/client.ts'
import { findArchives, type ArchiveRow } from '../../db/repos/archives.repo.ts'
import {
  clearDuplicateGroups,
  deleteDuplicateGroup,
  listDuplicateGroups,
  rewriteDuplicateGroup,
} from '../../db/repos/duplicates.repo.ts'

const ID_SLICE = 10_000

/**
 * The stored groups resolved to current archive rows. An archive whose row is gone is pruned for
 * good: its group is rewritten without it, or dropped when fewer than two would remain. A hidden
 * (unlinked) archive stays stored, since it comes back with its file, but is not shown; a group
 * with fewer than two shown members is left out of the answer.
 */
export function readDuplicateGroups(deps: Pick<Deps, 'db'>): ArchiveRow[][] {
  return tx(deps.db, () => {
    const groups = listDuplicateGroups(deps.db)
    const ids = [...new Set(groups.flatMap((g) => g.archiveIds))]
    const rows = new Map<string, ArchiveRow>()
    // In slices: one query's bound parameters are limited.
    for (let at = 0; at < ids.length; at += ID_SLICE)
      for (const row of findArchives(deps.db, ids.slice(at, at + ID_SLICE))) rows.set(row.id, row)
    const answer: ArchiveRow[][] = []
    for (const group of groups) {
      const present = group.archiveIds.filter((id) => rows.has(id))
      if (present.length < 2) {
        deleteDuplicateGroup(deps.db, group.id)
        continue
      }
      if (present.length < group.archiveIds.length)
        rewriteDuplicateGroup(deps.db, group.id, present)
      const shown = present.map((id) => rows.get(id)!).filter((row) => !row.unlinked)
      if (shown.length >= 2) answer.push(shown)
    }
    return answer
  })
}

/** DELETE: every stored group goes (the hashes stay: the next scan reuses them). */
export function clearDuplicates(deps: Pick<Deps, 'db'>): number {
  return clearDuplicateGroups(deps.db)
}
