// The one writer of archive rows: insert, patch (a hidden row shown again included), hide, clear
// the New flags, delete. Each write announces archive.saved, archive.hidden or archive.removed.
import {
  clearEveryNewFlag,
  deleteArchiveRow,
  insertArchive,
  setArchivePages,
  updateArchive,
  type ArchiveRow,
  type NewArchiveRow,
} from '../../db/repos/archives.repo.ts'
import type { Write } from '../commit.ts'
import { dropMembersEverywhere } from '../collections/category-save.ts'
import { dropArchivesEverywhere } from '../collections/tank-save.ts'

export type ArchivePatch = Partial<Omit<NewArchiveRow, 'id'>>

export function insertArchiveRow(w: Write, values: NewArchiveRow, pages: string[]): ArchiveRow {
  const row = insertArchive(w.db, values, pages)
  w.events.push({ type: 'archive.saved', row, created: true })
  return row
}

/** Undefined when there is no such row. `pages`: the new page list, stored with the row. */
export function patchArchive(
  w: Write,
  id: string,
  patch: ArchivePatch,
  pages?: string[],
): ArchiveRow | undefined {
  const row = updateArchive(w.db, id, patch)
  if (!row) return undefined
  if (pages) setArchivePages(w.db, id, pages)
  w.events.push({ type: 'archive.saved', row })
  return row
}

/**
 * The row leaves listings and search but keeps its metadata and memberships, so the file can come
 * back: gone, unreadable (`unreadable`), or displaced by another file (`path`).
 */
export function hideArchive(
  w: Write,
  id: string,
  fields: Pick<ArchivePatch, 'path' | 'unreadable'> = {},
): ArchiveRow | undefined {
  const row = updateArchive(w.db, id, { ...fields, unlinked: true })
  if (row) w.events.push({ type: 'archive.hidden', id })
  return row
}

/** Answers the rows as written. */
export function clearNewFlags(w: Write): ArchiveRow[] {
  const rows = clearEveryNewFlag(w.db)
  for (const row of rows) w.events.push({ type: 'archive.saved', row })
  return rows
}

/**
 * Deletes rows for good (API delete, database/clean). LANraragi drops a deleted archive from every
 * category and every Tankoubon, so no collection keeps a dangling id.
 */
export function deleteArchiveRows(w: Write, ids: readonly string[]): void {
  for (const id of ids)
    if (deleteArchiveRow(w.db, id)) w.events.push({ type: 'archive.removed', id })
  dropArchivesEverywhere(w, ids)
  dropMembersEverywhere(w, ids)
}
