// The job of a queue download: one kind, `download`, whose jobs are named after their plugin's
// namespace (a download's JobStatus name), so each plugin has its own slots.
import type { Deps } from '../../deps.ts'
import type { DownloadIngestDeps } from '../../domain/downloads/ingest.ts'
import { runQueuedDownload } from '../../domain/downloads/download.ts'
import type { DownloadJobArgs } from '../../domain/downloads/runtime.ts'
import { defineJob } from '../define-job.ts'

/** Downloads of one plugin in flight at once (per-host limits come from the domain rules). */
const DOWNLOADS_PER_PLUGIN = 2

export const downloadJob = (deps: DownloadIngestDeps & Pick<Deps, 'outbound'>) =>
  defineJob<DownloadJobArgs>({
    concurrency: DOWNLOADS_PER_PLUGIN,
    jobName: (args) => args.namespace,
    uniqueKey: (args) => `download:${args.item}`,
    // A running job of the item may be stopping: a new start queues a new job.
    mergeActive: false,
    run: (ctx, args) => runQueuedDownload(deps, ctx, args.item),
  })
