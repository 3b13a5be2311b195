// Starting and stopping queue items. A start moves a startable item (queued, error, cancelled) to
// `starting` and queues its job, named after the item's plugin; the cancellation token is made at
// the start, so a stop works while the job still waits for a slot. An older-revision answer
// restarts the item past the version check once; any other start clears that approval.
import type { Deps } from '../../deps.ts'
import {
  findDownloadItem,
  listDownloadItems,
  type DownloadItemRow,
} from '../../db/repos/downloads.repo.ts'
import { fail } from '../../errors.ts'
import { nextTurn } from '../../model/each-limited.ts'
import { commit } from '../commit.ts'
import { patchDownloadRow } from './item-save.ts'
import { IN_FLIGHT_STATES, requireItem } from './queue.ts'
import { downloadRuntime, enqueueDownload } from './runtime.ts'
import { removeStagedDownload } from './staging.ts'

export const STARTABLE_STATES = ['queued', 'error', 'cancelled']

export type StartAnswer = {
  started: { id: string; job: number }[]
  skipped: { id: string; reason: string }[]
}

/** Queues the item's job and moves it to `starting`; the caller checked its state. */
async function launch(
  deps: Pick<Deps, 'config' | 'db' | 'downloads' | 'events' | 'jobs'>,
  item: DownloadItemRow,
  revisionConfirmed: boolean,
): Promise<number> {
  if (item.tempPath) await removeStagedDownload(deps, item.tempPath)
  const runtime = downloadRuntime(deps)
  // No await from here to the write: the job cannot run before the item names it.
  const job = enqueueDownload(deps, item.pluginNamespace, item.id)
  runtime.running.set(item.id, new AbortController())
  commit(deps, (w) =>
    patchDownloadRow(w, item.id, {
      state: 'starting',
      jobId: job,
      error: null,
      revisionConfirmed: revisionConfirmed ? true : null,
      tempPath: null,
      existingId: null,
      pendingFilenameConflict: null,
      pendingRevisionConfirmation: null,
    }),
  )
  return job
}

/** POST /{id}/start: 404 unknown, 409 when the item is not startable. */
export async function startItem(
  deps: Pick<Deps, 'config' | 'db' | 'downloads' | 'events' | 'jobs'>,
  id: string,
): Promise<number> {
  const item = requireItem(deps, id)
  if (!STARTABLE_STATES.includes(item.state))
    throw fail.conflict(`The item is ${item.state}: only queued, error or cancelled items start.`)
  return launch(deps, item, false)
}

/**
 * Items started between two turns of the event loop: each start is two writes (job, item), and
 * 11,009 of them in one go held every other request for 21.5 s.
 */
const STARTS_PER_TURN = 50

/**
 * Starts `ids` a slice at a time, the event loop getting a turn between slices. Each item is read
 * again just before its start: another request may have changed or removed it meanwhile.
 */
async function startInSlices(
  deps: Pick<Deps, 'config' | 'db' | 'downloads' | 'events' | 'jobs'>,
  ids: Iterable<string>,
  startable: (state: string) => boolean,
): Promise<StartAnswer> {
  const answer: StartAnswer = { started: [], skipped: [] }
  let count = 0
  for (const id of ids) {
    if (count > 0 && count % STARTS_PER_TURN === 0) await nextTurn()
    count++
    const item = findDownloadItem(deps.db, id)
    if (!item) answer.skipped.push({ id, reason: 'not_found' })
    else if (!startable(item.state)) answer.skipped.push({ id, reason: item.state })
    else answer.started.push({ id, job: await launch(deps, item, false) })
  }
  return answer
}

/** Start all: every queued item; the others are listed with their state as the reason. */
export function startAll(
  deps: Pick<Deps, 'config' | 'db' | 'downloads' | 'events' | 'jobs'>,
): Promise<StartAnswer> {
  const ids = listDownloadItems(deps.db).map((item) => item.id)
  return startInSlices(deps, ids, (state) => state === 'queued')
}

/** Start selected: the startable ones; unknown or unstartable ids are skipped without error. */
export function startSelected(
  deps: Pick<Deps, 'config' | 'db' | 'downloads' | 'events' | 'jobs'>,
  ids: string[],
): Promise<StartAnswer> {
  return startInSlices(deps, new Set(ids), (state) => STARTABLE_STATES.includes(state))
}

/**
 * POST /{id}/stop: a download in flight is told to stop (it removes its partial files) and the
 * item is queued again; without a running download nothing changes. Answers whether it stopped.
 */
export function stopItem(deps: Pick<Deps, 'db' | 'downloads' | 'events'>, id: string): boolean {
  const item = requireItem(deps, id)
  const runtime = downloadRuntime(deps)
  const token = runtime.running.get(id)
  if (!IN_FLIGHT_STATES.includes(item.state) || !token) return false
  token.abort()
  runtime.running.delete(id)
  commit(deps, (w) => patchDownloadRow(w, id, { state: 'queued', error: null }))
  return true
}

/**
 * POST /{id}/confirm-older: proceed restarts the item past the version check (once); no cancels
 * it. Either way the answer is recorded on the item. 409 unless it awaits that answer.
 */
export async function confirmOlder(
  deps: Pick<Deps, 'config' | 'db' | 'downloads' | 'events' | 'jobs'>,
  id: string,
  proceed: boolean,
): Promise<{ state: string; job?: number }> {
  const item = requireItem(deps, id)
  if (item.state !== 'awaiting_revision_confirmation')
    throw fail.conflict(`The item is ${item.state}: it awaits no revision answer.`)
  if (proceed) return { state: 'starting', job: await launch(deps, item, true) }
  commit(deps, (w) =>
    patchDownloadRow(w, id, {
      state: 'cancelled',
      revisionConfirmed: false,
      pendingRevisionConfirmation: null,
    }),
  )
  return { state: 'cancelled' }
}
