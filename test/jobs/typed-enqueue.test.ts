// A job's name and its arguments are one type: a misspelt kind or a wrong argument shape does not
// compile. `tsc --noEmit` (run in CI) checks the @ts-expect-error lines below, which fail the
// type check if the call they mark ever compiles; the function holding them never runs.
import { describe, expect, it } from 'bun:test'
import type { Deps } from '../../src/deps.ts'
import { defineJob } from '../../src/jobs/define-job.ts'
import type { JobArgsByName } from '../../src/jobs/kinds/index.ts'
import { jobFactories } from '../../src/areas/assemble.ts'
import type { JobQueue } from '../../src/jobs/queue.ts'

export function enqueueChecks(jobs: JobQueue<JobArgsByName>, deps: Deps, name: string): void {
  jobs.enqueue('thumbnails', { ids: ['x'], page: 'all', force: true })
  jobs.enqueue('extract', { id: 'x' })
  jobs.enqueue('rebuild_index', {})
  jobs.enqueue('download', { item: 'x', namespace: 'download/direct' })
  // @ts-expect-error a download plugin's namespace names its jobs, not a kind
  jobs.enqueue('download/direct', { item: 'x' })
  // @ts-expect-error a download without the namespace that names its job
  jobs.enqueue('download', { item: 'x' })
  // @ts-expect-error a misspelt kind
  jobs.enqueue('thumbnail', { ids: ['x'] })
  // @ts-expect-error a name known only at run time
  jobs.enqueue(name, {})
  // @ts-expect-error a required argument missing
  jobs.enqueue('extract', {})
  // @ts-expect-error an argument of the wrong type
  jobs.enqueue('extract', { id: 42 })
  // @ts-expect-error an argument the kind does not take
  jobs.enqueue('regen_thumbs', { forced: true })
  // @ts-expect-error the arguments of another kind
  jobs.enqueue('rescan', { id: 'x' })
  // @ts-expect-error a page that is neither a number nor 'all'
  jobs.enqueue('thumbnails', { ids: ['x'], page: 'cover' })
  // @ts-expect-error no arguments at all
  jobs.enqueue('rebuild_index')

  jobs.register(jobFactories(), deps)
  // @ts-expect-error a kind missing from the registered map
  jobs.register({ rescan: jobFactories().rescan }, deps)
}

export function registerChecks(jobs: JobQueue<{ add: { n: number } }>): void {
  jobs.register({ add: () => defineJob({ concurrency: 1, run: async (_ctx, args) => args.n }) }, 0)
  jobs.register(
    // @ts-expect-error a kind whose arguments differ from the queue's
    { add: () => defineJob<{ s: string }>({ concurrency: 1, run: async (_ctx, args) => args.s }) },
    0,
  )
}

describe('job kinds', () => {
  it('are registered under the spec job names', () => {
    expect(Object.keys(jobFactories()).sort()).toEqual([
      'archive_split',
      'backup',
      // Queue downloads: their jobs are named after their plugin's namespace.
      'download',
      'download_url',
      'extract',
      'find_duplicates',
      'import_legacy',
      'plugin_exec',
      'rebuild_index',
      'regen_thumbs',
      'rescan',
      'restore',
      'thumbnails',
    ])
  })
})
