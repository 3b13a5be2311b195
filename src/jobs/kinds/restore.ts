// `restore`: an uploaded backup document written into the library, a slice at a time.
import type { Deps } from '../../deps.ts'
import { defineJob } from '../define-job.ts'
import { restoreBackupUpload } from '../../domain/database/restore.ts'

/** Starts of one restore that a crash or stop may cut before it is given up. */
const MAX_RESTORE_ATTEMPTS = 3

export type RestoreArgs = { upload: string; attempt?: number }

export const restoreJob = (deps: Pick<Deps, 'config' | 'db' | 'events'>) =>
  defineJob<RestoreArgs>({
    // One at a time: two restores interleaved would each overwrite half of the other.
    concurrency: 1,
    // A big document is written in slices (restore-slices.ts), so one cut short leaves the first
    // slices written. Its upload is removed only when a run ends, so the next start writes the
    // same document again, whole (a restore overwrites, so the slices already written are
    // unchanged): the library is never left half restored.
    resumeInterrupted: (args) => {
      const attempt = (args.attempt ?? 1) + 1
      return attempt <= MAX_RESTORE_ATTEMPTS ? { upload: args.upload, attempt } : null
    },
    async run(ctx, args) {
      const result = await restoreBackupUpload(deps, args.upload, (done) => ctx.progress(done))
      return result
    },
  })
