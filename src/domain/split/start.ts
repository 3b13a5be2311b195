// Starting a split (POST split/execute): the outputs (the caller's, else the current suggestion)
// are checked against the archive now, so a bad request is a 400 rather than a failed job; the
// job checks them again against the file as it is when it runs.
import type { Deps } from '../../deps.ts'
import { fail } from '../../errors.ts'
import { requireArchive } from '../archives/lookup.ts'
import { assertOriginalCarried, checkOutputs, type SplitOutput } from './plan.ts'
import { readSplitSource } from './source.ts'
import { currentSplitSuggestion } from './suggest.ts'
import { splitJobKey } from './execute.ts'

export type SplitOptions = { outputs?: SplitOutput[]; deleteOriginal?: boolean }

function liveSplitJob(deps: Pick<Deps, 'jobs'>, id: string): number | undefined {
  return deps.jobs
    .list()
    .find(
      (job) =>
        job.name === 'archive_split' &&
        (job.state === 'queued' || job.state === 'active') &&
        job.uniqueKey === splitJobKey(id),
    )?.id
}

/** Queues the archive_split job; answers its id. */
export async function startSplit(
  deps: Pick<Deps, 'config' | 'db' | 'jobs' | 'locks' | 'reader' | 'search' | 'searchState'>,
  rawId: string,
  options: SplitOptions,
): Promise<number> {
  const archive = requireArchive(deps, rawId)
  const running = liveSplitJob(deps, archive.id)
  // Merged by the job's unique key otherwise, this request's outputs would be silently dropped.
  if (running !== undefined)
    throw fail.conflict('A split of this archive is already queued or running.', { job: running })
  if (deps.locks.isLocked(archive.id)) throw fail.locked('Locked: this archive is being modified.')
  const asked = options.outputs ?? (await currentSplitSuggestion(deps, archive.id)).outputs
  const deleteOriginal = options.deleteOriginal === true
  const source = await readSplitSource(deps, archive)
  try {
    const outputs = checkOutputs(source, asked)
    if (deleteOriginal) assertOriginalCarried(source, outputs)
    return deps.jobs.enqueue('archive_split', { id: archive.id, outputs, deleteOriginal })
  } finally {
    await source.dispose()
  }
}
