// `backup`: the backup document written to data/backups for GET /api/database/backup/{jobid}.
import type { Deps } from '../../deps.ts'
import { defineJob, type NoArgs } from '../define-job.ts'
import { buildBackupDocument, countRecords } from '../../domain/database/backup-document.ts'
import { writeBackupJobFile } from '../../domain/database/backup-files.ts'

export const backupJob = (deps: Pick<Deps, 'config' | 'db'>) =>
  defineJob<NoArgs>({
    concurrency: 1,
    async run(ctx) {
      const doc = buildBackupDocument(deps.db)
      ctx.progress(0.5, countRecords(doc))
      const bytes = await writeBackupJobFile(deps, ctx.jobId, doc)
      ctx.progress(1)
      return { ...countRecords(doc), bytes }
    },
  })
