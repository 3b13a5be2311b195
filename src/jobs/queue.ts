// The background job runner and the only writer of job state: queued -> active -> finished|failed.
// Jobs are rows in SQLite so clients can poll them; live progress is held in memory and written
// through at most every PROGRESS_WRITE_MS so a busy job does not hammer the database. What runs
// is known in memory: a state write the database refuses (state-writes.ts) never strands a job.
import type { Db } from '../db/client.ts'
import {
  deleteJob,
  deleteJobsInState,
  findJob,
  insertJob,
  listJobs,
  listJobsInState,
  pruneTerminalJobs,
  updateJob,
  type JobRow,
  type JobState,
} from '../db/repos/jobs.repo.ts'
import { fail } from '../errors.ts'
import { createLogger, type Logger } from '../log.ts'
import { messageOf, publicReason } from './public-reason.ts'
import { createStateWrites, type JobPatch } from './state-writes.ts'

const PROGRESS_WRITE_MS = 500
/** The error of a job the server stopped (shutdown, or a crash found at the next start). */
const INTERRUPTED = 'Interrupted: the server stopped while this job was running.'

/** Terminal jobs kept for clients to read; older ones are pruned as new ones finish. */
export const KEEP_TERMINAL_JOBS = 2000
const PRUNE_EVERY = 200
/** Results larger than this (JSON bytes) are cut and flagged result_truncated. */
export const MAX_RESULT_BYTES = 256 * 1024

export type JobContext = {
  jobId: number
  /** Best-effort progress 0..1, with optional notes (LANraragi clients read notes.progress). */
  progress(fraction: number, notes?: Record<string, unknown>): void
  /** Transfer fields of download jobs. */
  transfer(fields: {
    downloadedBytes?: number
    totalBytes?: number
    rateLimitBytesPerSec?: number
    rateLimitMatchedPattern?: string
  }): void
  signal: AbortSignal
  log: Logger
}

export type JobKind<A = any> = {
  name: string
  /** How many jobs of this kind run at once. */
  concurrency: number
  /** Jobs with the same key while one is queued or active are merged into it. */
  uniqueKey?: (args: A) => string | null
  /** False: only a queued twin absorbs a new job (a running scan may already have missed the change). */
  mergeActive?: boolean
  run(ctx: JobContext, args: A): Promise<unknown>
}

export function defineJob<A>(kind: JobKind<A>): JobKind<A> {
  return kind
}

export type JobQueue = {
  register(kind: JobKind): void
  /** Queues a job and returns its id; an equal live job (same uniqueKey) is returned instead. */
  enqueue(name: string, args?: unknown, options?: { priority?: number }): number
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

type Live = { row: JobRow; lastWrite: number; abort: AbortController }

export function createJobQueue(db: Db): JobQueue {
  const log = createLogger('jobs')
  const kinds = new Map<string, JobKind>()
  const pending = new Map<string, number[]>()
  const running = new Map<string, number>()
  // What this process really runs: a row the database calls queued or active but that is in
  // neither map (its end not yet written, another process) never absorbs a new job.
  const queued = new Map<number, JobRow>()
  const live = new Map<number, Live>()
  const waiters = new Map<number, ((row: JobRow) => void)[]>()
  const states = createStateWrites(db)
  let stopped = false
  let finishedSincePrune = 0

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

  const pump = (name: string) => {
    const kind = kinds.get(name)
    if (!kind || stopped) return
    const queue = pending.get(name) ?? []
    while (queue.length > 0 && (running.get(name) ?? 0) < kind.concurrency) {
      const id = queue.shift()!
      running.set(name, (running.get(name) ?? 0) + 1)
      void execute(kind, id).finally(() => {
        running.set(name, (running.get(name) ?? 1) - 1)
        pump(name)
      })
    }
  }

  const execute = async (kind: JobKind, id: number) => {
    const row = queued.get(id)
    if (!row) return
    queued.delete(id)
    const startedAt = Date.now()
    const abort = new AbortController()
    const entry: Live = { row: { ...row, state: 'active', startedAt }, lastWrite: 0, abort }
    live.set(id, entry)
    // A start that cannot be written does not stop the job: its end is written when possible.
    states.write(id, { state: 'active', startedAt })
    const transferFields = (): JobPatch => {
      const r = entry.row
      return {
        progress: r.progress,
        notes: r.notes,
        downloadedBytes: r.downloadedBytes,
        totalBytes: r.totalBytes,
        rateLimitBytesPerSec: r.rateLimitBytesPerSec,
        rateLimitMatchedPattern: r.rateLimitMatchedPattern,
      }
    }
    const flush = () => {
      const now = Date.now()
      if (now - entry.lastWrite < PROGRESS_WRITE_MS) return
      entry.lastWrite = now
      states.write(id, transferFields())
    }
    const ctx: JobContext = {
      jobId: id,
      progress(fraction, notes) {
        entry.row.progress = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0))
        if (notes) entry.row.notes = JSON.stringify({ ...JSON.parse(entry.row.notes), ...notes })
        flush()
      },
      transfer(fields) {
        if (fields.downloadedBytes !== undefined) entry.row.downloadedBytes = fields.downloadedBytes
        if (fields.totalBytes !== undefined) entry.row.totalBytes = fields.totalBytes
        if (fields.rateLimitBytesPerSec !== undefined)
          entry.row.rateLimitBytesPerSec = fields.rateLimitBytesPerSec
        if (fields.rateLimitMatchedPattern !== undefined)
          entry.row.rateLimitMatchedPattern = fields.rateLimitMatchedPattern
        flush()
      },
      signal: abort.signal,
      log: createLogger(`job:${kind.name}`),
    }
    let end: JobPatch
    try {
      const result = await kind.run(ctx, JSON.parse(row.args))
      // A job stopped by the server's shutdown returns what it had done so far: not a result.
      if (abort.signal.aborted) throw fail.internal(INTERRUPTED)
      const { json, truncated } = encodeResult(result)
      end = {
        ...transferFields(),
        state: 'finished',
        progress: 1,
        result: json,
        resultTruncated: truncated,
        finishedAt: Date.now(),
      }
    } catch (error) {
      const message = messageOf(error)
      // The whole message (paths included) is for the admin; clients get it without paths.
      log.warn('job failed', { id, name: kind.name, error: message })
      const shown = abort.signal.aborted ? INTERRUPTED : publicReason(message).trim()
      end = {
        ...transferFields(),
        state: 'failed',
        error: shown || 'failed',
        finishedAt: Date.now(),
      }
    }
    states.write(id, end)
    states.retry()
    live.delete(id)
    settle(id, { ...entry.row, ...end })
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

  const schedule = (row: JobRow) => {
    queued.set(row.id, row)
    const queue = pending.get(row.name) ?? []
    queue.push(row.id)
    // Higher priority first, then first come first served.
    if (row.priority)
      queue.sort((a, b) => (queued.get(b)?.priority ?? 0) - (queued.get(a)?.priority ?? 0) || a - b)
    pending.set(row.name, queue)
  }

  return {
    register(kind) {
      kinds.set(kind.name, kind)
    },
    enqueue(name, args = {}, options = {}) {
      const kind = kinds.get(name)
      if (!kind) throw fail.internal(`unknown job kind ${name}`)
      const uniqueKey = kind.uniqueKey?.(args) ?? null
      if (uniqueKey) {
        const twin = findRunningTwin(uniqueKey, kind.mergeActive !== false)
        if (twin !== undefined) return twin
      }
      const row = insertJob(db, { name, args, uniqueKey, priority: options.priority ?? 0 })
      // The database took a write: a good moment for the ones it refused before.
      states.retry()
      schedule(row)
      queueMicrotask(() => pump(name))
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
      for (const row of listJobsInState(db, 'active'))
        states.write(row.id, { state: 'failed', error: INTERRUPTED, finishedAt: Date.now() })
      for (const row of listJobsInState(db, 'queued')) if (kinds.has(row.name)) schedule(row)
      for (const name of pending.keys()) pump(name)
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

function encodeResult(result: unknown): { json: string | null; truncated: boolean } {
  if (result === undefined) return { json: null, truncated: false }
  const json = JSON.stringify(result)
  if (json.length <= MAX_RESULT_BYTES) return { json, truncated: false }
  if (Array.isArray(result)) {
    // Keep the head of a list: the most useful part of a long result.
    let keep = Math.floor((result.length * MAX_RESULT_BYTES) / json.length)
    while (keep > 0 && JSON.stringify(result.slice(0, keep)).length > MAX_RESULT_BYTES) keep--
    return { json: JSON.stringify(result.slice(0, keep)), truncated: true }
  }
  return { json: null, truncated: true }
}

export type { JobRow, JobState }
