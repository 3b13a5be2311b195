// The queue's live state from its event stream (GET /api/download_queue/stream): `full` replaces
// the list, `delta` adds, updates, removes an item or moves its byte counts. EventSource
// reconnects by itself, and the server sends `full` again on each connection.
import { useEffect, useState } from 'preact/hooks'
import { api } from '../api.ts'
import type { DownloadItem } from './types.ts'

/** Wait before opening a refused stream again. */
const RECONNECT_MS = 3000

export type Transfer = { downloaded: number; total?: number }

type Delta =
  | { kind: 'add'; item: DownloadItem }
  | ({ kind: 'update' } & DownloadItem)
  | { kind: 'remove'; id: string }
  | { kind: 'progress'; id: string; downloaded_bytes: number; total_bytes?: number }

export type QueueState = {
  items: DownloadItem[] | null
  transfers: Record<string, Transfer>
  connected: boolean
}

export function useQueueStream(): QueueState {
  const [state, setState] = useState<QueueState>({ items: null, transfers: {}, connected: false })

  useEffect(() => {
    let source: EventSource | null = null
    let retry: ReturnType<typeof setTimeout> | undefined
    let stopped = false
    const connect = () => {
      if (stopped) return
      source = new EventSource('/api/download_queue/stream')
      source.addEventListener('open', () => setState((s) => ({ ...s, connected: true })))
      source.addEventListener('error', () => {
        setState((s) => ({ ...s, connected: false }))
        // A refused stream (an expired session: 401) is not retried by the browser. A plain API
        // call refreshes the session when it can; then the stream is opened again.
        if (source?.readyState !== EventSource.CLOSED) return
        retry = setTimeout(() => {
          api('/api/download_queue')
            .catch(() => undefined)
            .finally(connect)
        }, RECONNECT_MS)
      })
      source.addEventListener('full', (e) => {
        const { items } = JSON.parse((e as MessageEvent<string>).data) as { items: DownloadItem[] }
        setState((s) => ({ ...s, items, connected: true }))
      })
      source.addEventListener('delta', (e) => {
        const delta = JSON.parse((e as MessageEvent<string>).data) as Delta
        setState((s) => applyDelta(s, delta))
      })
    }
    connect()
    return () => {
      stopped = true
      clearTimeout(retry)
      source?.close()
    }
  }, [])

  return state
}

function applyDelta(state: QueueState, delta: Delta): QueueState {
  const items = state.items ?? []
  switch (delta.kind) {
    case 'add':
      return { ...state, items: [...items.filter((i) => i.id !== delta.item.id), delta.item] }
    case 'update': {
      const {
        kind: _kind,
        type: _type,
        ...rest
      } = delta as DownloadItem & {
        kind: string
        type?: string
      }
      const item: DownloadItem = rest
      const known = items.some((i) => i.id === item.id)
      const next = known ? items.map((i) => (i.id === item.id ? item : i)) : [...items, item]
      return { ...state, items: next }
    }
    case 'remove': {
      const { [delta.id]: _gone, ...transfers } = state.transfers
      return { ...state, items: items.filter((i) => i.id !== delta.id), transfers }
    }
    case 'progress':
      return {
        ...state,
        transfers: {
          ...state.transfers,
          [delta.id]: { downloaded: delta.downloaded_bytes, total: delta.total_bytes },
        },
      }
  }
}
