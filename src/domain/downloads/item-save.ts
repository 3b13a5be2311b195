// The one writer of download queue rows: add, patch, delete. Each write announces download.saved
// or download.removed after commit, which the queue's event stream turns into its deltas.
import {
  deleteDownloadItem,
  insertDownloadItem,
  updateDownloadItem,
  type DownloadItemPatch,
  type DownloadItemRow,
  type NewDownloadItem,
} from '../../db/repos/downloads.repo.ts'
import type { Write } from '../commit.ts'

export function insertDownloadRow(w: Write, values: NewDownloadItem): DownloadItemRow {
  const row = insertDownloadItem(w.db, values)
  w.events.push({ type: 'download.saved', row, created: true })
  return row
}

/** Undefined when there is no such item. `updated_at` is set here. */
export function patchDownloadRow(
  w: Write,
  id: string,
  patch: DownloadItemPatch,
): DownloadItemRow | undefined {
  const row = updateDownloadItem(w.db, id, { ...patch, updatedAt: Date.now() })
  if (row) w.events.push({ type: 'download.saved', row })
  return row
}

/** False when there was no such item. */
export function deleteDownloadRow(w: Write, id: string): boolean {
  const deleted = deleteDownloadItem(w.db, id)
  if (deleted) w.events.push({ type: 'download.removed', id })
  return deleted
}
