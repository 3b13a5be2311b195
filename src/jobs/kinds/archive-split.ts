// `archive_split`: writes a split's outputs (domain/split/execute.ts) and tells the split stream
// how it goes through split.* events; the job row keeps the last progress (notes) and the new
// archives (result) for a stream opened after the job ended.
import { defineJob } from '../define-job.ts'
import { messageOf, publicReason } from '../public-reason.ts'
import {
  executeSplit,
  splitJobKey,
  type SplitRequest,
  type SplitWriteDeps,
} from '../../domain/split/execute.ts'

export const archiveSplitJob = (deps: SplitWriteDeps) =>
  defineJob<SplitRequest>({
    concurrency: 1,
    // One split of an archive at a time (execute answers 409 while one is queued or running).
    uniqueKey: (args) => splitJobKey(args.id),
    async run(ctx, args) {
      let lastShare = -1
      try {
        const archives = await executeSplit(
          deps,
          args,
          (p) => {
            const notes = {
              output_index: p.outputIndex,
              outputs: p.outputs,
              pages_done: p.pagesDone,
              pages: p.pages,
            }
            // The job row is written at most once per percent; the stream hears every page.
            const share = p.pages === 0 ? 1 : Math.floor((p.pagesDone / p.pages) * 100)
            if (share !== lastShare) ctx.progress(share / 100, notes)
            lastShare = share
            deps.events.publish({ type: 'split.progress', id: args.id, job: ctx.jobId, ...p })
          },
          ctx.signal,
        )
        deps.events.publish({ type: 'split.done', id: args.id, job: ctx.jobId, archives })
        return { archives }
      } catch (error) {
        const reason = publicReason(messageOf(error), { contentDir: deps.config.contentDir })
        deps.events.publish({ type: 'split.failed', id: args.id, job: ctx.jobId, error: reason })
        throw error
      }
    },
  })
