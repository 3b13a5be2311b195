// The one writer of categories and their member lists; each write announces category.changed,
// since searches restricted to a category read its row and members.
import {
  addCategoryMember,
  clearCategoryMembers,
  deleteCategoryRow,
  insertCategory,
  removeCategoryMember,
  removeMemberEverywhere,
  updateCategoryRow,
  type CategoryRow,
  type NewCategoryRow,
} from '../../db/repos/categories.repo.ts'
import type { Write } from '../commit.ts'

const changed = (w: Write, id: string) => w.events.push({ type: 'category.changed', id })

export function insertCategoryRow(w: Write, row: NewCategoryRow): CategoryRow {
  const inserted = insertCategory(w.db, row)
  changed(w, inserted.id)
  return inserted
}

/** `clearMembers`: the category turns dynamic, and a dynamic category has no members. */
export function patchCategory(
  w: Write,
  id: string,
  patch: Partial<Omit<NewCategoryRow, 'id'>>,
  options: { clearMembers?: boolean } = {},
): CategoryRow | undefined {
  if (options.clearMembers) clearCategoryMembers(w.db, id)
  const row = updateCategoryRow(w.db, id, patch)
  changed(w, id)
  return row
}

/** False when there was no such category. */
export function deleteCategoryAndMembers(w: Write, id: string): boolean {
  const deleted = deleteCategoryRow(w.db, id)
  if (deleted) changed(w, id)
  return deleted
}

/** Appends at the end; false when it was already a member. */
export function addMember(w: Write, id: string, memberId: string): boolean {
  const added = addCategoryMember(w.db, id, memberId)
  if (added) changed(w, id)
  return added
}

/** False when it was not a member. */
export function removeMember(w: Write, id: string, memberId: string): boolean {
  const removed = removeCategoryMember(w.db, id, memberId)
  if (removed) changed(w, id)
  return removed
}

/** Drops deleted archives or Tankoubons from every category holding them. */
export function dropMembersEverywhere(w: Write, memberIds: readonly string[]): void {
  for (const memberId of memberIds)
    for (const id of removeMemberEverywhere(w.db, memberId)) changed(w, id)
}
