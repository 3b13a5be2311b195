// POST /api/database/restore: an uploaded backup document written into the library a slice at a
// time (restore-slices.ts; apply-document.ts, mode overwrite). Unlike LANraragi, nothing is cleaned first:
// archives whose files are missing keep their rows, and a restore never deletes a record.
import type { Deps } from '../../deps.ts'
import type { ApplyCounts } from './apply-document.ts'
import { restoreInSlices } from './restore-slices.ts'
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
 * Restores `doc` a slice of rows per transaction, the event loop turning between slices
 * (restore-slices.ts); each slice's events are published as for any write (commitInSlices).
 */
export async function restoreBackupDocument(
  deps: Pick<Deps, 'db' | 'events'>,
  doc: BackupDocument,
  progress?: (fraction: number) => void,
): Promise<RestoreResult> {
  const counts = await restoreInSlices(deps, doc, progress)
  return { ...counts, document: countRecords(doc) }
}

/** The restore job's work: the upload is read, restored, and removed whatever happened. */
export async function restoreBackupUpload(
  deps: Pick<Deps, 'config' | 'db' | 'events'>,
  upload: string,
  progress?: (fraction: number) => void,
): Promise<RestoreResult> {
  try {
    return await restoreBackupDocument(deps, await checkBackupUpload(deps, upload), progress)
  } finally {
    removeBackupUpload(deps, upload)
  }
}
