// Backup: queue a backup job and download its document; earlier backup jobs still listed in the
// jobs history are offered too (the server keeps the ten newest documents). "Download now" builds
// the document on the spot (GET /api/database/backup).
import { api } from '../api.ts'
import { JobProgress } from '../components/job-progress.tsx'
import { useApi } from '../components/use-api.ts'
import type { JobStatus } from '../jobs/types.ts'
import { ErrorText } from '../components/error-text.tsx'
import { useStartJob } from '../components/use-start-job.ts'

const when = (ms?: number) => (ms ? new Date(ms).toLocaleString() : '')

export function BackupSection() {
  const { job, error, start } = useStartJob()
  const backup = () => start(() => api('/api/database/backup', { method: 'POST' }))
  const history = useApi(() => api<{ jobs: JobStatus[] }>('/api/jobs'), [])
  const backups = (history.data?.jobs ?? []).filter(
    (j) => j.name === 'backup' && j.state === 'finished',
  )

  return (
    <section class="card stack" aria-labelledby="maint-backup">
      <h2 id="maint-backup">Backup</h2>
      <p class="muted">
        A JSON document of every archive's metadata, the categories and the Tankoubons, in
        LANraragi's format. Archive files are not included.
      </p>
      <div class="row">
        <button type="button" class="primary" onClick={backup}>
          Start backup
        </button>
        <a class="button" href="/api/database/backup" download>
          Download current metadata now
        </a>
      </div>
      <ErrorText text={error} />
      {job !== null && <JobProgress id={job} label="Backup" onEnd={() => history.reload()} />}
      {backups.length > 0 && (
        <ul class="maint-list" aria-label="Backups">
          {backups.map((b) => (
            <li key={String(b.id)} class="row">
              <span>
                Backup #{String(b.id)} <span class="muted">{when(b.finished_at)}</span>
              </span>
              <a href={`/api/database/backup/${b.id}?format=file`} download>
                Download backup #{String(b.id)}
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
