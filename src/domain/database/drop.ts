// POST /api/database/drop (docs/maintenance.md, Drop): the whole database goes, preferences
// included. What goes: every archive row, category, Tankoubon, bookmark, duplicate group and
// ignored group suggestion, every API token and session (the caller is signed out: "may lock the
// caller out"), every setting back to its default, the pages-read counter. What stays: the admin
// password (dropping it would leave the instance either open to anyone or closed to everyone), the
// files in the content folder and their thumbnails (a rescan catalogues them again under the same
// ids), installed plugins, the download queue, job history and import snapshots. Before anything
// goes, the library is written as a snapshot in the same transaction, so a drop made by mistake is
// undone by restoring that snapshot.
import type { Deps } from '../../deps.ts'
import { listCategoryRows } from '../../db/repos/categories.repo.ts'
import {
  deleteAllBookmarks,
  deleteAllCredentials,
  listAllArchiveIds,
} from '../../db/repos/database.repo.ts'
import { clearDuplicateGroups } from '../../db/repos/duplicates.repo.ts'
import { clearIgnoredSuggestions } from '../../db/repos/group-suggestions.repo.ts'
import { listTankoubonRows } from '../../db/repos/tankoubons.repo.ts'
import { commit } from '../commit.ts'
import { deleteArchiveRows } from '../archives/save.ts'
import { deleteCategoryAndMembers } from '../collections/category-save.ts'
import { deleteTankoubonAndMembers } from '../collections/tank-save.ts'
import { DEFAULT_SETTINGS } from '../settings.ts'
import { writeSnapshot } from './snapshots.ts'

export type DropResult = {
  archives: number
  categories: number
  tankoubons: number
  bookmarks: number
  tokens: number
  sessions: number
  /** The snapshot holding the library as it was. */
  snapshot: number
}

export function dropDatabase(deps: Pick<Deps, 'db' | 'events' | 'settings'>): DropResult {
  const result = commit(deps, (w) => {
    const snapshot = writeSnapshot(w, 'drop', null)
    const archiveIds = listAllArchiveIds(w.db)
    const tanks = listTankoubonRows(w.db)
    const categories = listCategoryRows(w.db)
    for (const tank of tanks) deleteTankoubonAndMembers(w, tank.id)
    for (const category of categories) deleteCategoryAndMembers(w, category.id)
    deleteArchiveRows(w, archiveIds)
    const bookmarks = deleteAllBookmarks(w.db)
    const { tokens, sessions } = deleteAllCredentials(w.db)
    // Groups name archives by id, and a rescan brings the same ids back: they would show again.
    clearDuplicateGroups(w.db)
    // Ignored group suggestions too: keys of the same ids, a choice about the library dropped.
    clearIgnoredSuggestions(w.db)
    return {
      archives: archiveIds.length,
      categories: categories.length,
      tankoubons: tanks.length,
      bookmarks,
      tokens,
      sessions,
      snapshot,
    }
  })
  deps.settings.update({ ...DEFAULT_SETTINGS })
  deps.settings.setInternal('total_pages_read', 0)
  // The kept search JSON goes archive by archive: the search area drops each on archive.removed.
  return result
}
