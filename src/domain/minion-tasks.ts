// LANraragi's "queue a Minion task by name" (POST /api/minion/{task}/queue): its clients queue
// its tasks by LANraragi's names, aio-lanraragi's build_stat_hashes before it reads tag
// statistics, LANraragi's web client find_duplicates. A known name queues the job that does that
// work here; any other is refused, where LANraragi would queue a task no worker of ours knows.
import type { Deps } from '../deps.ts'
import { fail } from '../errors.ts'

/** The names answered, for the refusal's message. */
export const MINION_TASKS = ['build_stat_hashes', 'find_duplicates'] as const

/**
 * Queues the job for LANraragi's `task`; answers its id. The task's arguments are not needed:
 * build_stat_hashes takes none, find_duplicates' hash distance is the scan's own here.
 */
export function queueMinionTask(deps: Pick<Deps, 'jobs'>, task: string, priority: number): number {
  switch (task) {
    // LANraragi rebuilds the tag statistics it keeps aside. Ours are read live from the search
    // index; its rebuild is the nearest work (the old index answers until the new one is in).
    case 'build_stat_hashes':
      return deps.jobs.enqueue('rebuild_index', {}, { priority })
    case 'find_duplicates':
      return deps.jobs.enqueue('find_duplicates', {}, { priority })
    default:
      throw fail.bad_request(
        `Unknown job name: ${task.slice(0, 64)}. Known: ${MINION_TASKS.join(', ')}.`,
      )
  }
}
