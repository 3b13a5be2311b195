// Language-model features: the group suggestions an admin chose to ignore, by their stable key
// (a hash of the sorted archive ids), so the next round of suggestions leaves them out.
import { sqliteTable, text, integer } from 'drizzle-orm/sqlite-core'

export const ignoredGroupSuggestions = sqliteTable('ignored_group_suggestions', {
  key: text('key').primaryKey(),
  /** JSON array of the archive ids of the suggestion, sorted (titles are the client's to read). */
  archiveIds: text('archive_ids').notNull(),
  /** Unix seconds; ignoring again overwrites it. */
  ignoredAt: integer('ignored_at').notNull(),
})
