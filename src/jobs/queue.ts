// The background job runner and the only writer of job state: queued -> active -> finished|failed.
// Jobs are rows in SQLite so clients can poll them; how one run goes is run-job.ts. What runs is
// known in memory: a state write the database refuses (state-writes.ts) never strands a job.
import type { Db } from '../db/client.ts'
import {
  deleteJob,
  deleteJobsInState,
  findJob,
  insertJob,
  listJobs,
  listJobsInState,
  pruneTerminalJobs,
  type JobRow,
  type JobState,
} from '../db/repos/jobs.repo.ts'
import { fail } from '../errors.ts'
import type { EventBus } from '../events.ts'
import { createLogger } from '../log.ts'
import type { JobFactories, JobKind } from './define-job.ts'
import { messageOf } from './public-reason.ts'
import { INTERRUPTED, runJob, type RunningJob } from './run-job.ts'
import { createStateWrites } from './state-writes.ts'

/** Terminal jobs kept for clients to read; older ones are pruned as new ones finish. */
export const KEEP_TERMINAL_JOBS = 2000
const PRUNE_EVERY = 200

/** M: the argument type of each job kind, by name (the server's is JobArgsByName). */
export type JobQueue<M> = {
  /**
   * Makes each kind from deps; a job's name is its kind's key unless the kind names its jobs
   * (`jobName`). Every name of M needs a kind.
   */
  register<D>(factories: JobFactories<M, D>, deps: D): void
  /** Queues a job and returns its id; an equal live job (same uniqueKey) is returned instead. */
  enqueue<K extends NameOf<M>>(kind: K, args: M[K], options?: { priority?: number }): number
  get(id: number): JobRow | undefined
  list(): JobRow[]
  /** Deletes a finished or failed job; 409 while queued or active, 404 when unknown. */
  clear(id: number): void
  clearInState(state: 'finished' | 'failed'): number
  /** Resolves once the job is terminal (tests, and callers that chain jobs). */
  waitFor(id: number): Promise<JobRow>
  /** Marks jobs a crash left active as failed and resumes queued ones. */
  recover(): void
  stop(): Promise<void>
}

/** The kind names of a queue whose kinds take arguments M. */
type NameOf<M> = keyof M & string

/** The jobs of one name and their kind: they wait in turn and run up to its concurrency. */
type Lane<K> = { kind: K; pending: number[]; running: number }

export type JobQueueOptions = {
  /** Told when a job is queued, starts, reports progress and ends (`job.progress`). */
  events?: Pick<EventBus, 'publish'>
}

export function createJobQueue<M>(db: Db, options: JobQueueOptions = {}): JobQueue<M> {
  const log = createLogger('jobs')
  const kinds: Partial<{ [K in NameOf<M>]: JobKind<M[K]> }> = {}
  // By job name: a kind's concurrency holds per name (a download's is its plugin's namespace).
  const lanes = new Map<string, Lane<NameOf<M>>>()
  // What this process really runs: a row the database calls queued or active but that is in
  // neither map (its end not yet written, another process) never absorbs a new job.
  const queued = new Map<number, JobRow>()
  const live = new Map<number, RunningJob>()
  const waiters = new Map<number, ((row: JobRow) => void)[]>()
  const states = createStateWrites(db)
  const { events } = options
  let stopped = false
  let finishedSincePrune = 0

  /** The kind of a stored job, when one of that name is registered. */
  const kindOf = (row: JobRow): NameOf<M> | undefined => {
    const kindName = row.kind ?? row.name
    return Object.hasOwn(kinds, kindName) ? (kindName as NameOf<M>) : undefined
  }

  /** Writes a queued job of the kind, named as the kind names it. */
  const insert = <K extends NameOf<M>>(
    kindName: K,
    args: M[K],
    uniqueKey: string | null,
    priority: number,
  ) => {
    const name = kinds[kindName]?.jobName?.(args) ?? kindName
    const kind = name === kindName ? null : kindName
    return insertJob(db, { name, kind, args, uniqueKey, priority })
  }

  /** The row as clients see it: the live row, or the stored one with any unsaved state. */
  const current = (id: number): JobRow | undefined => {
    const entry = live.get(id)
    if (entry) return entry.row
    const row = findJob(db, id)
    return row && { ...row, ...states.unsavedOf(id) }
  }

  const settle = (id: number, row: JobRow) => {
    for (const resolve of waiters.get(id) ?? []) resolve(row)
    waiters.delete(id)
  }

  const prune = () => {
    try {
      pruneTerminalJobs(db, KEEP_TERMINAL_JOBS)
    } catch (error) {
      log.warn('old jobs not pruned', { error: messageOf(error) })
    }
  }

  const pump = (lane: Lane<NameOf<M>>) => {
    const kind = kinds[lane.kind]
    if (!kind || stopped) return
    while (lane.pending.length > 0 && lane.running < kind.concurrency) {
      const id = lane.pending.shift()!
      lane.running++
      void execute(kind, id).finally(() => {
        lane.running--
        pump(lane)
      })
    }
  }

  const execute = async <A>(kind: JobKind<A>, id: number) => {
    const row = queued.get(id)
    if (!row) return
    queued.delete(id)
    const job: RunningJob = {
      row: { ...row, state: 'active', startedAt: Date.now() },
      abort: new AbortController(),
    }
    live.set(id, job)
    const end = await runJob(kind, job, { states, events })
    live.delete(id)
    settle(id, { ...job.row, ...end })
    if (++finishedSincePrune >= PRUNE_EVERY) {
      finishedSincePrune = 0
      prune()
    }
  }

  const findRunningTwin = (uniqueKey: string, mergeActive: boolean): number | undefined => {
    for (const row of queued.values()) if (row.uniqueKey === uniqueKey) return row.id
    if (mergeActive)
      for (const entry of live.values()) if (entry.row.uniqueKey === uniqueKey) return entry.row.id
    return undefined
  }

  const schedule = (kind: NameOf<M>, row: JobRow): Lane<NameOf<M>> => {
    queued.set(row.id, row)
    let lane = lanes.get(row.name)
    if (!lane) lanes.set(row.name, (lane = { kind, pending: [], running: 0 }))
    lane.pending.push(row.id)
    // Higher priority first, then first come first served.
    if (row.priority)
      lane.pending.sort(
        (a, b) => (queued.get(b)?.priority ?? 0) - (queued.get(a)?.priority ?? 0) || a - b,
      )
    return lane
  }

  return {
    register(factories, deps) {
      for (const name in factories) kinds[name] = factories[name](deps)
    },
    enqueue(kindName, args, options = {}) {
      const kind = kinds[kindName]
      // Only a queue used before register gets here: names are checked when compiled.
      if (!kind) throw fail.internal(`unknown job kind ${kindName}`)
      const uniqueKey = kind.uniqueKey?.(args) ?? null
      if (uniqueKey) {
        const twin = findRunningTwin(uniqueKey, kind.mergeActive !== false)
        if (twin !== undefined) return twin
      }
      const row = insert(kindName, args, uniqueKey, options.priority ?? 0)
      // The database took a write: a good moment for the ones it refused before.
      states.retry()
      const lane = schedule(kindName, row)
      events?.publish({
        type: 'job.progress',
        id: row.id,
        name: row.name,
        state: 'queued',
        progress: row.progress,
      })
      queueMicrotask(() => pump(lane))
      return row.id
    },
    get(id) {
      return current(id)
    },
    list() {
      return listJobs(db).map(
        (row) => live.get(row.id)?.row ?? { ...row, ...states.unsavedOf(row.id) },
      )
    },
    clear(id) {
      const row = current(id)
      if (!row) throw fail.not_found(`No job with id ${id}.`)
      if (row.state === 'queued' || row.state === 'active')
        throw fail.conflict(`Job ${id} is still ${row.state}.`)
      deleteJob(db, id)
      states.forget(id)
    },
    clearInState(state) {
      let deleted = deleteJobsInState(db, state)
      // Jobs that ended while their end could not be written are terminal all the same.
      for (const id of states.unsavedIds()) {
        if (states.unsavedOf(id)?.state !== state) continue
        deleteJob(db, id)
        states.forget(id)
        deleted++
      }
      return deleted
    },
    waitFor(id) {
      const row = current(id)
      if (!row) return Promise.reject(fail.not_found(`No job with id ${id}.`))
      if (row.state === 'finished' || row.state === 'failed') return Promise.resolve(row)
      return new Promise((resolve) => {
        waiters.set(id, [...(waiters.get(id) ?? []), resolve])
      })
    },
    recover() {
      prune()
      for (const row of listJobsInState(db, 'active')) {
        states.write(row.id, { state: 'failed', error: INTERRUPTED, finishedAt: Date.now() })
        const kindName = kindOf(row)
        const kind = kindName === undefined ? undefined : kinds[kindName]
        const again = kind?.resumeInterrupted?.(JSON.parse(row.args))
        if (kindName !== undefined && again) {
          const uniqueKey = kind!.uniqueKey?.(again) ?? null
          const resumed = insert(kindName, again, uniqueKey, row.priority)
          log.warn('queued again after an interruption', { job: row.id, as: resumed.id })
        }
      }
      for (const row of listJobsInState(db, 'queued')) {
        const kind = kindOf(row)
        if (kind !== undefined) schedule(kind, row)
      }
      for (const lane of lanes.values()) pump(lane)
    },
    async stop() {
      stopped = true
      for (const entry of live.values()) entry.abort.abort()
      const deadline = Date.now() + 5000
      while (live.size > 0 && Date.now() < deadline) await Bun.sleep(10)
      states.stop()
    },
  }
}

export type { JobRow, JobState }
