// `rescan`: one pass of the content folder, then a `thumbnails` job for the covers it lacks.
import type { Deps } from '../../deps.ts'
import { defineJob } from '../define-job.ts'
import { scanContentFolder } from '../../domain/archives/scan.ts'
import { createLogger } from '../../log.ts'
import { collectAfterPass } from '../../model/large-pass.ts'
import { publicReason } from '../public-reason.ts'

const log = createLogger('scan')
/** Archives a rescan names in its covers job; past it the job goes over the whole library. */
const MAX_LISTED_COVERS = 10_000

/** `paths`: the watcher's changed paths (content-relative); without them, the whole folder. */
export type RescanArgs = { paths?: string[] }

export const rescanJob = (
  deps: Pick<Deps, 'archives' | 'config' | 'db' | 'events' | 'jobs' | 'reader'>,
) =>
  defineJob<RescanArgs>({
    concurrency: 1,
    // A queued whole-folder pass absorbs another; a pass over some paths is never merged (its
    // twin may name other paths).
    uniqueKey: (args) => (args.paths ? null : 'rescan'),
    mergeActive: false,
    async run(ctx, args) {
      const catalogued: string[] = []
      const result = await scanContentFolder(deps, {
        progress: (done, total) =>
          ctx.progress(done / Math.max(1, total), { scanned: done, total }),
        signal: ctx.signal,
        paths: args.paths,
        onCatalogued: (id) => catalogued.push(id),
      })
      // Its file list and row stamps (~700 MB at a million files).
      collectAfterPass(result.scanned)
      for (const dup of result.duplicates)
        log.warn('duplicate archive file not catalogued', {
          path: dup.path,
          existing_id: dup.existing_id,
        })
      for (const bad of result.unreadable)
        log.warn('unreadable archive', { path: bad.path, reason: bad.reason })
      // Covers of what the scan found, made in the background (one of the two thumbnail slots;
      // the other stays free for covers a client asks for): a `thumbnails` job over those
      // archives, or over every archive when they are many (a job's arguments are a row).
      if (catalogued.length > 0)
        deps.jobs.enqueue(
          'thumbnails',
          catalogued.length <= MAX_LISTED_COVERS ? { ids: catalogued } : {},
        )
      // Guests read job results: reasons never name a server path.
      const unreadable = result.unreadable.map((bad) => ({
        ...bad,
        reason: publicReason(bad.reason, deps.config),
      }))
      return { ...result, unreadable }
    },
  })
