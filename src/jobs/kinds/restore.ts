// `restore`: an uploaded backup document written into the library, a slice at a time.
import type { Deps } from '../../deps.ts'
import { defineJob } from '../define-job.ts'
import { restoreBackupUpload } from '../../domain/database/restore.ts'

export const restoreJob = (deps: Deps) =>
  defineJob<{ upload: string }>({
    // One at a time: two restores interleaved would each overwrite half of the other.
    concurrency: 1,
    async run(ctx, args) {
      const result = await restoreBackupUpload(deps, args.upload, (done) => ctx.progress(done))
      return result
    },
  })
