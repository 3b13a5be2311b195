// Wire shapes of the jobs console (SPEC 2, JobStatus; GET /api/jobs gives ids as strings).

export type JobStatus = {
  id: string | number
  name: string
  state: 'queued' | 'active' | 'finished' | 'failed' | 'inactive' | string
  progress: number
  result?: unknown
  result_truncated?: boolean
  error?: string
  started_at?: number
  finished_at?: number
  downloaded_bytes?: number
  total_bytes?: number
  task?: string
  notes?: Record<string, unknown>
}

export const inFlight = (state: string) =>
  state === 'queued' || state === 'active' || state === 'inactive'
