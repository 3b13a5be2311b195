// Wire shape of background jobs (JobStatus), plus LANraragi's minion fields and their schema.
import { Type } from '@sinclair/typebox'
import { t } from 'elysia'
import type { JobRow } from '../../jobs/queue.ts'

/** JobStatus: optional fields are absent (never null) until they apply. */
export type WireJob = {
  id: string
  name: string
  state: JobRow['state']
  progress: number
  result: unknown
  result_truncated: boolean
  error?: string
  started_at?: number
  finished_at?: number
  downloaded_bytes?: number
  total_bytes?: number
  rate_limit_bytes_per_sec?: number
  rate_limit_matched_pattern?: string
}

export function toWireJob(row: JobRow): WireJob {
  const out: WireJob = {
    id: String(row.id),
    name: row.name,
    state: row.state,
    progress: row.progress,
    result: row.result === null ? null : JSON.parse(row.result),
    result_truncated: row.resultTruncated,
  }
  if (row.state === 'failed') out.error = row.error ?? 'failed'
  if (row.startedAt !== null) out.started_at = row.startedAt
  if (row.finishedAt !== null) out.finished_at = row.finishedAt
  if (row.downloadedBytes !== null) out.downloaded_bytes = row.downloadedBytes
  if (row.totalBytes !== null) out.total_bytes = row.totalBytes
  if (row.rateLimitBytesPerSec !== null) out.rate_limit_bytes_per_sec = row.rateLimitBytesPerSec
  if (row.rateLimitMatchedPattern !== null)
    out.rate_limit_matched_pattern = row.rateLimitMatchedPattern
  return out
}

/** GET /api/jobqueue/{id}: JobStatus plus LANraragi's task and notes. */
export function toWireJobDetail(row: JobRow) {
  return {
    ...toWireJob(row),
    task: row.name,
    notes: JSON.parse(row.notes) as Record<string, unknown>,
  }
}

/** Epoch seconds as a string, as Minion's job info gives its times; null when not yet. */
const minionTime = (ms: number | null) => (ms === null ? null : String(Math.floor(ms / 1000)))

/**
 * GET /api/minion/{id} (and /detail): the same body in LANraragi's minion dialect, which its
 * clients parse: a numeric `id` (C# clients bind it to an int) and `inactive` for a waiting job
 * (LANraragi's own poller keeps polling only on `inactive` or `active`), plus the fields of
 * Minion's job info that typed clients require (the lanraragi Python client refuses a detail
 * without `created`, `delayed`, `args`, `retries`...): one attempt, no retries, no child jobs.
 */
export function toWireMinionJob(row: JobRow) {
  const detail = toWireJobDetail(row)
  return {
    ...detail,
    id: row.id,
    state: row.state === 'queued' ? 'inactive' : row.state,
    // A job's arguments can name server paths (a restore's file): not shown to any caller.
    args: [],
    attempts: 1,
    children: [],
    parents: [],
    created: minionTime(row.createdAt),
    delayed: minionTime(row.createdAt),
    started: minionTime(row.startedAt),
    finished: minionTime(row.finishedAt),
    retried: null,
    retries: 0,
    expires: null,
    lax: 0,
    priority: row.priority,
    queue: 'default',
    time: minionTime(Date.now()),
    worker: 0,
  }
}

const MinionTime = t.Union([t.String(), t.Null()])

/**
 * GET /api/minion/{id} and /detail (LANraragi's contract): JobStatus in the minion dialect, keys in
 * the order toWireMinionJob writes them (the optional ones sit where toWireJob adds them).
 */
export const MinionJobResponse = t.Object({
  id: Type.Integer(),
  name: t.String(),
  state: t.String(),
  progress: t.Number(),
  result: t.Unknown(),
  result_truncated: t.Boolean(),
  error: t.Optional(t.String()),
  started_at: t.Optional(Type.Integer()),
  finished_at: t.Optional(Type.Integer()),
  downloaded_bytes: t.Optional(Type.Integer()),
  total_bytes: t.Optional(Type.Integer()),
  rate_limit_bytes_per_sec: t.Optional(Type.Integer()),
  rate_limit_matched_pattern: t.Optional(t.String()),
  task: t.String(),
  notes: t.Record(t.String(), t.Unknown()),
  args: t.Array(t.Unknown()),
  attempts: Type.Integer(),
  children: t.Array(t.Unknown()),
  parents: t.Array(t.Unknown()),
  created: MinionTime,
  delayed: MinionTime,
  started: MinionTime,
  finished: MinionTime,
  retried: t.Null(),
  retries: Type.Integer(),
  expires: t.Null(),
  lax: Type.Integer(),
  priority: Type.Integer(),
  queue: t.String(),
  time: MinionTime,
  worker: Type.Integer(),
})
