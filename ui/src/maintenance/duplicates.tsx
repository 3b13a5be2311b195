// Duplicate review: scan (a job), then each group side by side with covers. The oldest archive
// comes first and is kept by default; ticked archives are deleted (file and metadata) after a
// confirmation. Clearing the list forgets the groups, never an archive.
import { useState } from 'preact/hooks'
import { api } from '../api.ts'
import { Cover } from '../components/cover.tsx'
import { JobProgress } from '../components/job-progress.tsx'
import { notify, notifyError } from '../components/toast.tsx'
import { useApi } from '../components/use-api.ts'
import type { ArchiveMeta } from '../types.ts'
import { href } from '../router.ts'
import { ConfirmButton } from '../components/confirm.tsx'
import { ErrorText } from '../components/error-text.tsx'
import { useStartJob } from '../components/use-start-job.ts'

const size = (bytes?: number) =>
  !bytes
    ? ''
    : bytes < 1048576
      ? `${Math.ceil(bytes / 1024)} KB`
      : `${(bytes / 1048576).toFixed(1)} MB`

function Group({
  group,
  index,
  onDeleted,
}: {
  group: ArchiveMeta[]
  index: number
  onDeleted: () => void
}) {
  const [marked, setMarked] = useState<Set<string>>(new Set())
  const toggle = (id: string, on: boolean) => {
    const next = new Set(marked)
    if (on) next.add(id)
    else next.delete(id)
    setMarked(next)
  }
  const remove = async () => {
    let deleted = 0
    for (const id of marked)
      try {
        await api(`/api/archives/${encodeURIComponent(id)}`, { method: 'DELETE' })
        deleted++
      } catch (e) {
        notifyError(e)
      }
    if (deleted) notify(`Deleted ${deleted} archive${deleted === 1 ? '' : 's'}.`)
    onDeleted()
  }
  const all = marked.size === group.length
  return (
    <li class="card stack dup-group" aria-label={`Duplicate group ${index + 1}`}>
      <div class="dup-members">
        {group.map((a) => (
          <div key={a.arcid} class="dup-member stack">
            <Cover src={`/api/archives/${encodeURIComponent(a.arcid)}/thumbnail`} alt={a.title} />
            <a href={href(['archive', a.arcid])} class="dup-title">
              {a.title}
            </a>
            <span class="muted">{a.filename ? `${a.filename}.${a.extension ?? ''}` : ''}</span>
            <span class="muted">
              {a.pagecount} pages · {size(a.size)}
            </span>
            <label>
              <input
                type="checkbox"
                checked={marked.has(a.arcid)}
                onChange={(e) => toggle(a.arcid, (e.target as HTMLInputElement).checked)}
              />
              Delete {a.title}
            </label>
          </div>
        ))}
      </div>
      <div class="row">
        {all && (
          <span class="error">Every copy is ticked: nothing of this book would be kept.</span>
        )}
        <ConfirmButton
          danger
          disabled={marked.size === 0}
          question={`Delete ${marked.size} archive file${marked.size === 1 ? '' : 's'}?`}
          onConfirm={remove}
        >
          Delete ticked
        </ConfirmButton>
      </div>
    </li>
  )
}

export function DuplicatesSection() {
  const groups = useApi(() => api<ArchiveMeta[][]>('/api/database/duplicates'), [])
  const { job, error, start } = useStartJob()
  const scan = () => start(() => api('/api/database/duplicates/scan', { method: 'POST' }))
  const clear = async () => {
    try {
      const body = await api<{ successMessage?: string }>('/api/database/duplicates', {
        method: 'DELETE',
      })
      notify(body?.successMessage ?? 'Cleared.')
      groups.reload()
    } catch (e) {
      notifyError(e)
    }
  }

  const list = groups.data ?? []
  return (
    <section class="card stack" aria-labelledby="maint-dups">
      <h2 id="maint-dups">Duplicates</h2>
      <p class="muted">
        Finds copies of a book that were resized or re-encoded, by comparing covers and sampled
        pages.
      </p>
      <div class="row">
        <button type="button" class="primary" onClick={scan}>
          Scan for duplicates
        </button>
        <ConfirmButton
          question="Clear the duplicate list?"
          onConfirm={clear}
          disabled={!list.length}
        >
          Clear list
        </ConfirmButton>
      </div>
      {job !== null && (
        <JobProgress id={job} label="Duplicate scan" onEnd={() => groups.reload()} />
      )}
      <ErrorText text={error || groups.error} />
      {groups.data && list.length === 0 && <p class="muted">No duplicate groups.</p>}
      {list.length > 0 && (
        <p>
          {list.length} duplicate group{list.length === 1 ? '' : 's'}
        </p>
      )}
      <ul class="dup-list" aria-label="Duplicate groups">
        {list.map((group, i) => (
          <Group
            key={group.map((a) => a.arcid).join()}
            group={group}
            index={i}
            onDeleted={groups.reload}
          />
        ))}
      </ul>
    </section>
  )
}
