// Registers every job kind with the queue.
import type { Deps } from '../../deps.ts'
import { rescanJob } from './rescan.ts'
import { thumbnailsJob, regenThumbsJob } from './thumbnails.ts'
import { extractJob } from './extract.ts'
import { rebuildIndexJob } from './rebuild-index.ts'

export function registerJobKinds(deps: Deps): void {
  for (const kind of [
    rescanJob(deps),
    thumbnailsJob(deps),
    regenThumbsJob(deps),
    extractJob(deps),
    rebuildIndexJob(deps),
  ])
    deps.jobs.register(kind)
}
