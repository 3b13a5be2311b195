// GET /api/download_queue/stream: the queue's `full` list, then deltas. The `full` event is built
// once per queue version and shared by every stream opened meanwhile (200 streams over 11,010
// items each built and held their own: 940 MB, 29 s to open), and each credential may keep only
// a few streams open.
import type { Deps } from '../deps.ts'
import { isAdmin, type Caller } from '../domain/auth/caller.ts'
import { listQueue } from '../domain/downloads/queue.ts'
import { itemOfJob } from '../domain/downloads/runtime.ts'
import { fail } from '../errors.ts'
import type { EventBus, EventOf } from '../events.ts'
import { toWireDownloadItem } from './models/downloads.ts'
import { encodeSseEvent, sseResponse } from './sse.ts'

/** Progress deltas per item and stream: at most one per this many ms (about four a second). */
const PROGRESS_DELTA_MS = 250
/** Open streams per credential: a browser tab holds one; more is a leak or an attack. */
export const MAX_QUEUE_STREAMS_PER_CREDENTIAL = 8

/** The queue's streams of one server (deps.downloads): their shared `full` event, open counts. */
export type QueueStreams = {
  /**
   * The encoded `full` event of the current queue, with URL credentials shown (admins) and
   * hidden (other readers); null once a write changed the queue.
   */
  full: { shown: Uint8Array | null; hidden: Uint8Array | null }
  /** Open streams by credential. */
  open: Map<string, number>
}

export function createQueueStreams(): QueueStreams {
  return { full: { shown: null, hidden: null }, open: new Map() }
}

/**
 * Drops the shared `full` event on every write of the queue. Subscribed at start, before any
 * stream, so a write drops the snapshot before streams see its delta.
 */
export function dropQueueSnapshotOnWrites(bus: EventBus, streams: QueueStreams): () => void {
  const stale = () => void (streams.full = { shown: null, hidden: null })
  const stops = [bus.subscribe('download.saved', stale), bus.subscribe('download.removed', stale)]
  return () => {
    for (const stop of stops) stop()
  }
}

/** Whose streams are counted together: a token, a login (session family), else an address. */
function credentialOf(caller: Caller, ip: string | null): string {
  if (caller.kind === 'token') return `token:${caller.tokenId}`
  if (caller.kind === 'session' && caller.familyId) return `session:${caller.familyId}`
  return `${caller.kind}:${ip ?? 'unknown'}`
}

/**
 * The queue's stream: `full` with every item, then a `delta` after each committed write (add,
 * update, remove) and transfer progress of running downloads, throttled per item. 429 past
 * MAX_QUEUE_STREAMS_PER_CREDENTIAL open streams of the same credential.
 */
export function queueStream(
  deps: Pick<Deps, 'db' | 'downloads' | 'events'>,
  caller: Caller,
  ip: string | null,
  signal: AbortSignal,
): Response {
  const state = deps.downloads.queueStreams
  const credential = credentialOf(caller, ip)
  const open = state.open.get(credential) ?? 0
  if (open >= MAX_QUEUE_STREAMS_PER_CREDENTIAL)
    throw fail.too_many_requests(
      `Too many open download queue streams for this credential ` +
        `(${MAX_QUEUE_STREAMS_PER_CREDENTIAL}); close one first.`,
    )
  state.open.set(credential, open + 1)
  const closed = () => {
    const left = (state.open.get(credential) ?? 1) - 1
    if (left > 0) state.open.set(credential, left)
    else state.open.delete(credential)
  }
  return sseResponse((sink) => {
    // Read and subscribed in one tick: no write can fall between the list and the deltas.
    const credentials = isAdmin(caller)
    const key = credentials ? 'shown' : 'hidden'
    const full = (state.full[key] ??= encodeSseEvent('full', {
      type: 'full',
      items: listQueue(deps).map((row) => toWireDownloadItem(row, credentials)),
    }))
    sink.sendEncoded(full)
    const lastProgress = new Map<string, number>()
    const onSaved = (event: EventOf<'download.saved'>) => {
      const item = toWireDownloadItem(event.row, credentials)
      sink.send(
        'delta',
        event.created
          ? { type: 'delta', kind: 'add', item }
          : { type: 'delta', kind: 'update', ...item },
      )
    }
    const onRemoved = (event: EventOf<'download.removed'>) => {
      lastProgress.delete(event.id)
      sink.send('delta', { type: 'delta', kind: 'remove', id: event.id })
    }
    const onProgress = (event: EventOf<'job.progress'>) => {
      if (event.downloadedBytes === undefined) return
      const id = itemOfJob(deps, event.id)
      if (!id) return
      const now = Date.now()
      if (now - (lastProgress.get(id) ?? 0) < PROGRESS_DELTA_MS) return
      lastProgress.set(id, now)
      sink.send('delta', {
        type: 'delta',
        kind: 'progress',
        id,
        job_id: event.id,
        downloaded_bytes: event.downloadedBytes,
        ...(event.totalBytes !== undefined ? { total_bytes: event.totalBytes } : {}),
      })
    }
    const stops = [
      deps.events.subscribe('download.saved', onSaved),
      deps.events.subscribe('download.removed', onRemoved),
      deps.events.subscribe('job.progress', onProgress),
    ]
    return () => {
      stops.forEach((stop) => stop())
      closed()
    }
  }, signal)
}
