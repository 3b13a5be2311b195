// Restore a backup document, import a LANraragi backup (merge/overwrite/skip), and the snapshots
// an import or a drop leaves behind (download, restore, delete). All are uploads of one JSON file
// as the multipart field `file`; the server checks it whole before queuing the job.
import { useState } from 'preact/hooks'
import { api, request } from '../api.ts'
import { JobProgress } from '../components/job-progress.tsx'
import { notify, notifyError } from '../components/toast.tsx'
import { useApi } from '../components/use-api.ts'
import { ConfirmButton } from '../components/confirm.tsx'
import { ErrorText } from '../components/error-text.tsx'
import { FileInput } from '../components/file-input.tsx'
import { useStartJob } from '../components/use-start-job.ts'

type Snapshot = {
  id: number
  created_at: number
  reason: string
  job: number | null
  archives: number
  categories: number
  tankoubons: number
  size: number
}

const MODES = ['merge', 'overwrite', 'skip'] as const
const JSON_FILES = '.json,application/json'

async function upload(path: string, file: Blob, name: string, fields: Record<string, string> = {}) {
  const body = new FormData()
  for (const [key, value] of Object.entries(fields)) body.append(key, value)
  body.append('file', file, name)
  return api<{ job: number }>(path, { method: 'POST', body })
}

export function RestoreSection() {
  const [file, setFile] = useState<File | null>(null)
  const state = useStartJob()
  return (
    <section class="card stack" aria-labelledby="maint-restore">
      <h2 id="maint-restore">Restore a backup</h2>
      <p class="muted">
        Writes the document's metadata over the matching archives, categories and Tankoubons.
        Nothing the document does not name is deleted.
      </p>
      <div class="row">
        <FileInput accept={JSON_FILES} label="Backup file to restore" onPick={setFile} />
        <ConfirmButton
          disabled={!file}
          question="Overwrite metadata from this backup?"
          onConfirm={() => state.start(() => upload('/api/database/restore', file!, file!.name))}
        >
          Restore
        </ConfirmButton>
      </div>
      <ErrorText text={state.error} />
      {state.job !== null && <JobProgress id={state.job} label="Restore" />}
    </section>
  )
}

export function ImportSection({ onImported }: { onImported: () => void }) {
  const [file, setFile] = useState<File | null>(null)
  const [mode, setMode] = useState<string>('merge')
  const [repair, setRepair] = useState(true)
  const state = useStartJob()
  return (
    <section class="card stack" aria-labelledby="maint-import">
      <h2 id="maint-import">Import a LANraragi backup</h2>
      <p class="muted">
        A snapshot of the library is taken first, so an import can be rolled back below.
      </p>
      <div class="row">
        <FileInput accept={JSON_FILES} label="LANraragi backup file" onPick={setFile} />
        <label>
          Mode
          <select value={mode} onChange={(e) => setMode((e.target as HTMLSelectElement).value)}>
            {MODES.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </label>
        <label>
          <input
            type="checkbox"
            checked={repair}
            onChange={(e) => setRepair((e.target as HTMLInputElement).checked)}
          />
          Repair mojibake
        </label>
        <ConfirmButton
          disabled={!file}
          question={`Import in ${mode} mode?`}
          onConfirm={() =>
            state.start(() =>
              upload('/api/database/import-legacy', file!, file!.name, {
                mode,
                repair_mojibake: String(repair),
              }),
            )
          }
        >
          Import
        </ConfirmButton>
      </div>
      <ErrorText text={state.error} />
      {state.job !== null && <JobProgress id={state.job} label="Import" onEnd={onImported} />}
    </section>
  )
}

export function SnapshotsSection({ version }: { version: number }) {
  const list = useApi(
    () => api<{ snapshots: Snapshot[] }>('/api/database/import-snapshots'),
    [version],
  )
  const state = useStartJob()

  // Rolling back is restoring the snapshot's document: fetch it, upload it to restore.
  const restore = (s: Snapshot) =>
    state.start(async () => {
      const res = await request(`/api/database/import-snapshots/${s.id}`)
      return upload('/api/database/restore', await res.blob(), `snapshot-${s.id}.json`)
    })

  const remove = async (s: Snapshot) => {
    try {
      await api(`/api/database/import-snapshots/${s.id}`, { method: 'DELETE' })
      notify(`Deleted snapshot ${s.id}.`)
      list.reload()
    } catch (e) {
      notifyError(e)
    }
  }

  const snapshots = list.data?.snapshots ?? []
  return (
    <section class="card stack" aria-labelledby="maint-snapshots">
      <h2 id="maint-snapshots">Snapshots</h2>
      <p class="muted">Written before each legacy import and each drop; kept until deleted.</p>
      <ErrorText text={list.error} />
      {list.data && snapshots.length === 0 && <p class="muted">No snapshots.</p>}
      <ul class="maint-list" aria-label="Snapshots">
        {snapshots.map((s) => (
          <li key={s.id} class="row">
            <span>
              #{s.id} {s.reason}{' '}
              <span class="muted">{new Date(s.created_at * 1000).toLocaleString()}</span>{' '}
              <span class="muted">
                {s.archives} archives, {s.categories} categories, {s.tankoubons} Tankoubons
              </span>
            </span>
            <a class="button" href={`/api/database/import-snapshots/${s.id}`} download>
              Download
            </a>
            <ConfirmButton
              question={`Restore snapshot ${s.id}?`}
              label={`Restore snapshot ${s.id}`}
              onConfirm={() => restore(s)}
            >
              Restore
            </ConfirmButton>
            <ConfirmButton
              danger
              question={`Delete snapshot ${s.id}?`}
              label={`Delete snapshot ${s.id}`}
              onConfirm={() => remove(s)}
            >
              Delete
            </ConfirmButton>
          </li>
        ))}
      </ul>
      <ErrorText text={state.error} />
      {state.job !== null && <JobProgress id={state.job} label="Snapshot restore" />}
    </section>
  )
}
