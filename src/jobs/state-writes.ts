// Job state on its way to SQLite, for the queue (src/jobs/queue.ts decides every state; this
// only stores it). A write the database refuses (a full disk) is held in memory, shown to
// clients in place of the stale row, and written again with backoff and at the next queue
// activity, so a job never stays queued or active in the database because one write failed.
import type { Db } from '../db/client.ts'
import { updateJob, type JobRow } from '../db/repos/jobs.repo.ts'
import { createLogger } from '../log.ts'
import { messageOf } from './public-reason.ts'

/** A refused write is tried again after this, doubling up to MAX_RETRY_MS between tries. */
const FIRST_RETRY_MS = 250
const MAX_RETRY_MS = 30_000

export type JobPatch = Partial<Omit<JobRow, 'id'>>

export type StateWrites = {
  /** Writes the patch (with any earlier refused fields); never throws. */
  write(id: number, patch: JobPatch): void
  /** Tries every held write again now. */
  retry(): void
  /** The fields of a job the database has not taken yet. */
  unsavedOf(id: number): JobPatch | undefined
  /** Ids of jobs with held writes. */
  unsavedIds(): number[]
  /** Drops what is held for a deleted job. */
  forget(id: number): void
  /** A last try, then no more timers (the database is about to close). */
  stop(): void
}

export function createStateWrites(db: Db): StateWrites {
  const log = createLogger('jobs')
  const unsaved = new Map<number, JobPatch>()
  let timer: ReturnType<typeof setTimeout> | null = null
  let delay = FIRST_RETRY_MS
  let stopped = false

  const retry = (): void => {
    for (const [id, patch] of [...unsaved]) {
      try {
        updateJob(db, id, patch)
        unsaved.delete(id)
        log.info('job state saved after a failed write', { id })
      } catch (error) {
        log.debug('job state still not saved', { id, error: messageOf(error) })
      }
    }
    if (unsaved.size === 0) delay = FIRST_RETRY_MS
  }

  const schedule = (): void => {
    if (timer || stopped) return
    timer = setTimeout(() => {
      timer = null
      retry()
      if (unsaved.size === 0) return
      delay = Math.min(delay * 2, MAX_RETRY_MS)
      schedule()
    }, delay)
    // A pending retry never keeps the process alive.
    timer.unref?.()
  }

  return {
    write(id, patch) {
      // Earlier refused fields go along, so an older state never lands after a newer one.
      const merged = { ...unsaved.get(id), ...patch }
      try {
        updateJob(db, id, merged)
        unsaved.delete(id)
      } catch (error) {
        if (!unsaved.has(id))
          log.warn('job state not saved; kept in memory and retried', {
            id,
            error: messageOf(error),
          })
        unsaved.set(id, merged)
        schedule()
      }
    },
    retry() {
      if (unsaved.size > 0) retry()
    },
    unsavedOf: (id) => unsaved.get(id),
    unsavedIds: () => [...unsaved.keys()],
    forget(id) {
      unsaved.delete(id)
    },
    stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      timer = null
      retry()
      if (unsaved.size > 0)
        log.error('job states not saved at shutdown', { ids: [...unsaved.keys()] })
    },
  }
}
