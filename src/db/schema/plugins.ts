// Installed plugins: their manifest as last read, where the file is, and the user's settings.
import { sqliteTable, text, integer } from 'drizzle-orm/sqlite-core'

export const plugins = sqliteTable('plugins', {
  /** `metadata/comicinfo` (built-in) or `custom/metadata/mine` (sideloaded). */
  namespace: text('namespace').primaryKey(),
  type: text('type').notNull(),
  priority: integer('priority').notNull().default(0),
  /** JSON array of the user's arguments, one per declared parameter. */
  customargs: text('customargs').notNull().default('[]'),
  enabled: integer('enabled', { mode: 'boolean' }).notNull().default(false),
  /** JSON object: domain rules and other per-plugin options. */
  options: text('options').notNull().default('{}'),
  origin: text('origin').notNull(),
  source: text('source').notNull(),
  sha256: text('sha256').notNull(),
  /** JSON of the checked pluginInfo() answer. */
  info: text('info').notNull(),
})
