// Jobs console (#/jobs): every background job, newest first. Polls GET /api/jobs (the server has
// no job event stream): every 2 s while a job is queued or running, every 10 s otherwise.
import { useEffect, useState } from 'preact/hooks'
import { api, messageOf } from '../api.ts'
import { notify, notifyError } from '../components/toast.tsx'
import { JobRow } from '../jobs/job-row.tsx'
import { inFlight, type JobStatus } from '../jobs/types.ts'
import { ErrorText } from '../components/error-text.tsx'

const FILTERS = ['all', 'active', 'finished', 'failed'] as const
type Filter = (typeof FILTERS)[number]

export function JobsView(_: { parts: string[] }) {
  const [jobs, setJobs] = useState<JobStatus[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [version, setVersion] = useState(0)
  const [filter, setFilter] = useState<Filter>('all')
  const reload = () => setVersion((v) => v + 1)

  useEffect(() => {
    let stopped = false
    let timer: ReturnType<typeof setTimeout> | undefined
    const load = async () => {
      try {
        const body = await api<{ jobs: JobStatus[] }>('/api/jobs')
        if (stopped) return
        setJobs(body.jobs)
        setError(null)
        // Fast while something runs; slowly otherwise, so jobs queued elsewhere still appear.
        timer = setTimeout(load, body.jobs.some((job) => inFlight(job.state)) ? 2000 : 10_000)
      } catch (e) {
        if (stopped) return
        setError(messageOf(e))
        timer = setTimeout(load, 10_000)
      }
    }
    load()
    return () => {
      stopped = true
      clearTimeout(timer)
    }
  }, [version])

  const clearOne = async (id: string) => {
    try {
      await api(`/api/jobs/${encodeURIComponent(id)}`, { method: 'DELETE' })
      setJobs((list) => list?.filter((job) => String(job.id) !== id) ?? null)
    } catch (e) {
      notifyError(e)
    }
  }

  const clearAll = async (state: 'finished' | 'failed') => {
    try {
      const body = await api<{ deleted: number }>('/api/jobs', {
        method: 'DELETE',
        query: { state },
      })
      notify(`Cleared ${body.deleted} ${state} jobs.`)
      reload()
    } catch (e) {
      notifyError(e)
    }
  }

  const shown = (jobs ?? []).filter((job) =>
    filter === 'all' ? true : filter === 'active' ? inFlight(job.state) : job.state === filter,
  )
  const running = (jobs ?? []).some((job) => inFlight(job.state))

  return (
    <section class="stack jobs-view">
      <div class="row">
        <h1>Jobs</h1>
        {running && <span class="muted">refreshing every 2 s</span>}
      </div>
      <div class="row">
        <label>
          Show
          <select
            aria-label="Show jobs"
            value={filter}
            onChange={(e) => setFilter((e.target as HTMLSelectElement).value as Filter)}
          >
            {FILTERS.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={reload}>
          Refresh
        </button>
        <button type="button" onClick={() => clearAll('finished')}>
          Clear finished
        </button>
        <button type="button" onClick={() => clearAll('failed')}>
          Clear failed
        </button>
      </div>
      <ErrorText text={error} />
      {jobs === null && !error && <p class="muted">Loading…</p>}
      {jobs !== null && shown.length === 0 && <p class="muted">No jobs.</p>}
      <ul class="job-list" aria-label="Jobs">
        {shown.map((job) => (
          <JobRow key={String(job.id)} job={job} onClear={clearOne} />
        ))}
      </ul>
    </section>
  )
}
