// Duplicate detection: perceptual hashes per archive (made with the cover, page samples on demand)
// and the groups the last scan found. Groups are a table, not a job result: reading them rewrites
// them (vanished archives pruned), DELETE clears them, and they outlive the job's history.
import { sqliteTable, text, integer } from 'drizzle-orm/sqlite-core'
import { archives } from './archives.ts'

export const archiveHashes = sqliteTable('archive_hashes', {
  archiveId: text('archive_id')
    .primaryKey()
    .references(() => archives.id, { onDelete: 'cascade' }),
  /** dHash (64 bits as 16 hex) of the cover thumbnail. */
  coverHash: text('cover_hash').notNull(),
  /** SHA-1 of the cover thumbnail it was taken from (the archive's thumbhash): stale when not. */
  coverSource: text('cover_source').notNull(),
  /** JSON array of the sampled pages' dHashes (hex, or null when undecodable); null: not taken. */
  pageHashes: text('page_hashes'),
  /** The file the samples were taken from (`size:mtimeMs:pagecount`): stale when it changed. */
  pagesSource: text('pages_source'),
})

export const duplicateGroups = sqliteTable('duplicate_groups', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  /** JSON array of archive ids, at least two. */
  archiveIds: text('archive_ids').notNull(),
  /** The find_duplicates job that found it. */
  jobId: integer('job_id'),
  /** Unix seconds. */
  foundAt: integer('found_at').notNull(),
})
