// What a script plugin may do to the library (`ctx.library`): search it, page through its
// archives with the folder each file sits in (relative to the content folder, never an absolute
// path), list categories, and create, fill or delete static categories through the category
// writer. Every argument comes from plugin code: each is checked here and a bad one fails that
// call inside the plugin with a message, never the server. Writes are bounded per run, and the
// Favorites category (the one the bookmark button fills) is out of a script's reach.
import type { Deps } from '../../deps.ts'
import { listArchivesAfter, type ArchiveRow } from '../../db/repos/archives.repo.ts'
import { findCategory } from '../../db/repos/categories.repo.ts'
import { AppError } from '../../errors.ts'
import type { LibraryGrant } from '../../plugins/manifest.ts'
import { getBookmarkLink } from '../collections/bookmark-link.ts'
import { FAVORITES_NAME } from '../collections/first-install.ts'
import {
  addArchivesToCategory,
  createCategory,
  deleteCategory,
  listCategories,
} from '../collections/categories.ts'
import { loadHits, searchIds, searchParamsOf } from '../search/run-search.ts'

/** The most archives one call answers; a plugin pages for more. */
export const MAX_LIBRARY_PAGE = 1_000
/** The most ids one addToCategory call takes. */
export const MAX_LIBRARY_IDS = 10_000
/**
 * What one script run may write: a stranger's script could otherwise create categories by the
 * hundred each second or empty the library's, in one run. A real script needs far fewer; the
 * built-in Subfolders to Categories, which creates one per folder, goes on where it stopped
 * when run again (it fills the categories it finds).
 */
export const LIBRARY_WRITE_QUOTA = {
  createCategory: 200,
  deleteCategory: 200,
  /** Archive ids, summed over the run's addToCategory calls. */
  addToCategory: 100_000,
} as const
type QuotaMethod = keyof typeof LIBRARY_WRITE_QUOTA
const QUOTA_UNIT: Record<QuotaMethod, string> = {
  createCategory: 'categories created',
  deleteCategory: 'categories deleted',
  addToCategory: 'archives added to categories',
}
const MAX_FILTER_CHARS = 4_096
const MAX_NAME_CHARS = 255

/** An archive as a script plugin sees it. */
export type LibraryArchive = {
  arcid: string
  title: string
  tags: string
  filename: string
  /** The folder holding the file, relative to the content folder ('' at its top), '/'-separated. */
  folder: string
  pagecount: number
}

class LibraryCallError extends Error {}

const refuse = (message: string): never => {
  throw new LibraryCallError(message)
}

function toLibraryArchive(row: ArchiveRow): LibraryArchive {
  const slash = row.path.lastIndexOf('/')
  return {
    arcid: row.id,
    title: row.title,
    tags: row.tags,
    filename: row.filename,
    folder: slash === -1 ? '' : row.path.slice(0, slash),
    pagecount: row.pagecount,
  }
}

function text(value: unknown, what: string, max: number, allowEmpty = false): string {
  if (typeof value !== 'string') return refuse(`${what} must be a string`)
  if (!allowEmpty && value.trim() === '') return refuse(`${what} must not be empty`)
  if (value.length > max) return refuse(`${what} is longer than ${max} characters`)
  return value
}

function count(value: unknown, what: string, min: number, max: number, fallback: number): number {
  if (value === undefined || value === null) return fallback
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    return refuse(`${what} must be a whole number from ${min} to ${max}`)
  return value
}

function options(value: unknown, what: string): Record<string, unknown> {
  if (value === undefined || value === null) return {}
  if (typeof value !== 'object' || Array.isArray(value)) return refuse(`${what} must be an object`)
  return value as Record<string, unknown>
}

function search(
  deps: Pick<Deps, 'db' | 'search' | 'searchState' | 'settings'>,
  filterArg: unknown,
  optionsArg: unknown,
) {
  const filter = text(filterArg ?? '', 'filter', MAX_FILTER_CHARS, true)
  const opts = options(optionsArg, 'search options')
  const start = count(opts.start, 'start', 0, Number.MAX_SAFE_INTEGER, 0)
  const limit = count(opts.limit, 'limit', 1, MAX_LIBRARY_PAGE, 100)
  const params = searchParamsOf({ filter, start })
  const found = searchIds(deps, params, false, limit)
  if (!found) return refuse('the search index is still being built; try again shortly')
  const archives = loadHits(deps, found.data).flatMap((hit) =>
    hit.kind === 'archive' ? [toLibraryArchive(hit.row)] : [],
  )
  return { total: found.recordsFiltered, archives }
}

function archives(deps: Pick<Deps, 'db'>, optionsArg: unknown) {
  const opts = options(optionsArg, 'archives options')
  const limit = count(opts.limit, 'limit', 1, MAX_LIBRARY_PAGE, 500)
  const after = opts.after === undefined || opts.after === null ? '0' : opts.after
  if (typeof after !== 'string' || !/^\d{1,15}$/.test(after))
    return refuse('after must be the `next` string of an earlier answer')
  const { rows, lastRowid } = listArchivesAfter(deps.db, Number(after), limit)
  return {
    archives: rows.map(toLibraryArchive),
    next: rows.length === limit && lastRowid !== null ? String(lastRowid) : null,
  }
}

function ids(value: unknown): string[] {
  if (!Array.isArray(value)) return refuse('ids must be a list of archive ids')
  if (value.length > MAX_LIBRARY_IDS) return refuse(`at most ${MAX_LIBRARY_IDS} ids per call`)
  if (!value.every((id) => typeof id === 'string')) return refuse('ids must be strings')
  return value
}

/**
 * Favorites as docs/collections.md identifies it: the static category the bookmark button is
 * linked to (the first-install one, whatever it is called now), and any named like it.
 */
function isFavorites(
  deps: Pick<Deps, 'db' | 'settings'>,
  category: { id: string; name: string },
): boolean {
  return category.id === getBookmarkLink(deps) || category.name.trim() === FAVORITES_NAME
}

/** A write to a category a script may touch: Favorites is refused (it is the user's own). */
function writableCategory(deps: Pick<Deps, 'db' | 'settings'>, value: unknown): string {
  const id = text(value, 'category id', 64)
  const category = findCategory(deps.db, id)
  if (category && isFavorites(deps, category))
    return refuse(`${id} is the Favorites category: script plugins may not change it`)
  return id
}

/** The grant given to one script run: each call is checked, then run against the library. */
export function libraryGrant(
  deps: Pick<Deps, 'db' | 'events' | 'search' | 'searchState' | 'settings'>,
): LibraryGrant {
  const used: Record<QuotaMethod, number> = {
    createCategory: 0,
    deleteCategory: 0,
    addToCategory: 0,
  }
  /** Counts `amount` writes of `method` against the run's quota, refusing the call past it. */
  const spend = (method: QuotaMethod, amount: number) => {
    const quota = LIBRARY_WRITE_QUOTA[method]
    if (used[method] + amount > quota)
      refuse(
        `ctx.library.${method}: this run's quota of ${quota} ${QUOTA_UNIT[method]} is used up (${used[method]} so far); run the script again to go on`,
      )
    used[method] += amount
  }
  const methods: Record<string, (args: unknown[]) => unknown> = {
    search: ([filter, opts]) => search(deps, filter, opts),
    archives: ([opts]) => archives(deps, opts),
    categories: () =>
      listCategories(deps, null).map((c) => ({
        id: c.id,
        name: c.name,
        search: c.search,
        archives: c.archives,
        protected: isFavorites(deps, c),
      })),
    createCategory: ([name]) => {
      const checked = text(name, 'name', MAX_NAME_CHARS)
      spend('createCategory', 1)
      return createCategory(deps, { name: checked })
    },
    addToCategory: ([id, list]) => {
      const category = writableCategory(deps, id)
      const checked = ids(list)
      spend('addToCategory', checked.length)
      return addArchivesToCategory(deps, category, checked)
    },
    deleteCategory: ([id]) => {
      const category = writableCategory(deps, id)
      spend('deleteCategory', 1)
      deleteCategory(deps, category)
      return true
    },
  }
  return async (method, args) => {
    const call = Object.hasOwn(methods, method) ? methods[method] : undefined
    if (!call) return refuse(`ctx.library has no method ${String(method).slice(0, 64)}`)
    try {
      return call(args)
    } catch (err) {
      // Refusals and domain errors (unknown category, dynamic category) reach the plugin as
      // messages; anything else is the server's own fault and is not described to it.
      if (err instanceof LibraryCallError || err instanceof AppError) throw err
      throw new Error(`ctx.library.${method} failed`)
    }
  }
}
