// `thumbnails`: covers (page 0) or page thumbnails of the given archives, two in flight.
// `regen_thumbs`: covers of every archive, all of them (force) or only the missing ones.
import type { ThumbnailDeps } from '../../domain/archives/thumbnails.ts'
import { findArchive, listLinkedArchiveIds } from '../../db/repos/archives.repo.ts'
import { defineJob, type JobContext } from '../define-job.ts'
import {
  findThumbnailFile,
  makeThumbnail,
  rememberThumbnailFailure,
} from '../../domain/archives/thumbnails.ts'
import { AppError } from '../../errors.ts'
import { messageOf, publicReason } from '../public-reason.ts'
import { eachLimited } from '../../model/each-limited.ts'

/** sharp gains from two operations in flight on two cores. */
const IN_FLIGHT = 2

export type ThumbnailArgs = {
  ids?: string[]
  /** 0 = cover (default); N = page N; 'all' = every page of each archive. */
  page?: number | 'all'
  force?: boolean
}

export type RegenThumbsArgs = { force?: boolean }

type Task = { id: string; page: number }

/** Failures of the page itself (undecodable, refused, missing), not of the machine. */
const PAGE_FAILURES = new Set(['unprocessable', 'bad_request'])

async function runTasks(
  deps: ThumbnailDeps,
  ctx: JobContext,
  tasks: Task[],
  force: boolean,
  single = false,
) {
  let done = 0
  let made = 0
  const failed: { id: string; page: number; error: string }[] = []
  // Tasks whose thumbnail exists await nothing: eachLimited gives the event loop its turns.
  await eachLimited(
    tasks,
    IN_FLIGHT,
    async (task) => {
      const row = findArchive(deps.db, task.id)
      if (row && !row.unlinked && (force || !findThumbnailFile(deps, task.id, task.page))) {
        try {
          await makeThumbnail(deps, row, task.page)
          made++
        } catch (error) {
          // A page that cannot be made into a thumbnail as it is stays so: remembered, so asking
          // again answers this job (only for a job of that one thumbnail, which carries the reason).
          if (single && error instanceof AppError && PAGE_FAILURES.has(error.code))
            rememberThumbnailFailure(deps, row, task.page, ctx.jobId!)
          // The result is readable by guests: the reason without server paths; the log has all.
          const message = messageOf(error)
          failed.push({ id: task.id, page: task.page, error: publicReason(message, deps.config) })
          ctx.log.warn('thumbnail failed', {
            job: ctx.jobId,
            id: task.id,
            page: task.page,
            error: message,
          })
        }
      }
      done++
      ctx.progress(done / Math.max(1, tasks.length), {
        progress: done,
        pages: tasks.length,
        total: tasks.length,
      })
    },
    ctx.signal,
  )
  return { total: tasks.length, made, failed }
}

export const thumbnailsJob = (deps: ThumbnailDeps) =>
  defineJob<ThumbnailArgs>({
    // Covers requested by a grid of new archives arrive as many one-task jobs: run two at once.
    concurrency: 2,
    uniqueKey: (args) => `thumbnails:${JSON.stringify(args)}`,
    async run(ctx, args) {
      const ids = args.ids ?? listLinkedArchiveIds(deps.db)
      const tasks: Task[] = []
      for (const id of ids) {
        if (args.page === 'all') {
          const count = findArchive(deps.db, id)?.pagecount ?? 0
          for (let page = 1; page <= count; page++) tasks.push({ id, page })
        } else tasks.push({ id, page: args.page ?? 0 })
      }
      // A job for one thumbnail (GET thumbnail's 202) fails with its reason, so a client polling
      // the job stops instead of asking again; bigger jobs list failures in their result.
      const single = args.ids?.length === 1 && args.page !== 'all'
      const outcome = await runTasks(deps, ctx, tasks, args.force ?? false, single)
      if (single && outcome.failed.length === 1) throw new Error(outcome.failed[0]!.error)
      return outcome
    },
  })

export const regenThumbsJob = (deps: ThumbnailDeps) =>
  defineJob<RegenThumbsArgs>({
    concurrency: 1,
    uniqueKey: (args) => `regen_thumbs:${args.force ? 1 : 0}`,
    async run(ctx, args) {
      const tasks = listLinkedArchiveIds(deps.db).map((id) => ({ id, page: 0 }))
      return runTasks(deps, ctx, tasks, args.force ?? false)
    },
  })
