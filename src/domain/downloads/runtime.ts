// What one server holds in memory about its download queue: the cancellation token of each
// download in flight (stop aborts it), which job carries which item (the stream's progress deltas),
// the metadata previews kept for ten minutes, and how a download job is queued. One per server,
// built by boot and carried in Deps, so test servers in one process never share.
import type { Deps } from '../../deps.ts'
import type { TransferFields } from '../../model/progress.ts'

/** A queue download's job is named after its plugin's namespace (`download/direct`, ...). */
export type DownloadJobName = `${string}download/${string}`

/** The arguments of a queue download job: the item it carries. */
export type DownloadJobArgs = { item: string }

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
  /** Makes sure a job kind named `namespace` exists (set by the job kinds at boot). */
  registerKind: (namespace: DownloadJobName) => void
}

/** The spec's "Metadata preview cache lifetime". */
export const METADATA_PREVIEW_TTL_MS = 10 * 60 * 1000

/** Built once per server by boot (Deps.downloads.runtime). */
export function createDownloadRuntime(): DownloadRuntime {
  return {
    running: new Map(),
    jobItems: new Map(),
    previews: new Map(),
    registerKind: () => {
      throw new Error('download job kinds are not registered')
    },
  }
}

export function downloadRuntime(deps: Pick<Deps, 'downloads'>): DownloadRuntime {
  return deps.downloads.runtime
}

/** A download plugin's namespace as a job name (every download plugin's namespace has the form). */
export function downloadJobName(namespace: string): DownloadJobName {
  if (!/(^|\/)download\/[^/]+$/.test(namespace))
    throw new Error(`${namespace} is not a download plugin's namespace`)
  return namespace as DownloadJobName
}

/** Queues the job that downloads `item` with `namespace`; answers the job id. */
export function enqueueDownload(
  deps: Pick<Deps, 'downloads' | 'jobs'>,
  namespace: string,
  item: string,
): number {
  const name = downloadJobName(namespace)
  downloadRuntime(deps).registerKind(name)
  return deps.jobs.enqueue(name, { item })
}

/** The queue item a running job carries, if it is a queue download of this server. */
export function itemOfJob(deps: Pick<Deps, 'downloads'>, jobId: number): string | undefined {
  return downloadRuntime(deps).jobItems.get(jobId)
}
