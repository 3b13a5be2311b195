// POST /api/database/restore: an uploaded backup document written into the library in one
// transaction (apply-document.ts, mode overwrite). Unlike LANraragi, nothing is cleaned first:
// archives whose files are missing keep their rows, and a restore never deletes a record.
import type { Deps } from '../../deps.ts'
import { commitInSlices } from '../commit.ts'
import { applyBackupDocument, type ApplyCounts } from './apply-document.ts'
import { countRecords, parseBackupDocument, type BackupDocument } from './backup-document.ts'
import { readBackupUpload, removeBackupUpload } from './backup-files.ts'

/** Reads and checks an uploaded document; a bad one is removed and answered 400. */
export async function checkBackupUpload(
  deps: Pick<Deps, 'config'>,
  upload: string,
): Promise<BackupDocument> {
  try {
    return parseBackupDocument(await readBackupUpload(deps, upload))
  } catch (error) {
    removeBackupUpload(deps, upload)
    throw error
  }
}

export type RestoreResult = ApplyCounts & {
  /** Records the document held, by kind. */
  document: { archives: number; categories: number; tankoubons: number }
}

/**
 * Restores `doc` in one transaction; its events are published once it committed, a slice at a
 * time (commitInSlices): the transaction holds the thread, the search index's updates do not.
 */
export async function restoreBackupDocument(
  deps: Deps,
  doc: BackupDocument,
): Promise<RestoreResult> {
  const counts = await commitInSlices(deps, (w) =>
    applyBackupDocument(w, doc, { mode: 'overwrite' }),
  )
  return { ...counts, document: countRecords(doc) }
}

/** The restore job's work: the upload is read, restored, and removed whatever happened. */
export async function restoreBackupUpload(deps: Deps, upload: string): Promise<RestoreResult> {
  try {
    return await restoreBackupDocument(deps, await checkBackupUpload(deps, upload))
  } finally {
    removeBackupUpload(deps, upload)
  }
}
