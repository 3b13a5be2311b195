// A background job's progress: polls `GET /api/jobqueue/<id>` until the job ends and shows a bar,
// its state and its error. Any view that queues a job (`{job}` answers) can show one.
import { useEffect, useState } from 'preact/hooks'
import { api, messageOf } from '../api.ts'
import type { Job } from '../types.ts'
import { ErrorText } from './error-text.tsx'

export const isTerminal = (state: string | undefined) => state === 'finished' || state === 'failed'

/** The job's latest status, polled every `interval` ms while it is queued or active. */
export function useJob(id: number | string | null, interval = 1000) {
  const [job, setJob] = useState<Job | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    setJob(null)
    setError(null)
    if (id === null) return
    let stopped = false
    let timer: ReturnType<typeof setTimeout> | undefined
    const poll = async () => {
      try {
        const next = await api<Job>(`/api/jobqueue/${id}`)
        if (stopped) return
        setJob(next)
        if (!isTerminal(next.state)) timer = setTimeout(poll, interval)
      } catch (e) {
        if (!stopped) setError(messageOf(e))
      }
    }
    poll()
    return () => {
      stopped = true
      clearTimeout(timer)
    }
  }, [id, interval])
  return { job, error }
}

/** A labelled bar; `value` 0..1, or undefined for an indeterminate one. */
export function ProgressBar({ value, label }: { value?: number; label: string }) {
  const pct = value === undefined ? undefined : Math.round(Math.max(0, Math.min(1, value)) * 100)
  return (
    <progress class="job-bar" aria-label={label} max={100} value={pct}>
      {pct === undefined ? '' : `${pct}%`}
    </progress>
  )
}

type Props = {
  id: number | string
  label?: string
  /** Called once when the job ends (finished or failed). */
  onEnd?: (job: Job) => void
}

export function JobProgress({ id, label, onEnd }: Props) {
  const { job, error } = useJob(id)
  const state = job?.state
  useEffect(() => {
    if (job && isTerminal(job.state)) onEnd?.(job)
    // Only the transition to a terminal state matters.
  }, [state])
  const name = label ?? `Job ${id}`
  return (
    <div class="job-progress" data-state={state ?? 'loading'}>
      <div class="row">
        <span>{name}</span>
        <span class={`job-state job-state-${state ?? 'loading'}`}>{state ?? 'loading'}</span>
      </div>
      <ProgressBar
        label={`${name} progress`}
        value={
          state === 'finished' ? 1 : typeof job?.progress === 'number' ? job.progress : undefined
        }
      />
      {job?.state === 'failed' && <ErrorText text={job.error || 'The job failed.'} />}
      <ErrorText text={error} />
    </div>
  )
}
