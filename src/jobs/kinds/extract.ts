// `extract`: opens one archive in the background: (re)builds the page cache of RAR, 7z and
// compressed tar, warms the directory of ZIP and TAR, and re-reads the page list. GET /files
// queues it for every archive, so LANraragi clients always get a job id to poll.
import type { Deps } from '../../deps.ts'
import { defineJob } from '../define-job.ts'
import { findArchive, readArchivePages } from '../../db/repos/archives.repo.ts'
import { commit } from '../../domain/commit.ts'
import { patchArchive } from '../../domain/archives/save.ts'
import { toAbsolutePath } from '../../domain/archives/files.ts'
import { fail } from '../../errors.ts'

export type ExtractArgs = { id: string; force?: boolean }

export const extractJob = (deps: Pick<Deps, 'config' | 'db' | 'events' | 'reader'>) =>
  defineJob<ExtractArgs>({
    concurrency: 1,
    uniqueKey: (args) => `extract:${args.id}`,
    async run(ctx, args) {
      const row = findArchive(deps.db, args.id)
      if (!row) throw fail.not_found(`Archive ${args.id} no longer exists.`)
      const absPath = toAbsolutePath(deps.config.contentDir, row.path)
      if (args.force) deps.reader.dropCached(absPath)
      const pages = await deps.reader.listPages(absPath)
      ctx.progress(0.5)
      // Warm the first page: for extracted formats this fills the page cache.
      if (pages[0] !== undefined) await deps.reader.readPage(absPath, pages[0])
      // Opening an archive must not count as a write (it would drop cached searches).
      const stored = readArchivePages(deps.db, row.id)
      if (!stored || stored.join('\0') !== pages.join('\0')) {
        commit(deps, (w) => patchArchive(w, row.id, { pagecount: pages.length }, pages))
      }
      return { id: row.id, pages: pages.length }
    },
  })
