// Queries of the ignored Tankoubon group suggestions (language-model grouping).
import { asc, eq } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { ignoredGroupSuggestions } from '../schema/llm.ts'

export type IgnoredGroupSuggestion = { key: string; archiveIds: string[]; ignoredAt: number }

/** Ignores a suggestion; ignoring it again overwrites its ids and time. */
export function saveIgnoredSuggestion(db: Db, entry: IgnoredGroupSuggestion): void {
  const row = {
    key: entry.key,
    archiveIds: JSON.stringify(entry.archiveIds),
    ignoredAt: entry.ignoredAt,
  }
  db.insert(ignoredGroupSuggestions)
    .values(row)
    .onConflictDoUpdate({
      target: ignoredGroupSuggestions.key,
      set: { archiveIds: row.archiveIds, ignoredAt: row.ignoredAt },
    })
    .run()
}

/** True when there was one to remove. */
export function deleteIgnoredSuggestion(db: Db, key: string): boolean {
  return (
    db.delete(ignoredGroupSuggestions).where(eq(ignoredGroupSuggestions.key, key)).returning().all()
      .length > 0
  )
}

export function listIgnoredSuggestions(db: Db): IgnoredGroupSuggestion[] {
  return db
    .select()
    .from(ignoredGroupSuggestions)
    .orderBy(asc(ignoredGroupSuggestions.ignoredAt), asc(ignoredGroupSuggestions.key))
    .all()
    .map((row) => ({
      key: row.key,
      archiveIds: JSON.parse(row.archiveIds) as string[],
      ignoredAt: row.ignoredAt,
    }))
}

/** Forgets every ignored suggestion (drop); how many there were. */
export function clearIgnoredSuggestions(db: Db): number {
  return db.delete(ignoredGroupSuggestions).returning().all().length
}
