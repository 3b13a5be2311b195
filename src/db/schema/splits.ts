// Split suggestions: per archive, the outputs a split would write (grouped by folder, or refined by
// the language model). One row per archive, replaced by each analysis; the archive's row going away
// leaves a stale row that the next read ignores (the archive id is checked first).
import { sqliteTable, text, integer } from 'drizzle-orm/sqlite-core'

export const splitSuggestions = sqliteTable('split_suggestions', {
  archiveId: text('archive_id').primaryKey(),
  /** `folders` (no model) or `model` (refined by the language model). */
  method: text('method').notNull(),
  /** JSON: `[{name, pages: [page path]}]`, pages as the split tree names them. */
  outputs: text('outputs').notNull(),
  /** Size and mtime of the archive file analysed, so a changed file is analysed again. */
  fileStamp: text('file_stamp').notNull(),
  /** Unix seconds. */
  createdAt: integer('created_at').notNull(),
})
