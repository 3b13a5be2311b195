// What a job kind is: how many run at once, which jobs are the same job, and the run itself with
// the context the queue hands it. The kind's argument type is the one `enqueue` checks.
import type { Logger } from '../log.ts'
import type { TransferFields } from '../model/progress.ts'

export type JobContext = {
  jobId: number
  /** Best-effort progress 0..1, with optional notes (LANraragi clients read notes.progress). */
  progress(fraction: number, notes?: Record<string, unknown>): void
  /** Transfer fields of download jobs. */
  transfer(fields: TransferFields): void
  signal: AbortSignal
  log: Logger
}

/** A job kind taking arguments A; its name is its key in the map the queue is given. */
export type JobKind<A> = {
  /** How many jobs of this kind and of one name (see jobName) run at once. */
  concurrency: number
  /**
   * The name clients see (JobStatus `name`) when it is not the kind's: a queue download is named
   * after its plugin's namespace. Each name has its own `concurrency` slots.
   */
  jobName?: (args: A) => string
  /** Jobs with the same key while one is queued or active are merged into it. */
  uniqueKey?: (args: A) => string | null
  /** False: only a queued twin absorbs a new job (a running scan may already have missed the change). */
  mergeActive?: boolean
  run: (ctx: JobContext, args: A) => Promise<unknown>
  /**
   * A run the last stop or crash cut (found active at start): the arguments of a job queued again
   * in its place, or null. Unset: it stays failed ("Interrupted").
   */
  resumeInterrupted?: (args: A) => A | null
}

/** Kinds made from what they need at run time (the server's deps), by job name. */
export type JobFactories<M, D> = { [K in keyof M]: (deps: D) => JobKind<M[K]> }

/** The arguments of the kinds a factory map makes, by job name. */
export type JobArgsOf<F> = {
  [K in keyof F]: F[K] extends (deps: never) => JobKind<infer A> ? A : never
}

/** The arguments of a kind that takes none. */
export type NoArgs = Record<string, never>

export function defineJob<A>(kind: JobKind<A>): JobKind<A> {
  return kind
}
