// Every job kind, by the spec's job name: the one list `enqueue` checks names and arguments against.
import type { Deps } from '../../deps.ts'
import type { JobArgsOf } from '../define-job.ts'
import { rescanJob } from './rescan.ts'
import { thumbnailsJob, regenThumbsJob } from './thumbnails.ts'
import { extractJob } from './extract.ts'
import { rebuildIndexJob } from './rebuild-index.ts'
import { pluginExecJob } from './plugin-exec.ts'

/** Each kind is made from the server's deps when registered. */
export const JOB_KINDS = {
  rescan: rescanJob,
  thumbnails: thumbnailsJob,
  regen_thumbs: regenThumbsJob,
  extract: extractJob,
  rebuild_index: rebuildIndexJob,
  plugin_exec: pluginExecJob,
}

export type JobName = keyof typeof JOB_KINDS
/** The argument type of each job kind, by name. */
export type JobArgsByName = JobArgsOf<typeof JOB_KINDS>
export type JobArgs<K extends JobName> = JobArgsByName[K]

export function registerJobKinds(deps: Deps): void {
  deps.jobs.register(JOB_KINDS, deps)
}
