// Import snapshots: the rollback points a legacy import (or a drop) writes before it changes
// anything. Each holds a whole backup document, in the shape POST /api/database/restore accepts,
// so rolling back is a restore. Kept in the database, not as files: the snapshot is written in the
// same transaction as the import that needs it, so there is never an import without its snapshot.
import { sqliteTable, text, integer } from 'drizzle-orm/sqlite-core'

export const importSnapshots = sqliteTable('import_snapshots', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  /** Unix seconds. */
  createdAt: integer('created_at').notNull(),
  /** What wrote it: `import_legacy` or `drop`. */
  reason: text('reason').notNull(),
  /** The job that wrote it, when one did. */
  jobId: integer('job_id'),
  archives: integer('archives').notNull(),
  categories: integer('categories').notNull(),
  tankoubons: integer('tankoubons').notNull(),
  /** The backup document as JSON. */
  document: text('document').notNull(),
})
