// Queries of the jobs table; the queue in src/jobs/queue.ts is the only caller that writes.
import { and, desc, eq, inArray, lte } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { jobs } from '../schema/jobs.ts'

export type JobRow = typeof jobs.$inferSelect
export type JobState = JobRow['state']

export function insertJob(
  db: Db,
  job: {
    name: string
    /** Unset or null: the name is the kind. */
    kind?: string | null
    args: unknown
    uniqueKey: string | null
    priority: number
  },
): JobRow {
  return db
    .insert(jobs)
    .values({
      name: job.name,
      kind: job.kind ?? null,
      state: 'queued',
      args: JSON.stringify(job.args ?? {}),
      uniqueKey: job.uniqueKey,
      priority: job.priority,
      createdAt: Date.now(),
    })
    .returning()
    .get()
}

export function findJob(db: Db, id: number): JobRow | undefined {
  return db.select().from(jobs).where(eq(jobs.id, id)).get()
}

export function listJobs(db: Db, limit = 500): JobRow[] {
  return db.select().from(jobs).orderBy(desc(jobs.id)).limit(limit).all()
}

export function listJobsInState(db: Db, state: JobState): JobRow[] {
  return db.select().from(jobs).where(eq(jobs.state, state)).orderBy(jobs.id).all()
}

export function updateJob(db: Db, id: number, patch: Partial<Omit<JobRow, 'id'>>): void {
  db.update(jobs).set(patch).where(eq(jobs.id, id)).run()
}

export function deleteJob(db: Db, id: number): void {
  db.delete(jobs).where(eq(jobs.id, id)).run()
}

export function deleteJobsInState(db: Db, state: JobState): number {
  return db.delete(jobs).where(eq(jobs.state, state)).returning({ id: jobs.id }).all().length
}

/** Deletes finished and failed jobs beyond the newest `keep` of them; returns how many went. */
export function pruneTerminalJobs(db: Db, keep: number): number {
  const cutoff = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(inArray(jobs.state, ['finished', 'failed']))
    .orderBy(desc(jobs.id))
    .limit(1)
    .offset(keep)
    .get()
  if (!cutoff) return 0
  return db
    .delete(jobs)
    .where(and(inArray(jobs.state, ['finished', 'failed']), lte(jobs.id, cutoff.id)))
    .returning({ id: jobs.id })
    .all().length
}
