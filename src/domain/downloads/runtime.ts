// What one server holds in memory about its download queue: the cancellation token of each
// download in flight (stop aborts it), which job carries which item (the stream's progress deltas),
// the metadata previews kept for ten minutes, and how a download job is queued. One per server,
// built by boot and carried in Deps, so test servers in one process never share.
import type { Deps } from '../../deps.ts'
import type { TransferFields } from '../../model/progress.ts'

/**
 * The arguments of a queue download job: the item it carries, and its plugin's namespace, which
 * names the job (`download/direct`, ...).
 */
export type DownloadJobArgs = { item: string; namespace: string }

/** What the job runner hands a download (a JobContext, without importing jobs). */
export type DownloadTask = {
  jobId: number
  signal: AbortSignal
  progress(fraction: number): void
  transfer(fields: TransferFields): void
}

/** A metadata plugin's answer for an item, kept so the automatic fetch after download reuses it. */
export type MetadataPreview = {
  plugin: string
  data: Record<string, unknown>
  fetchedAt: number
}

export type DownloadRuntime = {
  /** Item id -> the token stop() aborts, while its download runs. */
  running: Map<string, AbortController>
  /** Job id -> item id, while the job runs. */
  jobItems: Map<number, string>
  /** Item id -> its metadata preview (METADATA_PREVIEW_TTL_MS). */
  previews: Map<string, MetadataPreview>
}

/** The spec's "Metadata preview cache lifetime". */
export const METADATA_PREVIEW_TTL_MS = 10 * 60 * 1000

/** Built once per server by boot (Deps.downloads.runtime). */
export function createDownloadRuntime(): DownloadRuntime {
  return {
    running: new Map(),
    jobItems: new Map(),
    previews: new Map(),
  }
}

export function downloadRuntime(deps: Pick<Deps, 'downloads'>): DownloadRuntime {
  return deps.downloads.runtime
}

/** Queues the job that downloads `item` with `namespace`; answers the job id. */
export function enqueueDownload(deps: Pick<Deps, 'jobs'>, namespace: string, item: string): number {
  return deps.jobs.enqueue('download', { item, namespace })
}

/** The queue item a running job carries, if it is a queue download of this server. */
export function itemOfJob(deps: Pick<Deps, 'downloads'>, jobId: number): string | undefined {
  return downloadRuntime(deps).jobItems.get(jobId)
}
