// The questions a queue item can ask: a filename taken by another archive (overwrite, keep the
// library's copy, save under another name, or compare pages first), and an older revision than
// one already in the library (download anyway or not).
import { useState } from 'preact/hooks'
import { api } from '../api.ts'
import { href } from '../router.ts'
import { notify, notifyError } from '../components/toast.tsx'
import type { DownloadItem } from './types.ts'

type Outcome = { state: string; archive_id?: string; existing_id?: string; filename?: string }

const base = (id: string) => `/api/download_queue/${encodeURIComponent(id)}`

function told(outcome: Outcome) {
  if (outcome.state === 'waiting')
    notify(`${outcome.filename ?? 'That name'} is taken as well`, 'error')
  else if (outcome.state === 'error') notify('The same file is already in the library', 'error')
}

export function FilenameConflict({ item }: { item: DownloadItem }) {
  const conflict = item.pending_filename_conflict!
  const [name, setName] = useState(conflict.filename)
  const [busy, setBusy] = useState(false)
  const act = async (path: string, json?: unknown, success?: string) => {
    setBusy(true)
    try {
      told(await api<Outcome>(`${base(item.id)}/${path}`, { method: 'POST', json }))
      if (success) notify(success)
    } catch (e) {
      notifyError(e)
    } finally {
      setBusy(false)
    }
  }
  return (
    <div class="dl-question stack" role="group" aria-label="Filename conflict">
      <p>
        A different archive named <strong>{conflict.filename}</strong> is already in the library
        {conflict.existing_id && (
          <>
            {' '}
            (<a href={href(['archive', conflict.existing_id])}>open it</a>)
          </>
        )}
        .
      </p>
      <div class="row">
        {conflict.existing_id && (
          <a class="button" href={href(['compare', item.id])}>
            Compare pages
          </a>
        )}
        <button type="button" disabled={busy} onClick={() => act('overwrite')}>
          Replace with download
        </button>
        <button
          type="button"
          disabled={busy}
          onClick={() => act('compare/keep-b', undefined, 'Kept the library copy')}
        >
          Keep library copy
        </button>
      </div>
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault()
          void act('rename', { filename: name.trim() })
        }}
      >
        <input
          aria-label="New file name"
          value={name}
          onInput={(e) => setName((e.target as HTMLInputElement).value)}
        />
        <button type="submit" disabled={busy || !name.trim() || name.trim() === conflict.filename}>
          Keep both, save as this name
        </button>
      </form>
    </div>
  )
}

export function RevisionQuestion({ item }: { item: DownloadItem }) {
  const newer = item.pending_revision_confirmation!.newer_archive_id
  const answer = (proceed: boolean) =>
    api(`${base(item.id)}/confirm-older`, { method: 'POST', json: { proceed } }).catch(notifyError)
  return (
    <div class="dl-question stack" role="group" aria-label="Older revision">
      <p>
        A newer revision of this is already in the library (
        <a href={href(['archive', newer])}>open it</a>). Download this older one anyway?
      </p>
      <div class="row">
        <button type="button" onClick={() => answer(true)}>
          Download anyway
        </button>
        <button type="button" onClick={() => answer(false)}>
          Don't download
        </button>
      </div>
    </div>
  )
}
