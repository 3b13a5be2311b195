// `find_duplicates`: the perceptual duplicate scan (domain/duplicates/scan.ts), one at a time.
import type { ThumbnailDeps } from '../../domain/archives/thumbnails.ts'
import { defineJob, type NoArgs } from '../define-job.ts'
import { findDuplicates } from '../../domain/duplicates/scan.ts'
import { publicReason } from '../public-reason.ts'

export const findDuplicatesJob = (deps: ThumbnailDeps) =>
  defineJob<NoArgs>({
    concurrency: 1,
    // A scan asked for while one is queued is the same scan; a running one may have passed
    // archives added since, so it does not absorb the new request.
    uniqueKey: () => 'find_duplicates',
    mergeActive: false,
    async run(ctx) {
      const outcome = await findDuplicates(deps, {
        progress: (fraction, notes) => ctx.progress(fraction, notes),
        signal: ctx.signal,
        jobId: ctx.jobId,
      })
      for (const failure of outcome.failed)
        ctx.log.warn('archive not hashed', { job: ctx.jobId, ...failure })
      // The result is readable by guests: reasons without server paths.
      return {
        ...outcome,
        failed: outcome.failed.map((f) => ({ ...f, error: publicReason(f.error, deps.config) })),
      }
    },
  })
