// Wire shapes of the database routes: backup job download, snapshots, tag statistics' options,
// the subfolder scripts' answers, and the documents sent as files (a Content-Disposition name
// clients save them under).
import { t } from 'elysia'
import { fail } from '../../errors.ts'
import { parseInteger } from '../params.ts'
import type { SnapshotInfo } from '../../domain/database/snapshots.ts'
import type { SubfolderCategories } from '../../domain/database/subfolders-to-categories.ts'
import type { SubfolderTankoubons } from '../../domain/database/subfolders-to-tankoubons.ts'

export const DatabaseModel = {
  backupParams: t.Object({ jobid: t.String() }),
  backupQuery: t.Object({ format: t.Optional(t.String()) }),
  snapshotParams: t.Object({ id: t.String() }),
  statsQuery: t.Object({
    minweight: t.Optional(t.String()),
    hide_excluded_namespaces: t.Optional(t.String()),
  }),
}

export function parseStatsOptions(q: typeof DatabaseModel.statsQuery.static) {
  return {
    minweight: parseInteger(q.minweight, 'minweight', { min: 0, fallback: 1 }),
    // A free string: LANraragi hides only on `true` (`1` too here); any other value shows all.
    hideExcludedNamespaces: ['true', '1'].includes(q.hide_excluded_namespaces?.trim() ?? ''),
  }
}

/** One entry of GET /api/database/import-snapshots. */
export const toWireSnapshot = (s: SnapshotInfo) => ({
  id: s.id,
  created_at: s.createdAt,
  reason: s.reason,
  job: s.jobId,
  archives: s.archives,
  categories: s.categories,
  tankoubons: s.tankoubons,
  size: s.size,
})

/** POST /api/database/scripts/subfolders-to-categories. */
export const toWireSubfolderCategories = (r: SubfolderCategories) => ({
  created: r.created,
  updated: r.updated,
  categories: r.categories.map((c) => ({ id: c.id, name: c.name, added: c.added })),
  elapsed_ms: r.elapsedMs,
})

/** POST /api/database/scripts/subfolders-to-tankoubons. */
export const toWireSubfolderTankoubons = (r: SubfolderTankoubons) => ({
  created: r.created,
  tankoubons: r.tankoubons.map((t) => ({
    id: t.id,
    name: t.name,
    archives: t.archives,
    tags: t.tags,
  })),
  elapsed_ms: r.elapsedMs,
})

/** `format` of GET /api/database/backup/{jobid}: json or file (the default); else 400. */
export function parseBackupFormat(raw: string | undefined): 'json' | 'file' {
  const format = raw ?? 'file'
  if (format !== 'json' && format !== 'file')
    throw fail.bad_request(`Unknown format: ${format.slice(0, 32)} (json or file).`)
  return format
}

const stamp = (unixSeconds: number) =>
  new Date(unixSeconds * 1000).toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-')

/** A backup document as an answer: inline JSON, or a download named after when it was taken. */
export function backupResponse(
  body: Blob | string,
  format: 'json' | 'file',
  takenAt: number,
  prefix = 'backup',
): Response {
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' }
  if (format === 'file')
    headers['content-disposition'] = `attachment; filename="${prefix}-${stamp(takenAt)}.json"`
  return new Response(body, { headers })
}
