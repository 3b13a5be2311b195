// POST /api/download_url?url=&catid=: a one-off download, outside the queue, as a `download_url`
// job carried by the first download plugin (by priority) whose url_regex matches the URL. No
// question can be asked of a one-off job: a clash with the library fails it with the reason.
// Snake_case kept: `archive_ids` is the download_url job's result (stored job JSON, JobStatus
// `result`).
import type { Deps } from '../../deps.ts'
import type { PluginRunDeps } from '../plugins/run.ts'
import { listPluginRows } from '../../db/repos/plugins.repo.ts'
import { fail } from '../../errors.ts'
import { isCategoryId } from '../../model/ids.ts'
import type { PluginManifest } from '../../plugins/manifest.ts'
import { ingestStaged } from '../archives/upload.ts'
import { requirePlugin } from '../plugins/settings.ts'
import { askPlugin, fetchArchives } from './download.ts'
import { checkItemCategory } from './ingest.ts'
import { CONTROL_CHARACTERS } from './queue.ts'
import type { DownloadTask } from './runtime.ts'
import { removeStagedDownload, stagedNameOf, stagedUploadOf } from './staging.ts'
import { nameFromUrl } from './transfer.ts'

export type DownloadUrlArgs = { url: string; plugin: string; category?: string }

/** The first download plugin, by priority, whose url_regex matches `url`. */
export function matchingDownloadPlugin(deps: Pick<Deps, 'db'>, url: string): string | undefined {
  for (const row of listPluginRows(deps.db, 'download')) {
    const { url_regex } = JSON.parse(row.info) as PluginManifest
    if (!url_regex) continue
    try {
      if (new RegExp(url_regex, 'i').test(url)) return row.namespace
    } catch {
      // A plugin with a broken regex matches nothing.
    }
  }
  return undefined
}

/** Checks the request now (a bad one is a 400, not a failed job) and queues the job. */
export async function queueDownloadUrl(
  deps: Pick<Deps, 'db' | 'jobs' | 'plugins'>,
  query: { url?: string; catid?: string },
): Promise<{ job: number; url: string; category: string | null; plugin: string }> {
  const url = query.url?.trim() ?? ''
  // LANraragi's words for a request without a URL.
  if (!url) throw fail.bad_request('No URL specified.')
  if (!/^https?:\/\/\S+$/i.test(url) || CONTROL_CHARACTERS.test(url))
    throw fail.bad_request('url must be an http(s) URL.')
  if (query.catid && !isCategoryId(query.catid)) throw fail.bad_request('Invalid category id.')
  if (query.catid) checkItemCategory(deps, query.catid)
  await deps.plugins.registry.ready()
  const plugin = matchingDownloadPlugin(deps, url)
  if (!plugin) throw fail.bad_request('No download plugin matches this URL.')
  const job = deps.jobs.enqueue('download_url', {
    url,
    plugin,
    ...(query.catid ? { category: query.catid } : {}),
  })
  // `category` as LANraragi answers it: the catid sent, null without one.
  return { job, url, category: query.catid || null, plugin }
}

/** The `download_url` job: the plugin's resources fetched and catalogued; a clash fails it. */
export async function runDownloadUrl(
  deps: PluginRunDeps & Pick<Deps, 'archives' | 'jobs' | 'outbound' | 'reader'>,
  task: DownloadTask,
  args: DownloadUrlArgs,
) {
  const plugin = await requirePlugin(deps, args.plugin)
  const download = await askPlugin(deps, plugin, args.url)
  const bundleName = nameFromUrl(args.url).replace(/\.[a-z0-9]+$/i, '') || 'download'
  const files = await fetchArchives(deps, plugin, download, task, task.signal, bundleName)
  const ids: string[] = []
  for (const [i, file] of files.entries()) {
    try {
      const staged = await stagedUploadOf(
        file.path,
        await stagedNameOf(file.path, file.nameHint),
        file.hashes,
      )
      const ingested = await ingestStaged(deps, staged, { categoryId: args.category })
      if (ingested.kind === 'duplicate')
        throw fail.conflict(`Already in the library as archive ${ingested.id}.`)
      if (ingested.kind === 'name_taken')
        throw fail.conflict(`A file named ${ingested.name} is already in the library.`)
      ids.push(ingested.row.id)
    } catch (error) {
      for (const rest of files.slice(i)) await removeStagedDownload(deps, rest.path)
      throw error
    }
  }
  return { url: args.url, plugin: plugin.namespace, archive_ids: ids }
}
