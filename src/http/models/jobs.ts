// Wire shape of background jobs (JobStatus), plus LANraragi's minion fields.
import type { JobRow } from '../../jobs/queue.ts'

export function toWireJob(row: JobRow) {
  const out: Record<string, unknown> = {
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

/** GET /api/jobqueue/{id} and /api/minion/{id}: JobStatus plus LANraragi's task and notes. */
export function toWireJobDetail(row: JobRow) {
  return {
    ...toWireJob(row),
    task: row.name,
    notes: JSON.parse(row.notes) as Record<string, unknown>,
  }
}
