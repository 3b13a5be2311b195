// The download queue: items, their jobs, page comparison of filename conflicts.
import { log } from './log.ts'
import type { Area } from './area.ts'
import type { DownloadUrlArgs } from '../domain/downloads/download-url.ts'
import type { DownloadJobArgs } from '../domain/downloads/runtime.ts'
import { downloadQueuePolicy, downloadQueueRoutes } from '../http/routes/download-queue.ts'
import { downloadComparePolicy, downloadCompareRoutes } from '../http/routes/download-compare.ts'
import { createDownloadRuntime, type DownloadRuntime } from '../domain/downloads/runtime.ts'
import {
  createComparisonCache,
  dropComparisonsOfRemovedItems,
  type ComparisonCache,
} from '../domain/downloads/compare-cache.ts'
import { sweepInterruptedDownloads } from '../domain/downloads/sweep.ts'
import {
  createQueueStreams,
  dropQueueSnapshotOnWrites,
  type QueueStreams,
} from '../http/download-queue-stream.ts'
import { downloadUrlJob } from '../jobs/kinds/download-url.ts'
import { downloadJob } from '../jobs/kinds/download.ts'

export type DownloadsState = {
  /** Stop tokens, running jobs, metadata previews. */
  runtime: DownloadRuntime
  /** Page comparisons of queue items, kept while both files are unchanged. */
  comparisons: ComparisonCache
  /** The queue's open streams and the `full` event they share. */
  queueStreams: QueueStreams
}

type DownloadsJobArgs = { download_url: DownloadUrlArgs; download: DownloadJobArgs }

export const downloadsArea: Area<'downloads', DownloadsState, DownloadsJobArgs> = {
  name: 'downloads',
  state: () => ({
    runtime: createDownloadRuntime(),
    comparisons: createComparisonCache(),
    queueStreams: createQueueStreams(),
  }),
  jobs: { download_url: downloadUrlJob, download: downloadJob },
  subscribe: ({ events, downloads }) => {
    const stops = [
      dropComparisonsOfRemovedItems(events, downloads.comparisons),
      dropQueueSnapshotOnWrites(events, downloads.queueStreams),
    ]
    return () => {
      for (const stop of stops) stop()
    }
  },
  recover: async (deps) => {
    // Before jobs resume: downloads a crash or stop cut are marked stale, so their jobs end.
    const swept = await sweepInterruptedDownloads(deps)
    if (swept.stale > 0) log.warn('downloads interrupted by the last stop', { count: swept.stale })
  },
  routes: [
    { routes: downloadCompareRoutes, policy: downloadComparePolicy },
    { routes: downloadQueueRoutes, policy: downloadQueuePolicy },
  ],
}
