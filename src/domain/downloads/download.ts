// One queue download, run by its job: the item's plugin answers the resources (execDownload in
// the sandbox), the version history is checked before any byte moves, the bytes stream to a
// staged file (bundled into one CBZ when the plugin's bundle_as_archive says so), and the file is
// ingested. A stop aborts the transfer; the task removes what it wrote and leaves the item queued.
// Snake_case kept: DownloadResult is the job's result (stored job JSON, JobStatus `result`);
// `filename_hint` is the download plugin API's field; the pending revision is stored JSON.
import type { Deps } from '../../deps.ts'
import { findDownloadItem, type DownloadItemRow } from '../../db/repos/downloads.repo.ts'
import { AppError, fail } from '../../errors.ts'
import { createLogger } from '../../log.ts'
import type { LoginSession } from '../../plugins/manifest.ts'
import { loginSession } from '../plugins/login.ts'
import { runPlugin, type PluginRunDeps } from '../plugins/run.ts'
import { getPluginOptions, requirePlugin, type InstalledPlugin } from '../plugins/settings.ts'
import {
  checkItemCategory,
  ingestForItem,
  patchItemIf,
  type IngestOutcome,
  type DownloadIngestDeps,
} from './ingest.ts'
import { findNewerRevision, parseVersionHistory, type Revision } from './revision.ts'
import { downloadRuntime, type DownloadTask } from './runtime.ts'
import { removeStagedDownload, stagedNameOf, stagedUploadOf } from './staging.ts'
import {
  bundleAsCbz,
  fetchResources,
  nameFromUrl,
  type Fetched,
  type Resource,
} from './transfer.ts'

const log = createLogger('downloads')

/** Resources one download may name (a gallery's pages at most). */
const MAX_RESOURCES = 5000

export type PluginDownload = { resources: Resource[]; history: Revision[] }

const stringRecord = (value: unknown): Record<string, string> | undefined => {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined
  const out: Record<string, string> = {}
  for (const [name, v] of Object.entries(value)) if (typeof v === 'string') out[name] = v
  return out
}

/** A download plugin's answer, checked: at least one resource, each with an http(s) URL. */
export function parseDownloadAnswer(data: Record<string, unknown>): PluginDownload {
  const list = Array.isArray(data.downloads) ? data.downloads : []
  if (list.length === 0) throw fail.bad_request('The download plugin answered no downloads.')
  if (list.length > MAX_RESOURCES)
    throw fail.bad_request(`The download plugin answered more than ${MAX_RESOURCES} downloads.`)
  const resources = list.map((entry: unknown, i): Resource => {
    const e = (entry ?? {}) as Record<string, unknown>
    if (typeof e.url !== 'string' || !/^https?:\/\//i.test(e.url))
      throw fail.bad_request(`The download plugin's download ${i} has no http(s) url.`)
    return {
      url: e.url,
      ...(typeof e.method === 'string' ? { method: e.method.toUpperCase() } : {}),
      ...(stringRecord(e.headers) ? { headers: stringRecord(e.headers) } : {}),
      ...(typeof e.filename_hint === 'string' ? { filename_hint: e.filename_hint } : {}),
    }
  })
  return { resources, history: parseVersionHistory(data.version_history) }
}

/** Runs the plugin's execDownload on `url`; a failing plugin is a bad_request with its message. */
export async function askPlugin(
  deps: PluginRunDeps,
  plugin: InstalledPlugin,
  url: string,
): Promise<PluginDownload> {
  if (plugin.type !== 'download')
    throw fail.bad_request(`Plugin ${plugin.namespace} is not a download plugin.`)
  const answer = await runPlugin(deps, plugin, undefined, url)
  return parseDownloadAnswer(answer.data)
}

/** The login session the plugin's resources are fetched with (its login_from). */
async function sessionOf(
  deps: PluginRunDeps,
  plugin: InstalledPlugin,
): Promise<LoginSession | undefined> {
  return plugin.info.login_from ? loginSession(deps, plugin.info.login_from) : undefined
}

/**
 * The files to ingest: one per resource, or one CBZ of all of them when the plugin's
 * bundle_as_archive option is on and there are several. Each with the name it is catalogued under.
 */
export async function fetchArchives(
  deps: PluginRunDeps & Pick<Deps, 'outbound'>,
  plugin: InstalledPlugin,
  download: PluginDownload,
  task: DownloadTask,
  signal: AbortSignal,
  bundleName: string,
): Promise<Fetched[]> {
  const login = await sessionOf(deps, plugin)
  const files = await fetchResources(deps, download.resources, task, signal, login)
  const { bundle_as_archive } = await getPluginOptions(deps, plugin.namespace)
  if (!bundle_as_archive || files.length < 2) return files
  return [{ path: await bundleAsCbz(deps, files), nameHint: `${bundleName}.cbz` }]
}

/** What the job returns (its result). */
export type DownloadResult =
  | { item: string; state: string; archive_ids?: string[]; existing_id?: string | null }
  | { item: string; skipped: string }

/** The item's name for a bundle: its title, else the URL's last segment. */
const bundleNameOf = (item: DownloadItemRow) =>
  item.title?.trim() || nameFromUrl(item.url).replace(/\.[a-z0-9]+$/i, '') || 'download'

/**
 * The queue download job: runs only for the start that queued it (the item is `starting` with
 * this job id); any other state means the item was stopped, restarted or deleted meanwhile.
 */
export async function runQueuedDownload(
  deps: DownloadIngestDeps & Pick<Deps, 'outbound'>,
  task: DownloadTask,
  itemId: string,
): Promise<DownloadResult> {
  const item = findDownloadItem(deps.db, itemId)
  if (!item || item.jobId !== task.jobId || item.state !== 'starting')
    return {
      item: itemId,
      skipped: 'the item was stopped, restarted or removed before its job ran',
    }
  const runtime = downloadRuntime(deps)
  // The token start() made (a server that restarted has none: one is made here).
  const stop = runtime.running.get(itemId) ?? new AbortController()
  runtime.running.set(itemId, stop)
  runtime.jobItems.set(task.jobId, itemId)
  const signal = AbortSignal.any([task.signal, stop.signal])
  const owns = (row: DownloadItemRow) => row.jobId === task.jobId && !stop.signal.aborted
  try {
    checkItemCategory(deps, item.category)
    const plugin = await requirePlugin(deps, item.pluginNamespace)
    const download = await askPlugin(deps, plugin, item.url)
    signal.throwIfAborted()
    if (!item.revisionConfirmed) {
      const newer = findNewerRevision(deps, item.url, download.history)
      if (newer) {
        patchItemIf(deps, itemId, owns, {
          state: 'awaiting_revision_confirmation',
          pendingRevisionConfirmation: JSON.stringify({ newer_archive_id: newer }),
        })
        return { item: itemId, state: 'awaiting_revision_confirmation', existing_id: newer }
      }
    }
    patchItemIf(deps, itemId, owns, { state: 'downloading' })
    const files = await fetchArchives(deps, plugin, download, task, signal, bundleNameOf(item))
    const outcomes: IngestOutcome[] = []
    // Unbundled resources are catalogued in order; the first that is not catalogued (a conflict)
    // ends the item there, and the files after it are dropped.
    for (const [i, file] of files.entries()) {
      const previous = outcomes.at(-1)
      if (signal.aborted || (previous && previous.kind !== 'done')) {
        for (const rest of files.slice(i)) await removeStagedDownload(deps, rest.path)
        signal.throwIfAborted()
        break
      }
      try {
        const name = await stagedNameOf(file.path, file.nameHint)
        const staged = await stagedUploadOf(file.path, name, file.hashes)
        outcomes.push(await ingestForItem(deps, item, staged, owns, i === files.length - 1))
      } catch (error) {
        for (const rest of files.slice(i)) await removeStagedDownload(deps, rest.path)
        throw error
      }
    }
    return resultOf(itemId, outcomes)
  } catch (error) {
    // Stopped by the user: stop() already set the item queued; the files are gone (finally blocks).
    if (stop.signal.aborted) return { item: itemId, state: 'queued' }
    // The server is stopping: the item stays in flight, and the next start marks it stale.
    if (task.signal.aborted) throw error
    patchItemIf(deps, itemId, owns, { state: 'error', error: itemErrorOf(error) })
    throw error
  } finally {
    if (runtime.running.get(itemId) === stop) runtime.running.delete(itemId)
    runtime.jobItems.delete(task.jobId)
  }
}

/**
 * What the item shows of a failure: an AppError's message (written for users), else only the
 * system error's code, since its message names server paths (the log has the whole error).
 */
function itemErrorOf(error: unknown): string {
  if (error instanceof AppError) return error.message
  log.warn('download failed', { error: error instanceof Error ? error.message : String(error) })
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  return `Download failed: ${code ?? 'internal error'}.`
}

function resultOf(itemId: string, outcomes: IngestOutcome[]): DownloadResult {
  const archiveIds = outcomes.flatMap((o) => (o.kind === 'done' ? [o.archiveId] : []))
  const last = outcomes.at(-1)
  if (last?.kind === 'duplicate')
    return { item: itemId, state: 'error', existing_id: last.existingId, archive_ids: archiveIds }
  if (last?.kind === 'name_taken')
    return { item: itemId, state: 'waiting', existing_id: last.existingId, archive_ids: archiveIds }
  return { item: itemId, state: 'done', archive_ids: archiveIds }
}
