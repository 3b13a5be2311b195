// One queue item: what it is, its state and byte progress, its actions, and its open question.
import { api } from '../api.ts'
import { href } from '../router.ts'
import { notifyError } from '../components/toast.tsx'
import { formatBytes } from './format.ts'
import { FilenameConflict, RevisionQuestion } from './questions.tsx'
import type { Transfer } from './stream.ts'
import type { DownloadItem } from './types.ts'

export const STARTABLE = new Set(['queued', 'error', 'cancelled'])
const RUNNING = new Set(['starting', 'downloading'])

const STATE_TEXT: Record<string, string> = {
  queued: 'Queued',
  starting: 'Starting',
  downloading: 'Downloading',
  waiting: 'Needs an answer',
  awaiting_revision_confirmation: 'Needs an answer',
  done: 'Done',
  error: 'Failed',
  cancelled: 'Cancelled',
}

const call = (item: DownloadItem, action: string, method = 'POST') =>
  api(`/api/download_queue/${encodeURIComponent(item.id)}${action}`, { method }).catch(notifyError)

export function ItemRow(props: {
  item: DownloadItem
  transfer?: Transfer
  selected: boolean
  onSelect: (selected: boolean) => void
}) {
  const { item, transfer } = props
  const label = item.title || item.url
  const running = RUNNING.has(item.state)
  const deletable = !running && item.archive_ids.length === 0
  return (
    <li class={`card dl-item dl-${item.state}`} aria-label={item.url}>
      <div class="row dl-head">
        <input
          type="checkbox"
          aria-label={`Select ${label}`}
          checked={props.selected}
          onChange={(e) => props.onSelect((e.target as HTMLInputElement).checked)}
        />
        <div class="dl-what">
          <strong class="dl-title">{label}</strong>
          {item.title && <span class="muted dl-url">{item.url}</span>}
          <span class="muted dl-plugin">{item.plugin_namespace}</span>
        </div>
        <span class={`badge dl-state dl-state-${item.state}`}>
          {STATE_TEXT[item.state] ?? item.state}
        </span>
      </div>
      {(running || (transfer && item.state !== 'done')) && <TransferBar transfer={transfer} />}
      {item.state === 'error' && item.error && (
        <p class="error dl-error">
          {item.error}
          {item.existing_id && (
            <>
              {' '}
              <a href={href(['archive', item.existing_id])}>Open the copy in the library</a>
            </>
          )}
        </p>
      )}
      {item.state === 'waiting' && item.pending_filename_conflict && (
        <FilenameConflict item={item} />
      )}
      {item.state === 'awaiting_revision_confirmation' && item.pending_revision_confirmation && (
        <RevisionQuestion item={item} />
      )}
      <div class="row dl-actions">
        {item.archive_ids.map((id, i) => (
          <a key={id} href={href(['archive', id])}>
            {item.archive_ids.length > 1 ? `Archive ${i + 1}` : 'Open archive'}
          </a>
        ))}
        {STARTABLE.has(item.state) && (
          <button type="button" onClick={() => call(item, '/start')}>
            {item.state === 'queued' ? 'Start' : 'Retry'}
          </button>
        )}
        {running && (
          <button type="button" onClick={() => call(item, '/stop')}>
            Stop
          </button>
        )}
        {deletable && (
          <button
            type="button"
            class="danger"
            aria-label={`Delete ${label}`}
            onClick={() => call(item, '', 'DELETE')}
          >
            Delete
          </button>
        )}
      </div>
    </li>
  )
}

function TransferBar({ transfer }: { transfer?: Transfer }) {
  const done = transfer?.downloaded ?? 0
  const total = transfer?.total
  const percent = total ? Math.min(100, Math.floor((done / total) * 100)) : undefined
  return (
    <div class="dl-transfer">
      {/* No value while the length is unknown: an indeterminate bar. */}
      <progress aria-label="Download progress" max={total ?? 1} value={total ? done : undefined} />
      <span class="muted dl-bytes">
        {transfer
          ? `${formatBytes(done)}${total ? ` of ${formatBytes(total)} (${percent}%)` : ''}`
          : 'Waiting for the first bytes'}
      </span>
    </div>
  )
}
