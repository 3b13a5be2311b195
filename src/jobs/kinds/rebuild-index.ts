// The rebuild_index job kind: rebuilds the search index from the database in one go.
import type { Deps } from '../../deps.ts'
import { defineJob, type NoArgs } from '../define-job.ts'

export function rebuildIndexJob(deps: Pick<Deps, 'search'>) {
  return defineJob<NoArgs>({
    concurrency: 1,
    // A rebuild asked for while one is queued or running is the same rebuild.
    uniqueKey: () => 'rebuild_index',
    async run(ctx) {
      const started = performance.now()
      await deps.search.build()
      ctx.progress(1)
      return { elapsed_ms: Math.round(performance.now() - started) }
    },
  })
}
