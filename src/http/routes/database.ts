// Database-wide operations: backup and restore, legacy import and its snapshots, drop, clean,
// clear all New flags, the maintenance scripts, duplicate detection, tag statistics and the
// search index rebuild.
import { statSync } from 'node:fs'
import { Elysia } from 'elysia'
import type { Deps } from '../../deps.ts'
import { requestContext } from '../context.ts'
import { ok } from '../envelope.ts'
import { readMultipart } from '../multipart.ts'
import { notReady } from '../not-ready.ts'
import {
  backupResponse,
  DatabaseModel,
  parseBackupFormat,
  parseStatsOptions,
  toWireSnapshot,
  toWireSubfolderCategories,
  toWireSubfolderTankoubons,
} from '../models/database.ts'
import { toWireArchive } from '../models/archives.ts'
import { cleanDatabase } from '../../domain/archives/clean.ts'
import { clearAllNewFlags } from '../../domain/archives/edit.ts'
import { buildBackupDocument } from '../../domain/database/backup-document.ts'
import {
  backupJobFile,
  receiveBackupUpload,
  removeBackupUpload,
} from '../../domain/database/backup-files.ts'
import { dropDatabase } from '../../domain/database/drop.ts'
import { clearDuplicates, readDuplicateGroups } from '../../domain/duplicates/groups.ts'
import { legacyImportCount, parseImportOptions } from '../../domain/database/import-legacy.ts'
import { repairStoredMojibake } from '../../domain/database/repair-mojibake.ts'
import { checkBackupUpload } from '../../domain/database/restore.ts'
import { listSnapshots, removeSnapshot, snapshotDocument } from '../../domain/database/snapshots.ts'
import { subfoldersToCategories } from '../../domain/database/subfolders-to-categories.ts'
import { subfoldersToTankoubons } from '../../domain/database/subfolders-to-tankoubons.ts'
import { llmFolderNamer } from '../../domain/database/folder-namer.ts'
import { tagStatistics } from '../../domain/search/stats.ts'
import type { PolicyRows } from '../policy.ts'

/** Access policy of this file's routes, keyed by `METHOD /path` as registered (http/policy.ts). */
export const databasePolicy = {
  'DELETE /api/database/isnew': { op: 'clear_new_all', access: 'admin' },
  'POST /api/database/clean': { op: 'clean_database', access: 'admin' },
  'GET /api/database/backup': { op: 'backup_database', access: 'any' },
  'POST /api/database/backup': { op: 'queue_backup', access: 'admin' },
  'GET /api/database/backup/:jobid': { op: 'get_backup', access: 'any' },
  'POST /api/database/restore': { op: 'restore_database', access: 'admin', body: 'stream' },
  'POST /api/database/drop': { op: 'drop_database', access: 'session' },
  'POST /api/database/import-legacy': { op: 'import_legacy', access: 'session', body: 'stream' },
  'GET /api/database/import-legacy/count': { op: 'import_legacy_count', access: 'session' },
  'GET /api/database/import-snapshots': { op: 'list_import_snapshots', access: 'session' },
  'GET /api/database/import-snapshots/:id': { op: 'get_import_snapshot', access: 'session' },
  'DELETE /api/database/import-snapshots/:id': {
    op: 'delete_import_snapshot',
    access: 'session',
  },
  'POST /api/database/duplicates/scan': { op: 'find_duplicates', access: 'admin' },
  'GET /api/database/duplicates': { op: 'get_duplicates', access: 'any' },
  'DELETE /api/database/duplicates': { op: 'clear_duplicates', access: 'admin' },
  'POST /api/database/scripts/repair-mojibake': { op: 'repair_mojibake', access: 'admin' },
  'POST /api/database/scripts/subfolders-to-categories': {
    op: 'subfolders_to_categories',
    access: 'admin',
  },
  'POST /api/database/scripts/subfolders-to-tankoubons': {
    op: 'subfolders_to_tankoubons',
    access: 'admin',
  },
  'POST /api/database/rebuild-index': { op: 'rebuild_index', access: 'admin' },
  'GET /api/database/stats': { op: 'get_tag_stats', access: 'any', guestScope: true },
} satisfies PolicyRows

/** The uploaded backup file of a multipart body, stored under data/backups and checked. */
async function receiveBackupForm(
  deps: Pick<Deps, 'archives' | 'config' | 'jobs'>,
  request: Request,
) {
  const form = await readMultipart(request, deps.config, {
    field: 'file',
    receive: (_filename, content) => receiveBackupUpload(deps, content),
    discard: async (name) => removeBackupUpload(deps, name),
  })
  await checkBackupUpload(deps, form.file)
  return form
}

export const databaseRoutes = (deps: Deps) =>
  new Elysia({ name: 'routes.database' })
    .use(requestContext(deps))
    .get('/api/database/backup', () => buildBackupDocument(deps.db))
    .post('/api/database/backup', () => ok({ job: deps.jobs.enqueue('backup', {}) }))
    .get(
      '/api/database/backup/:jobid',
      ({ params, query }) => {
        const format = parseBackupFormat(query.format)
        const path = backupJobFile(deps, params.jobid)
        const takenAt = Math.floor(statSync(path).mtimeMs / 1000)
        return backupResponse(Bun.file(path), format, takenAt)
      },
      { params: DatabaseModel.backupParams, query: DatabaseModel.backupQuery },
    )
    .post('/api/database/restore', async ({ request }) => {
      const form = await receiveBackupForm(deps, request)
      return ok({ job: deps.jobs.enqueue('restore', { upload: form.file }) })
    })
    .post('/api/database/drop', () => {
      const dropped = dropDatabase(deps)
      return ok({
        successMessage: `Dropped ${dropped.archives} archives, ${dropped.categories} categories and ${dropped.tankoubons} Tankoubons; snapshot ${dropped.snapshot} holds them.`,
        snapshot: dropped.snapshot,
      })
    })
    .post('/api/database/import-legacy', async ({ request }) => {
      const form = await receiveBackupForm(deps, request)
      let options
      try {
        options = parseImportOptions(form.fields)
      } catch (error) {
        removeBackupUpload(deps, form.file)
        throw error
      }
      return ok({ job: deps.jobs.enqueue('import_legacy', { upload: form.file, ...options }) })
    })
    .get('/api/database/import-legacy/count', () => ok({ count: legacyImportCount(deps) }))
    .get('/api/database/import-snapshots', () =>
      ok({ snapshots: listSnapshots(deps).map(toWireSnapshot) }),
    )
    .get(
      '/api/database/import-snapshots/:id',
      ({ params }) => {
        const snapshot = snapshotDocument(deps, params.id)
        return backupResponse(snapshot.json, 'file', snapshot.createdAt, `snapshot-${snapshot.id}`)
      },
      { params: DatabaseModel.snapshotParams },
    )
    .delete(
      '/api/database/import-snapshots/:id',
      ({ params }) => {
        removeSnapshot(deps, params.id)
        return ok()
      },
      { params: DatabaseModel.snapshotParams },
    )
    .post('/api/database/clean', async () => ok(await cleanDatabase(deps)))
    .delete('/api/database/isnew', () => {
      const cleared = clearAllNewFlags(deps)
      return ok({ successMessage: `Cleared the New flag on ${cleared} archives.` })
    })
    .post('/api/database/duplicates/scan', () =>
      ok({ job: deps.jobs.enqueue('find_duplicates', {}) }),
    )
    .get('/api/database/duplicates', () =>
      readDuplicateGroups(deps).map((group) =>
        group.map((row) => toWireArchive(row, { toc: false })),
      ),
    )
    .delete('/api/database/duplicates', () => {
      const cleared = clearDuplicates(deps)
      return ok({ successMessage: `Cleared ${cleared} duplicate groups.`, cleared })
    })
    .post('/api/database/scripts/repair-mojibake', () => ok(repairStoredMojibake(deps)))
    .post('/api/database/scripts/subfolders-to-categories', async () =>
      ok(toWireSubfolderCategories(await subfoldersToCategories(deps))),
    )
    // With a provider configured the model names each folder, best effort (domain/database/folder-namer.ts).
    .post('/api/database/scripts/subfolders-to-tankoubons', async ({ request }) =>
      ok(
        toWireSubfolderTankoubons(
          await subfoldersToTankoubons(deps, llmFolderNamer(deps, request.signal)),
        ),
      ),
    )
    .post('/api/database/rebuild-index', () => ok({ job: deps.jobs.enqueue('rebuild_index', {}) }))
    // Until the search index is built: a bare 204.
    .get(
      '/api/database/stats',
      ({ query, guestScoped, set }) =>
        tagStatistics(deps, parseStatsOptions(query), guestScoped) ?? notReady(set),
      { query: DatabaseModel.statsQuery },
    )
