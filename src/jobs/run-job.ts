// One run of one job, for the queue (queue.ts decides when a job runs): live progress held in
// memory and written through at most every PROGRESS_WRITE_MS so a busy job does not hammer the
// database, the result encoded within MAX_RESULT_BYTES, a failure turned into a reason clients
// may read. The end is always returned as data: a job never throws out of here.
import type { JobRow } from '../db/repos/jobs.repo.ts'
import { fail } from '../errors.ts'
import type { EventBus } from '../events.ts'
import { createLogger } from '../log.ts'
import type { JobContext, JobKind } from './define-job.ts'
import { JobFailure } from './job-failure.ts'
import { messageOf, publicReason } from './public-reason.ts'
import type { JobPatch, StateWrites } from './state-writes.ts'

const PROGRESS_WRITE_MS = 500
/** The error of a job the server stopped (shutdown, or a crash found at the next start). */
export const INTERRUPTED = 'Interrupted: the server stopped while this job was running.'
/** Results larger than this (JSON bytes) are cut and flagged result_truncated. */
export const MAX_RESULT_BYTES = 256 * 1024

const log = createLogger('jobs')

/** A job in flight: the row clients see (already active), and how the queue stops it. */
export type RunningJob = { row: JobRow; abort: AbortController }

export type RunJobOptions = {
  states: StateWrites
  /** Told of the job's start, each progress report and its end. */
  events?: Pick<EventBus, 'publish'>
}

/** Runs the job to its end and writes each state on the way; returns the end it wrote. */
export async function runJob<A>(
  kind: JobKind<A>,
  job: RunningJob,
  { states, events }: RunJobOptions,
): Promise<JobPatch> {
  const { row, abort } = job
  const { id } = row
  let lastWrite = 0
  // Parsed at the first report with notes, inside the run: bad stored notes fail the job.
  let notes: Record<string, unknown> | undefined
  let state: 'active' | 'finished' | 'failed' = 'active'
  const announce = () =>
    events?.publish({
      type: 'job.progress',
      id,
      name: row.name,
      state,
      progress: row.progress,
      // Replaced, never changed in place: subscribers may keep it.
      ...(notes && { notes }),
      ...(row.downloadedBytes !== null && { downloadedBytes: row.downloadedBytes }),
      ...(row.totalBytes !== null && { totalBytes: row.totalBytes }),
    })
  // A start that cannot be written does not stop the job: its end is written when possible.
  states.write(id, { state: 'active', startedAt: row.startedAt })
  announce()
  const transferFields = (): JobPatch => ({
    progress: row.progress,
    notes: row.notes,
    downloadedBytes: row.downloadedBytes,
    totalBytes: row.totalBytes,
    rateLimitBytesPerSec: row.rateLimitBytesPerSec,
    rateLimitMatchedPattern: row.rateLimitMatchedPattern,
  })
  const flush = () => {
    const now = Date.now()
    if (now - lastWrite < PROGRESS_WRITE_MS) return
    lastWrite = now
    states.write(id, transferFields())
  }
  const ctx: JobContext = {
    jobId: id,
    progress(fraction, more) {
      row.progress = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0))
      if (more) {
        notes = { ...(notes ?? JSON.parse(row.notes)), ...more }
        row.notes = JSON.stringify(notes)
      }
      flush()
      announce()
    },
    transfer(fields) {
      if (fields.downloadedBytes !== undefined) row.downloadedBytes = fields.downloadedBytes
      if (fields.totalBytes !== undefined) row.totalBytes = fields.totalBytes
      if (fields.rateLimitBytesPerSec !== undefined)
        row.rateLimitBytesPerSec = fields.rateLimitBytesPerSec
      if (fields.rateLimitMatchedPattern !== undefined)
        row.rateLimitMatchedPattern = fields.rateLimitMatchedPattern
      flush()
      announce()
    },
    signal: abort.signal,
    log: createLogger(`job:${row.name}`),
  }
  let end: JobPatch
  try {
    // The arguments enqueue checked against this kind, back from their JSON.
    const args: A = JSON.parse(row.args)
    const result = await kind.run(ctx, args)
    // A job stopped by the server's shutdown returns what it had done so far: not a result.
    if (abort.signal.aborted) throw fail.internal(INTERRUPTED)
    const { json, truncated } = encodeResult(result)
    end = {
      ...transferFields(),
      state: 'finished',
      progress: 1,
      result: json,
      resultTruncated: truncated,
      finishedAt: Date.now(),
    }
  } catch (error) {
    const message = messageOf(error)
    // The whole message (paths included) is for the admin; clients get it without paths.
    log.warn('job failed', { id, name: row.name, error: message })
    const shown = abort.signal.aborted ? INTERRUPTED : publicReason(message).trim()
    const kept = error instanceof JobFailure ? encodeResult(error.result) : null
    end = {
      ...transferFields(),
      state: 'failed',
      error: shown || 'failed',
      ...(kept && { result: kept.json, resultTruncated: kept.truncated }),
      finishedAt: Date.now(),
    }
  }
  states.write(id, end)
  states.retry()
  row.progress = end.progress ?? row.progress
  state = end.state === 'finished' ? 'finished' : 'failed'
  announce()
  return end
}

function encodeResult(result: unknown): { json: string | null; truncated: boolean } {
  if (result === undefined) return { json: null, truncated: false }
  const json = JSON.stringify(result)
  if (json.length <= MAX_RESULT_BYTES) return { json, truncated: false }
  if (Array.isArray(result)) {
    // Keep the head of a list: the most useful part of a long result.
    let keep = Math.floor((result.length * MAX_RESULT_BYTES) / json.length)
    while (keep > 0 && JSON.stringify(result.slice(0, keep)).length > MAX_RESULT_BYTES) keep--
    return { json: JSON.stringify(result.slice(0, keep)), truncated: true }
  }
  return { json: null, truncated: true }
}
