// Catalog tables: one row per archive file, its page list apart so listings stay light.
import { sqliteTable, text, integer, index } from 'drizzle-orm/sqlite-core'

export const archives = sqliteTable(
  'archives',
  {
    id: text('id').primaryKey(),
    /** Path relative to the content folder, '/'-separated. */
    path: text('path').notNull().unique(),
    /** File name without its extension (LANraragi's `filename`). */
    filename: text('filename').notNull(),
    extension: text('extension').notNull(),
    title: text('title').notNull(),
    /** Canonical comma+space joined tags. */
    tags: text('tags').notNull().default(''),
    summary: text('summary').notNull().default(''),
    isnew: integer('isnew', { mode: 'boolean' }).notNull().default(true),
    progress: integer('progress').notNull().default(0),
    pagecount: integer('pagecount').notNull().default(0),
    lastreadtime: integer('lastreadtime').notNull().default(0),
    size: integer('size').notNull().default(0),
    mtimeMs: integer('mtime_ms').notNull().default(0),
    /** JSON object page -> chapter title. */
    toc: text('toc').notNull().default('{}'),
    thumbhash: text('thumbhash'),
    /** Page (1-based) the cover thumbnail is made from. */
    coverPage: integer('cover_page').notNull().default(1),
    hasPatch: integer('has_patch', { mode: 'boolean' }).notNull().default(false),
    /** Why the file could not be read as an archive; null when readable. */
    unreadable: text('unreadable'),
    /** Set by database/clean when the file is gone; a later clean deletes the row. */
    unlinked: integer('unlinked', { mode: 'boolean' }).notNull().default(false),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('archives_title').on(t.title)],
)

export const archivePages = sqliteTable('archive_pages', {
  archiveId: text('archive_id')
    .primaryKey()
    .references(() => archives.id, { onDelete: 'cascade' }),
  /** JSON array of image entry names in natural order. */
  pages: text('pages').notNull(),
})
