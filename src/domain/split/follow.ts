// Following a split for the progress stream: live split.* events of the archive's latest
// archive_split job, or, when that job has already ended, its last progress and outcome replayed
// from the job row, so a client that connects late still sees progress, then done (or error).
import type { Deps } from '../../deps.ts'
import type { JobRow } from '../../db/repos/jobs.repo.ts'
import { fail } from '../../errors.ts'
import { parseArchiveId } from '../../model/ids.ts'
import type { SplitProgress } from './execute.ts'

export type SplitUpdate =
  | { kind: 'progress'; progress: SplitProgress }
  | { kind: 'done'; archives: string[] }
  | { kind: 'error'; error: string }

const parse = (text: string | null): Record<string, unknown> => {
  const value: unknown = text ? JSON.parse(text) : {}
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : {}
}

/** The newest archive_split job of the archive; 404 when it was never split (or long ago). */
export function latestSplitJob(deps: Pick<Deps, 'jobs'>, rawId: string): JobRow {
  const id = parseArchiveId(rawId)
  const job = deps.jobs
    .list()
    .find((row) => row.name === 'archive_split' && parse(row.args).id === id)
  if (!job) throw fail.not_found(`No split of archive ${id} was started.`)
  return job
}

function progressOf(job: JobRow): SplitProgress | null {
  const notes = parse(job.notes)
  const [outputIndex, outputs, pagesDone, pages] = [
    notes.output_index,
    notes.outputs,
    notes.pages_done,
    notes.pages,
  ]
  if (
    typeof outputIndex !== 'number' ||
    typeof outputs !== 'number' ||
    typeof pagesDone !== 'number' ||
    typeof pages !== 'number'
  )
    return null
  return { outputIndex, outputs, pagesDone, pages }
}

/**
 * Calls `update` with the split's updates until it ends (`end` then runs once). Answers the
 * unsubscribe, for a client that leaves first.
 */
export function followSplit(
  deps: Pick<Deps, 'events' | 'jobs'>,
  rawId: string,
  update: (update: SplitUpdate) => void,
  end: () => void,
): () => void {
  const first = latestSplitJob(deps, rawId)
  const id = first.id
  let ended = false
  const stop = () => {
    for (const unsubscribe of subscriptions) unsubscribe()
  }
  const finish = (last: SplitUpdate) => {
    if (ended) return
    ended = true
    stop()
    update(last)
    end()
  }
  // Subscribed before the row is read: an end between the two is heard, not missed.
  const subscriptions = [
    deps.events.subscribe('split.progress', (e) => {
      if (e.job === id && !ended) update({ kind: 'progress', progress: e })
    }),
    deps.events.subscribe('split.done', (e) => {
      if (e.job === id) finish({ kind: 'done', archives: e.archives })
    }),
    deps.events.subscribe('split.failed', (e) => {
      if (e.job === id) finish({ kind: 'error', error: e.error })
    }),
  ]
  const job = deps.jobs.get(id) ?? first
  const progress = progressOf(job)
  if (progress && !ended) update({ kind: 'progress', progress })
  if (job.state === 'finished') {
    const archives = parse(job.result).archives
    finish({ kind: 'done', archives: Array.isArray(archives) ? (archives as string[]) : [] })
  } else if (job.state === 'failed') {
    finish({ kind: 'error', error: job.error ?? 'The split failed.' })
  }
  return stop
}
