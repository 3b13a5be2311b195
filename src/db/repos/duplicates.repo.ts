// Queries of duplicate detection: per-archive perceptual hashes and the stored duplicate groups.
import { eq, inArray } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { archiveHashes, duplicateGroups } from '../schema/duplicates.ts'

export type ArchiveHashRow = typeof archiveHashes.$inferSelect
export type DuplicateGroupRow = { id: number; archiveIds: string[]; jobId: number | null }

/** Writes a cover hash; sampled page hashes stay (their own source says when they are stale). */
export function saveCoverHash(db: Db, archiveId: string, coverHash: string, coverSource: string) {
  db.insert(archiveHashes)
    .values({ archiveId, coverHash, coverSource })
    .onConflictDoUpdate({ target: archiveHashes.archiveId, set: { coverHash, coverSource } })
    .run()
}

/** Writes sampled page hashes of an archive that has a cover hash (a no-op otherwise). */
export function savePageHashes(
  db: Db,
  archiveId: string,
  pageHashes: (string | null)[],
  pagesSource: string,
) {
  db.update(archiveHashes)
    .set({ pageHashes: JSON.stringify(pageHashes), pagesSource })
    .where(eq(archiveHashes.archiveId, archiveId))
    .run()
}

export function listArchiveHashes(db: Db): ArchiveHashRow[] {
  return db.select().from(archiveHashes).all()
}

export function findArchiveHashes(db: Db, ids: string[]): ArchiveHashRow[] {
  if (ids.length === 0) return []
  return db.select().from(archiveHashes).where(inArray(archiveHashes.archiveId, ids)).all()
}

function toGroup(row: typeof duplicateGroups.$inferSelect): DuplicateGroupRow {
  return { id: row.id, archiveIds: JSON.parse(row.archiveIds) as string[], jobId: row.jobId }
}

export function listDuplicateGroups(db: Db): DuplicateGroupRow[] {
  return db.select().from(duplicateGroups).orderBy(duplicateGroups.id).all().map(toGroup)
}

/** Replaces every stored group with `groups` (a scan's whole answer). */
export function replaceDuplicateGroups(db: Db, groups: string[][], jobId: number | null): void {
  db.delete(duplicateGroups).run()
  const foundAt = Math.floor(Date.now() / 1000)
  for (const ids of groups)
    db.insert(duplicateGroups)
      .values({ archiveIds: JSON.stringify(ids), jobId, foundAt })
      .run()
}

export function rewriteDuplicateGroup(db: Db, id: number, archiveIds: string[]): void {
  db.update(duplicateGroups)
    .set({ archiveIds: JSON.stringify(archiveIds) })
    .where(eq(duplicateGroups.id, id))
    .run()
}

export function deleteDuplicateGroup(db: Db, id: number): void {
  db.delete(duplicateGroups).where(eq(duplicateGroups.id, id)).run()
}

/** Deletes every stored group; returns how many there were. */
export function clearDuplicateGroups(db: Db): number {
  return db.delete(duplicateGroups).returning({ id: duplicateGroups.id }).all().length
}
