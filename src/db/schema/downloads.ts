// The download queue: URLs the user pasted, each carried by the download plugin chosen when it was
// added, through staging, conflict answers and ingestion. Column names are the wire names
// (docs/downloads.md).
import { sqliteTable, text, integer, index } from 'drizzle-orm/sqlite-core'

export const downloadQueue = sqliteTable(
  'download_queue',
  {
    /** Random UUID. */
    id: text('id').primaryKey(),
    url: text('url').notNull(),
    pluginNamespace: text('plugin_namespace').notNull(),
    /** queued, starting, waiting, downloading, done, error, cancelled, awaiting_revision_confirmation. */
    state: text('state').notNull().default('queued'),
    /** The job of the latest start (a download plugin's namespace as its name). */
    jobId: integer('job_id'),
    error: text('error'),
    /** Known once the plugin or the file names it. */
    title: text('title'),
    /** Static CategoryId the archive goes into once catalogued. */
    category: text('category'),
    autoFetchMetadata: integer('auto_fetch_metadata', { mode: 'boolean' }).notNull().default(false),
    /** JSON array of the ArchiveIds catalogued from this item: non-empty means ingested. */
    archiveIds: text('archive_ids').notNull().default('[]'),
    /** The staged download file (in the data folder's temp area) while it waits for an answer. */
    tempPath: text('temp_path'),
    /** The archive owning the colliding filename (or the same content). */
    existingId: text('existing_id'),
    /** Set when the user answered the older-revision question; cleared by any other start. */
    revisionConfirmed: integer('revision_confirmed', { mode: 'boolean' }),
    /** JSON {existing_id, filename} while a filename conflict waits for an answer. */
    pendingFilenameConflict: text('pending_filename_conflict'),
    /** JSON {newer_archive_id} while the item waits in awaiting_revision_confirmation. */
    pendingRevisionConfirmation: text('pending_revision_confirmation'),
    /** Epoch milliseconds. */
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (table) => [index('download_queue_state').on(table.state)],
)
