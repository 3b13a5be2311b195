// `rescan`: one pass of the content folder, then covers for what it added.
import type { Deps } from '../../deps.ts'
import { defineJob } from '../queue.ts'
import { scanContentFolder } from '../../domain/archives/scan.ts'
import { createLogger } from '../../log.ts'

const log = createLogger('scan')

export const rescanJob = (deps: Deps) =>
  defineJob<Record<string, never>>({
    name: 'rescan',
    concurrency: 1,
    uniqueKey: () => 'rescan',
    mergeActive: false,
    async run(ctx) {
      const result = await scanContentFolder(deps, ctx)
      for (const dup of result.duplicates)
        log.warn('duplicate archive file not catalogued', { path: dup.path, existing_id: dup.existing_id })
      for (const bad of result.unreadable) log.warn('unreadable archive', { path: bad.path, reason: bad.reason })
      if (result.added + result.moved + result.updated > 0) deps.jobs.enqueue('regen_thumbs', { force: false })
      return result
    },
  })
