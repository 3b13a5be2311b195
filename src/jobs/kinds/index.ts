// Every job kind, by the spec's job name: the one list `enqueue` checks names and arguments against.
import type { Deps } from '../../deps.ts'
import type { JobArgsOf } from '../define-job.ts'
import { rescanJob } from './rescan.ts'
import { thumbnailsJob, regenThumbsJob } from './thumbnails.ts'
import { extractJob } from './extract.ts'
import { rebuildIndexJob } from './rebuild-index.ts'
import { pluginExecJob } from './plugin-exec.ts'
import { backupJob } from './backup.ts'
import { restoreJob } from './restore.ts'
import { importLegacyJob } from './import-legacy.ts'
import { downloadUrlJob } from './download-url.ts'
import { archiveSplitJob } from './archive-split.ts'
import { findDuplicatesJob } from './find-duplicates.ts'
import { registerDownloadKinds } from './download.ts'
import type { DownloadJobArgs, DownloadJobName } from '../../domain/downloads/runtime.ts'

/** Each kind is made from the server's deps when registered. */
export const JOB_KINDS = {
  rescan: rescanJob,
  thumbnails: thumbnailsJob,
  regen_thumbs: regenThumbsJob,
  extract: extractJob,
  rebuild_index: rebuildIndexJob,
  plugin_exec: pluginExecJob,
  backup: backupJob,
  restore: restoreJob,
  import_legacy: importLegacyJob,
  download_url: downloadUrlJob,
  find_duplicates: findDuplicatesJob,
  archive_split: archiveSplitJob,
}

export type JobName = keyof typeof JOB_KINDS
/**
 * The argument type of each job kind, by name. A queue download's job is named after its
 * plugin's namespace (registered per namespace by download.ts).
 */
export type JobArgsByName = JobArgsOf<typeof JOB_KINDS> & {
  [K in DownloadJobName]: DownloadJobArgs
}
export type JobArgs<K extends JobName> = JobArgsByName[K]

export function registerJobKinds(deps: Deps): void {
  deps.jobs.register(JOB_KINDS, deps)
  registerDownloadKinds(deps)
}
