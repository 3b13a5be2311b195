// `import_legacy`: a LANraragi backup imported beside the library, after a snapshot of it.
import type { Deps } from '../../deps.ts'
import { defineJob } from '../define-job.ts'
import { importLegacyUpload, type LegacyImportArgs } from '../../domain/database/import-legacy.ts'

export const importLegacyJob = (deps: Pick<Deps, 'config' | 'db' | 'events' | 'settings'>) =>
  defineJob<LegacyImportArgs>({
    concurrency: 1,
    async run(ctx, args) {
      const result = await importLegacyUpload(deps, ctx.jobId, args)
      ctx.progress(1)
      return result
    },
  })
