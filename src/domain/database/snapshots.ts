// Import snapshots: a backup document of the whole library written, in the same transaction,
// before a legacy import (or a drop) changes it. Listed newest first without their documents,
// downloaded in the shape POST /api/database/restore accepts (restoring one is the rollback), and
// deleted only when asked.
import type { Deps } from '../../deps.ts'
import {
  deleteSnapshot,
  findSnapshot,
  insertSnapshot,
  listSnapshotMeta,
} from '../../db/repos/snapshots.repo.ts'
import { fail } from '../../errors.ts'
import type { Write } from '../commit.ts'
import { buildBackupDocument, countRecords } from './backup-document.ts'

export type SnapshotReason = 'import_legacy' | 'drop'

export type SnapshotInfo = {
  id: number
  /** Unix seconds. */
  createdAt: number
  reason: string
  jobId: number | null
  archives: number
  categories: number
  tankoubons: number
  /** Size of the document in bytes. */
  size: number
}

/** Writes a snapshot of the library as it is inside `w` (before the write changes it). */
export function writeSnapshot(w: Write, reason: SnapshotReason, jobId: number | null): number {
  const doc = buildBackupDocument(w.db, { everyToc: true })
  return insertSnapshot(w.db, {
    createdAt: Math.floor(Date.now() / 1000),
    reason,
    jobId,
    ...countRecords(doc),
    document: JSON.stringify(doc),
  })
}

export function listSnapshots(deps: Pick<Deps, 'db'>): SnapshotInfo[] {
  return listSnapshotMeta(deps.db).map((row) => ({
    id: row.id,
    createdAt: row.createdAt,
    reason: row.reason,
    jobId: row.jobId,
    archives: row.archives,
    categories: row.categories,
    tankoubons: row.tankoubons,
    size: row.bytes,
  }))
}

function parseSnapshotId(raw: string): number {
  if (!/^\d{1,15}$/.test(raw)) throw fail.bad_request(`Invalid snapshot id: ${raw.slice(0, 32)}`)
  return Number(raw)
}

/** The snapshot's document (JSON text) and when it was taken; 404 when there is none. */
export function snapshotDocument(
  deps: Pick<Deps, 'db'>,
  rawId: string,
): { json: string; createdAt: number; id: number } {
  const row = findSnapshot(deps.db, parseSnapshotId(rawId))
  if (!row) throw fail.not_found(`No import snapshot with id ${rawId}.`)
  return { json: row.document, createdAt: row.createdAt, id: row.id }
}

export function removeSnapshot(deps: Pick<Deps, 'db'>, rawId: string): void {
  if (!deleteSnapshot(deps.db, parseSnapshotId(rawId)))
    throw fail.not_found(`No import snapshot with id ${rawId}.`)
}
