// Queue downloads as jobs: the JobStatus name of a download is its plugin's namespace
// (docs/downloads.md), so a kind is registered per download plugin namespace, on its first start
// (and at boot for the namespaces the queue already holds, so their queued jobs resume and end).
import type { Deps } from '../../deps.ts'
import { listDownloadItems } from '../../db/repos/downloads.repo.ts'
import { runQueuedDownload } from '../../domain/downloads/download.ts'
import {
  downloadJobName,
  downloadRuntime,
  type DownloadJobArgs,
  type DownloadJobName,
} from '../../domain/downloads/runtime.ts'
import { defineJob, type JobFactories } from '../define-job.ts'
import type { JobArgsByName } from './index.ts'

/** Downloads of one plugin in flight at once (per-host limits come from the domain rules). */
const DOWNLOADS_PER_PLUGIN = 2

export const downloadJob = (deps: Deps) =>
  defineJob<DownloadJobArgs>({
    concurrency: DOWNLOADS_PER_PLUGIN,
    uniqueKey: (args) => `download:${args.item}`,
    // A running job of the item may be stopping: a new start queues a new job.
    mergeActive: false,
    run: (ctx, args) => runQueuedDownload(deps, ctx, args.item),
  })

/** Makes download kinds registrable by namespace, and registers those the queue names now. */
export function registerDownloadKinds(deps: Deps): void {
  const registered = new Set<string>()
  const register = (name: DownloadJobName) => {
    if (registered.has(name)) return
    registered.add(name)
    const factories = { [name]: downloadJob } as Record<DownloadJobName, typeof downloadJob>
    // A factory map of download names only: the static kinds are registered already.
    deps.jobs.register(factories as unknown as JobFactories<JobArgsByName, Deps>, deps)
  }
  downloadRuntime(deps).registerKind = register
  // Namespaces of queue items, and of download jobs a stop left queued (their item may be gone):
  // registered before the queue resumes, those jobs run and end instead of staying queued.
  const names = [
    ...listDownloadItems(deps.db).map((item) => item.pluginNamespace),
    ...deps.jobs
      .list()
      .filter((job) => job.state === 'queued')
      .map((job) => job.name),
  ]
  for (const name of new Set(names)) {
    try {
      register(downloadJobName(name))
    } catch {
      // Not a download namespace (another kind's job, or an item that fails when started).
    }
  }
}
