// One job of the console: name, state, progress bar, times, error; its detail (result, notes)
// loads from GET /api/minion/<id>/detail when expanded, a plugin run's log as lines.
import { useState } from 'preact/hooks'
import { api, messageOf } from '../api.ts'
import { ProgressBar } from '../components/job-progress.tsx'
import { inFlight, type JobStatus } from './types.ts'
import { ErrorText } from '../components/error-text.tsx'
import { RunLog, type RunLogLine } from '../plugins/run-log.tsx'

const time = (ms?: number) => (ms ? new Date(ms).toLocaleString() : '')

function duration(job: JobStatus): string {
  if (!job.started_at) return ''
  const end = job.finished_at ?? Date.now()
  const s = Math.max(0, Math.round((end - job.started_at) / 1000))
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${s % 60}s`
}

type Props = { job: JobStatus; onClear: (id: string) => void }

export function JobRow({ job, onClear }: Props) {
  const [open, setOpen] = useState(false)
  const [detail, setDetail] = useState<string | null>(null)
  const [log, setLog] = useState<RunLogLine[] | undefined>(undefined)
  const id = String(job.id)
  const label = `${job.name} #${id}`

  const toggle = async () => {
    const next = !open
    setOpen(next)
    if (!next) return
    try {
      const body = await api<JobStatus>(`/api/minion/${id}/detail`)
      // A plugin run's log reads better as lines than inside the JSON.
      const { log: runLog, ...result } = (body.result ?? {}) as { log?: RunLogLine[] }
      setLog(Array.isArray(runLog) ? runLog : undefined)
      const shown = Array.isArray(runLog) ? result : body.result
      setDetail(JSON.stringify({ result: shown, notes: body.notes }, null, 2))
    } catch (e) {
      setDetail(messageOf(e))
    }
  }

  const value =
    job.state === 'finished' ? 1 : inFlight(job.state) && !job.progress ? undefined : job.progress
  return (
    <li class="card job" aria-label={label} data-state={job.state}>
      <div class="row job-head">
        <strong class="job-name">{job.name}</strong>
        <span class="muted">#{id}</span>
        <span class={`job-state job-state-${job.state}`}>{job.state}</span>
        <span class="muted job-times">
          {job.started_at ? `started ${time(job.started_at)}` : 'waiting'}
          {job.started_at ? ` · ${duration(job)}` : ''}
        </span>
      </div>
      <ProgressBar label={`${label} progress`} value={value} />
      <ErrorText text={job.error} />
      {job.result_truncated && <p class="muted">The result was too large to keep in full.</p>}
      <div class="row">
        <button type="button" aria-expanded={open} onClick={toggle}>
          {open ? 'Hide details' : 'Details'}
        </button>
        {!inFlight(job.state) && (
          <button type="button" aria-label={`Clear job ${id}`} onClick={() => onClear(id)}>
            Clear
          </button>
        )}
      </div>
      {open && <pre class="job-detail">{detail ?? 'Loading…'}</pre>}
      {open && <RunLog log={log} />}
    </li>
  )
}
