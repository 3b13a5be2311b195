// The one writer of Tankoubons and their member lists; each write announces tankoubon.changed (or
// tankoubon.removed) so the search index re-reads the Tankoubon.
import {
  appendTankMember,
  deleteTankoubonRow,
  insertTankoubon,
  removeTankMember,
  removeTankMemberEverywhere,
  replaceTankMembers,
  updateTankoubonRow,
  type NewTankoubonRow,
  type TankoubonRow,
} from '../../db/repos/tankoubons.repo.ts'
import type { Write } from '../commit.ts'
import { dropMembersEverywhere } from './category-save.ts'

type TankPatch = Partial<Omit<NewTankoubonRow, 'id'>>

const changed = (w: Write, id: string) => w.events.push({ type: 'tankoubon.changed', id })

export function insertTankoubonRow(w: Write, row: NewTankoubonRow): TankoubonRow {
  const inserted = insertTankoubon(w.db, row)
  changed(w, inserted.id)
  return inserted
}

/** `members`: the whole new member list, in reading order. */
export function patchTankoubon(
  w: Write,
  id: string,
  patch: TankPatch,
  members?: readonly string[],
): TankoubonRow | undefined {
  if (members) replaceTankMembers(w.db, id, [...members])
  const row = updateTankoubonRow(w.db, id, patch)
  changed(w, id)
  return row
}

/** Appends at the end; false when the archive was already a member. */
export function appendMember(w: Write, id: string, archiveId: string): boolean {
  const added = appendTankMember(w.db, id, archiveId)
  if (added) changed(w, id)
  return added
}

/** False when it was not a member; `patch` is applied only when it was. */
export function removeMember(w: Write, id: string, archiveId: string, patch: TankPatch): boolean {
  if (!removeTankMember(w.db, id, archiveId)) return false
  updateTankoubonRow(w.db, id, patch)
  changed(w, id)
  return true
}

/** The Tankoubon, its member rows and its category memberships; false when there was none. */
export function deleteTankoubonAndMembers(w: Write, id: string): boolean {
  dropMembersEverywhere(w, [id])
  const deleted = deleteTankoubonRow(w.db, id)
  if (deleted) w.events.push({ type: 'tankoubon.removed', id })
  return deleted
}

/** Drops deleted archives from every Tankoubon holding them. */
export function dropArchivesEverywhere(w: Write, archiveIds: readonly string[]): void {
  for (const archiveId of archiveIds)
    for (const id of removeTankMemberEverywhere(w.db, archiveId)) changed(w, id)
}
