// The job names and argument types `enqueue` checks: every area's kinds (src/areas/index.ts).
import type { AreaJobArgs } from '../../areas/index.ts'
import type { DownloadJobArgs, DownloadJobName } from '../../domain/downloads/runtime.ts'

/**
 * The argument type of each job kind, by name. A queue download's job is named after its
 * plugin's namespace (registered per namespace by download.ts).
 */
export type JobArgsByName = AreaJobArgs & {
  [K in DownloadJobName]: DownloadJobArgs
}
export type JobName = keyof AreaJobArgs
export type JobArgs<K extends JobName> = JobArgsByName[K]
