// Background jobs: the JobStatus of the spec, persisted so clients can poll after restarts.
import { sqliteTable, text, integer, real, index } from 'drizzle-orm/sqlite-core'

export const jobs = sqliteTable(
  'jobs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** The JobStatus name clients see: the kind's name, or what the kind names its jobs after. */
    name: text('name').notNull(),
    /**
     * The kind that runs the job when its name is not the kind's own (a queue download is named
     * after its plugin's namespace, its kind is `download`); null: the name is the kind.
     */
    kind: text('kind'),
    state: text('state', { enum: ['queued', 'active', 'finished', 'failed'] }).notNull(),
    progress: real('progress').notNull().default(0),
    args: text('args').notNull().default('{}'),
    result: text('result'),
    resultTruncated: integer('result_truncated', { mode: 'boolean' }).notNull().default(false),
    error: text('error'),
    notes: text('notes').notNull().default('{}'),
    uniqueKey: text('unique_key'),
    priority: integer('priority').notNull().default(0),
    createdAt: integer('created_at').notNull(),
    startedAt: integer('started_at'),
    finishedAt: integer('finished_at'),
    downloadedBytes: integer('downloaded_bytes'),
    totalBytes: integer('total_bytes'),
    rateLimitBytesPerSec: integer('rate_limit_bytes_per_sec'),
    rateLimitMatchedPattern: text('rate_limit_matched_pattern'),
  },
  (t) => [index('jobs_state').on(t.state), index('jobs_unique_key').on(t.uniqueKey)],
)
