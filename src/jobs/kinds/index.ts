// The job names and argument types `enqueue` checks: every area's kinds (src/areas/index.ts).
import type { AreaJobArgs } from '../../areas/index.ts'

/** The argument type of each job kind, by name. */
export type JobArgsByName = AreaJobArgs
export type JobName = keyof AreaJobArgs
export type JobArgs<K extends JobName> = JobArgsByName[K]
