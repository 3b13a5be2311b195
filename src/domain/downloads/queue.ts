// The download queue's list: adding URLs (each entry checked on its own), reading, editing and
// removing items. Starting and stopping are start.ts; the download itself is download.ts.
import type { Deps } from '../../deps.ts'
import {
  findDownloadItem,
  listDownloadItems,
  listDownloadItemsByState,
  type DownloadItemRow,
} from '../../db/repos/downloads.repo.ts'
import { findPlugin } from '../../db/repos/plugins.repo.ts'
import { fail } from '../../errors.ts'
import { isCategoryId } from '../../model/ids.ts'
import { commit } from '../commit.ts'
import { deleteDownloadRow, insertDownloadRow, patchDownloadRow } from './item-save.ts'
import { removeStagedDownload } from './staging.ts'
import { downloadRuntime } from './runtime.ts'

export type { DownloadItemRow }

/** An entry of a bulk add (read from the body by http/models/downloads.ts). */
export type NewQueueEntry = {
  url: string
  pluginNamespace: string
  category?: string
  autoFetchMetadata?: boolean
}

/** An entry of a bulk add in the body's order, or the URL (else '') of one that is no entry. */
export type QueueEntryInput = NewQueueEntry | { invalid: true; url: string }

export type Rejected = { url: string; reason: string }

/** Items the user may edit while they are not running. */
export type QueueItemEdit = {
  url?: string
  pluginNamespace?: string
  title?: string | null
  category?: string | null
  autoFetchMetadata?: boolean
}

/** States whose download is in flight: deleting or editing the item waits until it ends. */
export const IN_FLIGHT_STATES = ['starting', 'downloading']
/**
 * The lock an answer to an item holds (overwrite, rename, keep-b) and that delete takes: one at a
 * time per item, a second one meanwhile is 423.
 */
export const itemLockOf = (id: string) => `download:${id}`

/** A longest URL: a long signed CDN link fits, a pasted document does not. */
const MAX_URL_LENGTH = 8192
/** NUL to US, and DEL: never part of a URL as typed. */
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/

export function listQueue(deps: Pick<Deps, 'db'>): DownloadItemRow[] {
  return listDownloadItems(deps.db)
}

export function requireItem(deps: Pick<Deps, 'db'>, id: string): DownloadItemRow {
  const row = findDownloadItem(deps.db, id)
  if (!row) throw fail.not_found(`No download queue item ${id.slice(0, 64)}.`)
  return row
}

/** Why a URL cannot be queued, or null. */
function badUrl(url: string): string | null {
  if (url.length > MAX_URL_LENGTH) return 'url_too_long'
  // The URL parser would percent-encode a NUL or a control character and carry on.
  if (CONTROL_CHARACTERS.test(url)) return 'invalid_url'
  try {
    const parsed = new URL(url)
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? null : 'unsupported_scheme'
  } catch {
    return 'invalid_url'
  }
}

/** Why a namespace cannot carry a download, or null: it names an installed download plugin. */
function badPlugin(deps: Pick<Deps, 'db'>, namespace: string): string | null {
  const row = findPlugin(deps.db, namespace)
  if (!row) return 'plugin_not_installed'
  return row.type === 'download' ? null : 'not_a_download_plugin'
}

function badCategory(category: string | undefined | null): string | null {
  return category && !isCategoryId(category) ? 'invalid_category' : null
}

/**
 * Bulk add: every valid entry becomes a queued item (one transaction), every invalid one is
 * listed with its reason; an empty list adds nothing.
 */
export async function addToQueue(
  deps: Pick<Deps, 'db' | 'events' | 'plugins'>,
  entries: readonly QueueEntryInput[],
): Promise<{ added: DownloadItemRow[]; rejected: Rejected[] }> {
  await deps.plugins.registry.ready()
  const rejected: Rejected[] = []
  const valid: NewQueueEntry[] = []
  for (const entry of entries) {
    if ('invalid' in entry) {
      rejected.push({ url: entry.url, reason: 'invalid_entry' })
      continue
    }
    const url = entry.url.trim()
    const reason =
      badUrl(url) ?? badPlugin(deps, entry.pluginNamespace) ?? badCategory(entry.category)
    if (reason) rejected.push({ url: entry.url, reason })
    else valid.push({ ...entry, url })
  }
  const now = Date.now()
  const added = commit(deps, (w) =>
    valid.map((entry) =>
      insertDownloadRow(w, {
        id: crypto.randomUUID(),
        url: entry.url,
        pluginNamespace: entry.pluginNamespace,
        state: 'queued',
        category: entry.category || null,
        autoFetchMetadata: entry.autoFetchMetadata ?? false,
        createdAt: now,
        updatedAt: now,
      }),
    ),
  )
  return { added, rejected }
}

/** PATCH: omitted fields keep their value; 404 for no such item, 409 while it downloads. */
export async function editQueueItem(
  deps: Pick<Deps, 'db' | 'events' | 'plugins'>,
  id: string,
  edit: QueueItemEdit,
): Promise<DownloadItemRow> {
  const item = requireItem(deps, id)
  if (IN_FLIGHT_STATES.includes(item.state))
    throw fail.conflict('The item is downloading: stop it before editing it.')
  if (edit.url !== undefined) {
    const reason = badUrl(edit.url.trim())
    if (reason) throw fail.bad_request(`Invalid url: ${reason}`)
  }
  if (edit.pluginNamespace !== undefined) {
    await deps.plugins.registry.ready()
    const reason = badPlugin(deps, edit.pluginNamespace)
    if (reason) throw fail.bad_request(`Invalid plugin_namespace: ${reason}`)
  }
  if (badCategory(edit.category)) throw fail.bad_request('Invalid category id.')
  const row = commit(deps, (w) =>
    patchDownloadRow(w, id, {
      ...(edit.url !== undefined ? { url: edit.url.trim() } : {}),
      ...(edit.pluginNamespace !== undefined ? { pluginNamespace: edit.pluginNamespace } : {}),
      ...(edit.title !== undefined ? { title: edit.title?.trim() || null } : {}),
      ...(edit.category !== undefined ? { category: edit.category || null } : {}),
      ...(edit.autoFetchMetadata !== undefined
        ? { autoFetchMetadata: edit.autoFetchMetadata }
        : {}),
    }),
  )
  if (!row) throw fail.not_found(`No download queue item ${id.slice(0, 64)}.`)
  return row
}

const ingested = (item: DownloadItemRow) => (JSON.parse(item.archiveIds) as string[]).length > 0

/** Why an item cannot be deleted, or null. */
function undeletable(item: DownloadItemRow): string | null {
  // Only Downloading refuses; a Starting item is told to stop and removed.
  if (item.state === 'downloading') return 'The item is downloading: stop it first.'
  // Its archive is in the library: clear_completed removes done items.
  if (ingested(item))
    return 'The item was ingested into the library; clear completed items instead.'
  return null
}

/** Removes the item (stopping a download about to start) and the staged file it waited on. */
async function removeItem(
  deps: Pick<Deps, 'config' | 'db' | 'downloads' | 'events'>,
  item: DownloadItemRow,
): Promise<boolean> {
  const runtime = downloadRuntime(deps)
  runtime.running.get(item.id)?.abort()
  runtime.running.delete(item.id)
  const removed = commit(deps, (w) => deleteDownloadRow(w, item.id))
  runtime.previews.delete(item.id)
  if (item.tempPath) await removeStagedDownload(deps, item.tempPath)
  return removed
}

/** DELETE /{id}: 404 unknown, 409 while downloading or once ingested. */
export async function deleteQueueItem(
  deps: Pick<Deps, 'config' | 'db' | 'downloads' | 'events' | 'locks'>,
  id: string,
): Promise<void> {
  await deps.locks.withLock(itemLockOf(id), async () => {
    const item = requireItem(deps, id)
    const reason = undeletable(item)
    if (reason) throw fail.conflict(reason)
    await removeItem(deps, item)
  })
}

/**
 * Delete selected: unknown, downloading and ingested ids are skipped silently, and so are items
 * an answer (overwrite, rename, keep-b) is being carried out on.
 */
export async function deleteSelected(
  deps: Pick<Deps, 'config' | 'db' | 'downloads' | 'events' | 'locks'>,
  ids: string[],
): Promise<string[]> {
  const deleted: string[] = []
  for (const id of new Set(ids)) {
    if (deps.locks.isLocked(itemLockOf(id))) continue
    const removed = await deps.locks.withLock(itemLockOf(id), async () => {
      const item = findDownloadItem(deps.db, id)
      return item && !undeletable(item) ? removeItem(deps, item) : false
    })
    if (removed) deleted.push(id)
  }
  return deleted
}

/** Removes every done item (their archives stay in the library); answers how many. */
export function clearCompleted(deps: Pick<Deps, 'db' | 'downloads' | 'events'>): number {
  const done = listDownloadItemsByState(deps.db, ['done'])
  commit(deps, (w) => done.forEach((item) => deleteDownloadRow(w, item.id)))
  for (const item of done) downloadRuntime(deps).previews.delete(item.id)
  return done.length
}
