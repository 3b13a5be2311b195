// Archive splitting: the tree, suggestions, the archive_split job and its crash recovery.
import { log } from './log.ts'
import type { Area } from './area.ts'
import type { SplitRequest } from '../domain/split/execute.ts'
import { splitPolicy, splitRoutes } from '../http/routes/split.ts'
import { archiveSplitJob } from '../jobs/kinds/archive-split.ts'
import { recoverInterruptedSplits } from '../domain/split/journal.ts'
import { removeInterruptedSplits } from '../domain/split/source.ts'

type SplitJobArgs = { archive_split: SplitRequest }

export const splitArea: Area<'split', undefined, SplitJobArgs> = {
  name: 'split',
  jobs: { archive_split: archiveSplitJob },
  recover: async (deps) => {
    // Before jobs resume and the first scan: splits a crash cut short are undone (or completed).
    const splits = await recoverInterruptedSplits(deps)
    if (splits > 0) log.warn('settled splits interrupted by the last stop', { count: splits })
    const removed = await removeInterruptedSplits(deps.config)
    if (removed > 0) log.warn('removed files left by interrupted splits', { count: removed })
  },
  routes: [{ routes: splitRoutes, policy: splitPolicy }],
}
