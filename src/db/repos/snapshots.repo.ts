// Queries of import snapshots (rollback points holding a backup document).
import { desc, eq } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { importSnapshots } from '../schema/snapshots.ts'

export type SnapshotRow = typeof importSnapshots.$inferSelect
export type NewSnapshotRow = typeof importSnapshots.$inferInsert
/** A snapshot without its document: what listings show. */
export type SnapshotMeta = Omit<SnapshotRow, 'document'> & { bytes: number }

export function insertSnapshot(db: Db, row: NewSnapshotRow): number {
  return db.insert(importSnapshots).values(row).returning({ id: importSnapshots.id }).get().id
}

/** Newest first; the documents are never read, only their length. */
export function listSnapshotMeta(db: Db): SnapshotMeta[] {
  const rows = db.$client
    .query<
      {
        id: number
        created_at: number
        reason: string
        job_id: number | null
        archives: number
        categories: number
        tankoubons: number
        bytes: number
      },
      []
    >(
      `SELECT id, created_at, reason, job_id, archives, categories, tankoubons,
              length(CAST(document AS BLOB)) AS bytes
       FROM import_snapshots ORDER BY id DESC`,
    )
    .all()
  return rows.map((r) => ({
    id: r.id,
    createdAt: r.created_at,
    reason: r.reason,
    jobId: r.job_id,
    archives: r.archives,
    categories: r.categories,
    tankoubons: r.tankoubons,
    bytes: r.bytes,
  }))
}

export function findSnapshot(db: Db, id: number): SnapshotRow | undefined {
  return db.select().from(importSnapshots).where(eq(importSnapshots.id, id)).get()
}

export function deleteSnapshot(db: Db, id: number): boolean {
  return (
    db
      .delete(importSnapshots)
      .where(eq(importSnapshots.id, id))
      .returning({ id: importSnapshots.id })
      .all().length > 0
  )
}

export function newestSnapshotId(db: Db): number | undefined {
  return db
    .select({ id: importSnapshots.id })
    .from(importSnapshots)
    .orderBy(desc(importSnapshots.id))
    .limit(1)
    .get()?.id
}
