// LANraragi's first-install default: a fresh library starts with one static "🔖 Favorites"
// category linked to the bookmark button, so a LANraragi client's bookmark button works at once.
import type { Deps } from '../../deps.ts'
import { countArchives } from '../../db/repos/archives.repo.ts'
import { listCategoryRows } from '../../db/repos/categories.repo.ts'
import { setBookmarkLink } from './bookmark-link.ts'
import { createCategory } from './categories.ts'

export const FAVORITES_NAME = '🔖 Favorites'
const DONE_KEY = 'setup.first_install_done'

/**
 * Runs once per database. Only an empty library counts as a first install: a database from
 * before this existed keeps its categories as they are. Answers the created category's id.
 */
export function createFirstInstallCategory(
  deps: Pick<Deps, 'db' | 'events' | 'settings'>,
): string | null {
  if (deps.settings.getInternal<boolean>(DONE_KEY) === true) return null
  const fresh = listCategoryRows(deps.db).length === 0 && countArchives(deps.db) === 0
  const id = fresh ? createCategory(deps, { name: FAVORITES_NAME }) : null
  if (id) setBookmarkLink(deps, id)
  deps.settings.setInternal(DONE_KEY, true)
  return id
}
