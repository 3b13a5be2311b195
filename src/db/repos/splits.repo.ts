// Queries of split suggestions (one stored analysis per archive).
import { eq } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { splitSuggestions } from '../schema/splits.ts'

export type SplitSuggestionRow = typeof splitSuggestions.$inferSelect

export function findSplitSuggestion(db: Db, archiveId: string): SplitSuggestionRow | undefined {
  return db.select().from(splitSuggestions).where(eq(splitSuggestions.archiveId, archiveId)).get()
}

/** Inserts or replaces the archive's suggestion. */
export function saveSplitSuggestion(db: Db, row: SplitSuggestionRow): void {
  db.insert(splitSuggestions)
    .values(row)
    .onConflictDoUpdate({
      target: splitSuggestions.archiveId,
      set: {
        method: row.method,
        outputs: row.outputs,
        fileStamp: row.fileStamp,
        createdAt: row.createdAt,
      },
    })
    .run()
}

export function deleteSplitSuggestion(db: Db, archiveId: string): void {
  db.delete(splitSuggestions).where(eq(splitSuggestions.archiveId, archiveId)).run()
}
