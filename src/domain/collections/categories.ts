// Categories: static member lists (archives or Tankoubons) and dynamic ones (a stored filter).
// Every write goes through category-save.ts, which announces it (searches read categories).
import type { Deps } from '../../deps.ts'
import { findArchive } from '../../db/repos/archives.repo.ts'
import {
  categoriesHolding,
  findCategory,
  listCategoryMembers,
  listCategoryRows,
  membersByCategory,
  type CategoryRow,
} from '../../db/repos/categories.repo.ts'
import { findTankoubon } from '../../db/repos/tankoubons.repo.ts'
import { fail } from '../../errors.ts'
import { isArchiveId, isTankoubonId, nextTimestampId, parseCategoryId } from '../../model/ids.ts'
import { inScope, type Scope } from '../search/guest-scope.ts'
import { commit } from '../commit.ts'
import {
  addMember,
  deleteCategoryAndMembers,
  insertCategoryRow,
  patchCategory,
  removeMember,
} from './category-save.ts'

export type Category = {
  id: string
  name: string
  /** Filter of a dynamic category; '' for a static one. */
  search: string
  pinned: boolean
  visibleToGuest: boolean
  /** Members of a static category in insertion order; always empty for a dynamic one. */
  archives: string[]
}

export type CategoryInput = {
  name?: string
  search?: string
  pinned?: boolean
  visibleToGuest?: boolean
}

/** Longest name the API takes, in UTF-16 units (restore refuses longer ones too). */
export const MAX_CATEGORY_NAME_LENGTH = 255

function toCategory(row: CategoryRow, members: string[]): Category {
  return {
    id: row.id,
    name: row.name,
    search: row.search,
    pinned: row.pinned,
    visibleToGuest: row.visibleToGuest,
    archives: row.search === '' ? members : [],
  }
}

/** Guests see only the categories flagged for them. */
const visibleTo = (scope: Scope) => (row: CategoryRow) => scope === null || row.visibleToGuest

function requireCategory(deps: Pick<Deps, 'db'>, rawId: string, scope: Scope = null): CategoryRow {
  const id = parseCategoryId(rawId)
  const row = findCategory(deps.db, id)
  if (!row || !visibleTo(scope)(row)) throw fail.bad_request('The given category does not exist.')
  return row
}

/** Member edits word an unknown category as LANraragi's add/remove do. */
function requireMemberCategory(deps: Pick<Deps, 'db'>, rawId: string): CategoryRow {
  const row = findCategory(deps.db, parseCategoryId(rawId))
  if (!row) throw fail.bad_request(`${rawId} doesn't exist in the database!`)
  return row
}

export function listCategories(deps: Pick<Deps, 'db'>, scope: Scope): Category[] {
  const rows = listCategoryRows(deps.db).filter(visibleTo(scope))
  const members = membersByCategory(
    deps.db,
    rows.map((r) => r.id),
  )
  return rows.map((row) => toCategory(row, members.get(row.id) ?? []))
}

export function getCategory(deps: Pick<Deps, 'db'>, rawId: string, scope: Scope): Category {
  const row = requireCategory(deps, rawId, scope)
  return toCategory(row, listCategoryMembers(deps.db, row.id))
}

function cleanName(name: string): string {
  const clean = name.trim()
  if (clean.length > MAX_CATEGORY_NAME_LENGTH) {
    throw fail.bad_request(`Category name is longer than ${MAX_CATEGORY_NAME_LENGTH} characters.`)
  }
  return clean
}

export function createCategory(deps: Pick<Deps, 'db' | 'events'>, input: CategoryInput): string {
  const name = cleanName(input.name ?? '')
  if (name === '') throw fail.bad_request('Category name not specified.')
  // One immediate transaction: two concurrent creations cannot pick the same SET_ id.
  return commit(deps, (w) => {
    const id = nextTimestampId(
      'SET_',
      (candidate) => findCategory(deps.db, candidate) !== undefined,
    )
    insertCategoryRow(w, {
      id,
      name,
      search: (input.search ?? '').trim(),
      pinned: input.pinned ?? false,
      visibleToGuest: input.visibleToGuest ?? false,
      createdAt: Math.floor(Date.now() / 1000),
    })
    return id
  })
}

/**
 * Name, search and visible_to_guest change only when given; a blank name keeps the old one. An
 * absent pinned flag unpins, as LANraragi documents ("If you don't, the category will be unpinned
 * on update").
 */
export function updateCategory(
  deps: Pick<Deps, 'db' | 'events'>,
  rawId: string,
  input: CategoryInput,
): string {
  const row = requireCategory(deps, rawId)
  const patch: Partial<CategoryRow> = {}
  const name = input.name === undefined ? '' : cleanName(input.name)
  if (name !== '') patch.name = name
  if (input.search !== undefined) patch.search = input.search.trim()
  const becomesDynamic = row.search === '' && patch.search !== undefined && patch.search !== ''
  patch.pinned = input.pinned ?? false
  if (input.visibleToGuest !== undefined) patch.visibleToGuest = input.visibleToGuest
  // A dynamic category has no members: the old list must not keep granting guest visibility.
  commit(deps, (w) => patchCategory(w, row.id, patch, { clearMembers: becomesDynamic }))
  return row.id
}

export function deleteCategory(deps: Pick<Deps, 'db' | 'events'>, rawId: string): void {
  const id = parseCategoryId(rawId)
  const deleted = commit(deps, (w) => deleteCategoryAndMembers(w, id))
  if (!deleted) throw fail.bad_request('The given category does not exist.')
}

function parseMemberId(raw: string): string {
  if (isTankoubonId(raw) || isArchiveId(raw)) return raw
  throw fail.bad_request(`Invalid archive ID: ${raw.slice(0, 64)}`)
}

/** The title of an archive or the name of a Tankoubon; undefined when the id is unknown. */
function memberName(deps: Pick<Deps, 'db'>, memberId: string): string | undefined {
  return isTankoubonId(memberId)
    ? findTankoubon(deps.db, memberId)?.name
    : findArchive(deps.db, memberId)?.title
}

/**
 * Adds an archive or Tankoubon at the end of a static category; returns the success message.
 * A member added twice stays once, and the answer is the same as LANraragi's for a first add.
 */
export function addToCategory(
  deps: Pick<Deps, 'db' | 'events'>,
  rawId: string,
  rawMember: string,
): string {
  const category = requireMemberCategory(deps, rawId)
  const memberId = parseMemberId(rawMember)
  if (category.search !== '') {
    throw fail.bad_request(
      `${category.id} is a favorite search/dynamic category, can't add archives to it.`,
    )
  }
  const name = commit(deps, (w) => {
    const name = memberName(deps, memberId)
    if (name === undefined) throw fail.bad_request(`${memberId} does not exist in the database.`)
    addMember(w, category.id, memberId)
    return name
  })
  return `Added "${name}" to category "${category.name}"!`
}

/**
 * Adds many archives at the end of a static category in one transaction (a script plugin's
 * bulk add); ids of no archive are skipped. Answers how many were not members yet.
 */
export function addArchivesToCategory(
  deps: Pick<Deps, 'db' | 'events'>,
  rawId: string,
  ids: readonly string[],
): number {
  const category = requireCategory(deps, rawId)
  if (category.search !== '') {
    throw fail.bad_request(`${category.id} is a dynamic category, can't add archives to it.`)
  }
  return commit(deps, (w) => {
    let added = 0
    for (const id of ids)
      if (isArchiveId(id) && findArchive(deps.db, id) && addMember(w, category.id, id)) added++
    return added
  })
}

/**
 * Removing an id that is not a member is a no-op answered like a removal, as in LANraragi (which
 * names the ids when the member is no archive or Tankoubon); a dynamic category has no members.
 */
export function removeFromCategory(
  deps: Pick<Deps, 'db' | 'events'>,
  rawId: string,
  rawMember: string,
): string {
  const category = requireMemberCategory(deps, rawId)
  const memberId = parseMemberId(rawMember)
  if (category.search !== '') {
    throw fail.bad_request(`${category.id} is a favorite search, it doesn't contain archives.`)
  }
  commit(deps, (w) => removeMember(w, category.id, memberId))
  const name = memberName(deps, memberId)
  return name === undefined
    ? `Removed ${memberId} from Category ${category.id}!`
    : `Removed "${name}" from category "${category.name}"!`
}

/** Static categories listing the archive (or Tankoubon) as a member. */
export function categoriesOfArchive(
  deps: Pick<Deps, 'db'>,
  rawId: string,
  scope: Scope,
): Category[] {
  const id = parseMemberId(rawId)
  if (!inScope(scope, id)) throw fail.not_found('No archive with this ID.')
  return categoriesHolding(deps.db, id)
    .filter((row) => row.search === '' && visibleTo(scope)(row))
    .map((row) => toCategory(row, listCategoryMembers(deps.db, row.id)))
}
