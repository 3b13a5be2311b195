// The download queue (`#/downloads`): add URLs, watch every item live over the queue's event
// stream, start, stop, retry, delete, answer conflicts; bulk actions on the selection.
import { useState } from 'preact/hooks'
import { api } from '../api.ts'
import { useApi } from '../components/use-api.ts'
import { notify, notifyError } from '../components/toast.tsx'
import type { Category } from '../types.ts'
import { AddForm } from '../downloads/add-form.tsx'
import { ItemRow } from '../downloads/item-row.tsx'
import { useQueueStream } from '../downloads/stream.ts'
import type { PluginSummary } from '../downloads/types.ts'
import { ErrorText } from '../components/error-text.tsx'

export function DownloadsView(_: { parts: string[] }) {
  const queue = useQueueStream()
  const plugins = useApi(() => api<PluginSummary[]>('/api/plugins/download'), [])
  const categories = useApi(() => api<Category[]>('/api/categories'), [])
  const [selected, setSelected] = useState<Set<string>>(new Set())

  const items = queue.items ?? []
  // Only ids still in the queue count as selected.
  const picked = items.filter((i) => selected.has(i.id)).map((i) => i.id)
  const bulk = async (path: string, json?: unknown) => {
    try {
      const answer = await api<Record<string, unknown>>(`/api/download_queue/${path}`, {
        method: 'POST',
        json,
      })
      const started = answer.started as unknown[] | undefined
      const deleted = answer.deleted as unknown[] | number | undefined
      if (started) notify(`Started ${started.length}`)
      else if (deleted !== undefined)
        notify(`Deleted ${Array.isArray(deleted) ? deleted.length : deleted}`)
      else if (typeof answer.count === 'number') notify(`Cleared ${answer.count}`)
      setSelected(new Set())
    } catch (e) {
      notifyError(e)
    }
  }
  const select = (id: string, on: boolean) => {
    const next = new Set(selected)
    if (on) next.add(id)
    else next.delete(id)
    setSelected(next)
  }

  return (
    <section class="stack downloads">
      <h1>Downloads</h1>
      <ErrorText text={plugins.error} />
      <AddForm plugins={plugins.data ?? []} categories={categories.data ?? []} />
      <div class="row dl-bulk">
        <h2>Queue</h2>
        <button type="button" onClick={() => bulk('start_all')}>
          Start all
        </button>
        <button type="button" onClick={() => bulk('clear_completed')}>
          Clear completed
        </button>
        <button
          type="button"
          disabled={picked.length === 0}
          onClick={() => bulk('start_selected', { ids: picked })}
        >
          Start selected
        </button>
        <button
          type="button"
          class="danger"
          disabled={picked.length === 0}
          onClick={() => bulk('delete_selected', { ids: picked })}
        >
          Delete selected
        </button>
        {!queue.connected && queue.items && <span class="muted">Reconnecting…</span>}
      </div>
      {!queue.items && <p class="muted">Loading…</p>}
      {queue.items && items.length === 0 && <p class="muted">The queue is empty.</p>}
      <ul class="dl-list" aria-label="Download queue">
        {[...items].reverse().map((item) => (
          <ItemRow
            key={item.id}
            item={item}
            transfer={queue.transfers[item.id]}
            selected={selected.has(item.id)}
            onSelect={(on) => select(item.id, on)}
          />
        ))}
      </ul>
    </section>
  )
}
