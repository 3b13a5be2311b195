// LANraragi's bookmark link: the one static category the reader's bookmark button adds archives
// to. Stored as an internal setting; a link whose category is gone or turned dynamic reads as none.
// Snake_case kept: `category_id` is an extra field of LANraragi's error envelope (AppError extras
// are envelope fields).
import type { Deps } from '../../deps.ts'
import { findCategory } from '../../db/repos/categories.repo.ts'
import { fail } from '../../errors.ts'
import { isCategoryId } from '../../model/ids.ts'

const LINK_KEY = 'categories.bookmark_link'

/** The linked category id, or '' when none is linked. */
export function getBookmarkLink(deps: Pick<Deps, 'db' | 'settings'>): string {
  const id = deps.settings.getInternal<string>(LINK_KEY)
  if (typeof id !== 'string' || id === '') return ''
  const row = findCategory(deps.db, id)
  return row && row.search === '' ? id : ''
}

/** Refusals name the id they were given, as LANraragi's do (`category_id` beside `error`). */
export function setBookmarkLink(deps: Pick<Deps, 'db' | 'settings'>, rawId: string): string {
  const named = { category_id: rawId.slice(0, 64) }
  if (!isCategoryId(rawId)) throw fail.bad_request('Input category ID is invalid.', named)
  const row = findCategory(deps.db, rawId)
  if (!row) throw fail.not_found('Category does not exist!', named)
  if (row.search !== '')
    throw fail.bad_request('Cannot link bookmark to a dynamic category.', named)
  deps.settings.setInternal(LINK_KEY, row.id)
  return row.id
}

/** Unlinks; returns the id that was linked ('' when none was). */
export function removeBookmarkLink(deps: Pick<Deps, 'db' | 'settings'>): string {
  const previous = getBookmarkLink(deps)
  deps.settings.setInternal(LINK_KEY, '')
  return previous
}
