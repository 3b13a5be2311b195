// The background job runner and the only writer of job state: queued -> active -> finished|failed.
// Jobs are rows in SQLite so clients can poll them; live progress is held in memory and written
// through at most every PROGRESS_WRITE_MS so a busy job does not hammer the database.
import type { Db } from '../db/client.ts'
import {
  deleteJob,
  deleteJobsInState,
  findJob,
  findLiveJobByKey,
  insertJob,
  listJobs,
  listJobsInState,
  pruneTerminalJobs,
  updateJob,
  type JobRow,
  type JobState,
} from '../db/repos/jobs.repo.ts'
import { AppError, fail } from '../errors.ts'
import { createLogger, type Logger } from '../log.ts'

const PROGRESS_WRITE_MS = 500
/** The error of a job the server stopped (shutdown, or a crash found at the next start). */
const INTERRUPTED = 'Interrupted: the server stopped while this job was running.'

/** Terminal jobs kept for clients to read; older ones are pruned as new ones finish. */
export const KEEP_TERMINAL_JOBS = 2000
const PRUNE_EVERY = 200
/** Results larger than this (JSON bytes) are cut and flagged result_truncated. */
export const MAX_RESULT_BYTES = 256 * 1024

/**
 * Clients read job errors: a system error's quoted absolute paths ("ENOENT: ..., open '/srv/x'")
 * are cut to their last segment. The log keeps the whole message.
 */
function withoutServerPaths(message: string): string {
  return message.replace(/'\/[^']*'/g, (quoted) => `'${quoted.slice(1, -1).split('/').pop()}'`)
}

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

type Live = { row: JobRow; lastWrite: number; abort: AbortController; done: Promise<void> }

export function createJobQueue(db: Db): JobQueue {
  const log = createLogger('jobs')
  const kinds = new Map<string, JobKind>()
  const pending = new Map<string, number[]>()
  const running = new Map<string, number>()
  const live = new Map<number, Live>()
  const waiters = new Map<number, ((row: JobRow) => void)[]>()
  let stopped = false
  let finishedSincePrune = 0

  const settle = (id: number) => {
    const row = findJob(db, id)
    if (!row) return
    for (const resolve of waiters.get(id) ?? []) resolve(row)
    waiters.delete(id)
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
    const row = findJob(db, id)
    if (!row || row.state !== 'queued') return
    const startedAt = Date.now()
    updateJob(db, id, { state: 'active', startedAt })
    const abort = new AbortController()
    const entry: Live = {
      row: { ...row, state: 'active', startedAt },
      lastWrite: 0,
      abort,
      done: Promise.resolve(),
    }
    live.set(id, entry)
    const flush = (force: boolean) => {
      const now = Date.now()
      if (!force && now - entry.lastWrite < PROGRESS_WRITE_MS) return
      entry.lastWrite = now
      const r = entry.row
      updateJob(db, id, {
        progress: r.progress,
        notes: r.notes,
        downloadedBytes: r.downloadedBytes,
        totalBytes: r.totalBytes,
        rateLimitBytesPerSec: r.rateLimitBytesPerSec,
        rateLimitMatchedPattern: r.rateLimitMatchedPattern,
      })
    }
    const ctx: JobContext = {
      jobId: id,
      progress(fraction, notes) {
        entry.row.progress = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0))
        if (notes) entry.row.notes = JSON.stringify({ ...JSON.parse(entry.row.notes), ...notes })
        flush(false)
      },
      transfer(fields) {
        if (fields.downloadedBytes !== undefined) entry.row.downloadedBytes = fields.downloadedBytes
        if (fields.totalBytes !== undefined) entry.row.totalBytes = fields.totalBytes
        if (fields.rateLimitBytesPerSec !== undefined)
          entry.row.rateLimitBytesPerSec = fields.rateLimitBytesPerSec
        if (fields.rateLimitMatchedPattern !== undefined)
          entry.row.rateLimitMatchedPattern = fields.rateLimitMatchedPattern
        flush(false)
      },
      signal: abort.signal,
      log: createLogger(`job:${kind.name}`),
    }
    try {
      const result = await kind.run(ctx, JSON.parse(row.args))
      // A job stopped by the server's shutdown returns what it had done so far: not a result.
      if (abort.signal.aborted) throw fail.internal(INTERRUPTED)
      flush(true)
      const { json, truncated } = encodeResult(result)
      updateJob(db, id, {
        state: 'finished',
        progress: 1,
        result: json,
        resultTruncated: truncated,
        finishedAt: Date.now(),
      })
    } catch (error) {
      flush(true)
      const message = error instanceof Error ? error.message : String(error)
      log.warn('job failed', { id, name: kind.name, error: message })
      const shown = abort.signal.aborted
        ? INTERRUPTED
        : error instanceof AppError
          ? message
          : withoutServerPaths(message)
      updateJob(db, id, { state: 'failed', error: shown || 'failed', finishedAt: Date.now() })
    } finally {
      live.delete(id)
      settle(id)
      if (++finishedSincePrune >= PRUNE_EVERY) {
        finishedSincePrune = 0
        pruneTerminalJobs(db, KEEP_TERMINAL_JOBS)
      }
    }
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
        const existing = findLiveJobByKey(
          db,
          uniqueKey,
          kind.mergeActive === false ? ['queued'] : ['queued', 'active'],
        )
        if (existing) return existing.id
      }
      const row = insertJob(db, { name, args, uniqueKey, priority: options.priority ?? 0 })
      const queue = pending.get(name) ?? []
      queue.push(row.id)
      // Higher priority first, then first come first served.
      if (options.priority) {
        const prio = new Map(
          queue.map((id) => [id, id === row.id ? row.priority : (findJob(db, id)?.priority ?? 0)]),
        )
        queue.sort((a, b) => prio.get(b)! - prio.get(a)! || a - b)
      }
      pending.set(name, queue)
      queueMicrotask(() => pump(name))
      return row.id
    },
    get(id) {
      return live.get(id)?.row ?? findJob(db, id)
    },
    list() {
      return listJobs(db).map((row) => live.get(row.id)?.row ?? row)
    },
    clear(id) {
      const row = findJob(db, id)
      if (!row) throw fail.not_found(`No job with id ${id}.`)
      if (row.state === 'queued' || row.state === 'active')
        throw fail.conflict(`Job ${id} is still ${row.state}.`)
      deleteJob(db, id)
    },
    clearInState(state) {
      return deleteJobsInState(db, state)
    },
    waitFor(id) {
      const row = findJob(db, id)
      if (!row) return Promise.reject(fail.not_found(`No job with id ${id}.`))
      if (row.state === 'finished' || row.state === 'failed') return Promise.resolve(row)
      return new Promise((resolve) => {
        waiters.set(id, [...(waiters.get(id) ?? []), resolve])
      })
    },
    recover() {
      pruneTerminalJobs(db, KEEP_TERMINAL_JOBS)
      for (const row of listJobsInState(db, 'active')) {
        updateJob(db, row.id, {
          state: 'failed',
          error: INTERRUPTED,
          finishedAt: Date.now(),
        })
      }
      for (const row of listJobsInState(db, 'queued')) {
        if (!kinds.has(row.name)) continue
        pending.set(row.name, [...(pending.get(row.name) ?? []), row.id])
      }
      for (const name of pending.keys()) pump(name)
    },
    async stop() {
      stopped = true
      for (const entry of live.values()) entry.abort.abort()
      const deadline = Date.now() + 5000
      while (live.size > 0 && Date.now() < deadline) await Bun.sleep(10)
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
