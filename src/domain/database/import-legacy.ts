// POST /api/database/import-legacy: a backup JSON as LANraragi writes it, imported beside what the
// library holds (an independent path from restore). Records the library already has are
// overwritten, merged or skipped as the caller chose; titles, tags, summaries and names can have
// their mojibake repaired on the way in. Before anything is written, a snapshot of the library is
// taken in the same transaction: restoring it is the rollback.
import type { Deps } from '../../deps.ts'
import { fail } from '../../errors.ts'
import { commitInSlices } from '../commit.ts'
import { applyBackupDocument, type ApplyCounts, type ExistingMode } from './apply-document.ts'
import { countRecords } from './backup-document.ts'
import { removeBackupUpload } from './backup-files.ts'
import { repairMojibake } from './mojibake.ts'
import { checkBackupUpload } from './restore.ts'
import { writeSnapshot } from './snapshots.ts'

const COUNT_KEY = 'legacy_imports'
const MODES: readonly ExistingMode[] = ['overwrite', 'merge', 'skip']

export type LegacyImportArgs = { upload: string; mode: ExistingMode; repairMojibake: boolean }

export type LegacyImportResult = ApplyCounts & {
  mode: ExistingMode
  /** The snapshot taken before the import: restore it to roll the import back. */
  snapshot: number
  /** Text fields the mojibake repair changed. */
  repaired: number
  document: { archives: number; categories: number; tankoubons: number }
}

/** The form's `mode` (default merge) and `repair_mojibake` (default true); 400 when unknown. */
export function parseImportOptions(fields: Map<string, string>): Omit<LegacyImportArgs, 'upload'> {
  const mode = (fields.get('mode') ?? 'merge').trim().toLowerCase()
  if (!MODES.includes(mode as ExistingMode))
    throw fail.bad_request(`Unknown mode: ${mode.slice(0, 32)} (overwrite, merge or skip).`)
  const repair = (fields.get('repair_mojibake') ?? 'true').trim().toLowerCase()
  if (!['true', 'false', '1', '0'].includes(repair))
    throw fail.bad_request('repair_mojibake must be true or false.')
  return { mode: mode as ExistingMode, repairMojibake: repair === 'true' || repair === '1' }
}

/** The import job's work: the upload is read, imported in one transaction, and removed. */
export async function importLegacyUpload(
  deps: Pick<Deps, 'config' | 'db' | 'events' | 'settings'>,
  jobId: number | null,
  args: LegacyImportArgs,
): Promise<LegacyImportResult> {
  try {
    const doc = await checkBackupUpload(deps, args.upload)
    let repaired = 0
    const clean = args.repairMojibake
      ? (text: string) => {
          const out = repairMojibake(text)
          if (out !== text) repaired++
          return out
        }
      : undefined
    const result = await commitInSlices(deps, (w) => {
      const snapshot = writeSnapshot(w, 'import_legacy', jobId)
      const counts = applyBackupDocument(w, doc, { mode: args.mode, clean })
      return { ...counts, snapshot }
    })
    deps.settings.setInternal(COUNT_KEY, legacyImportCount(deps) + 1)
    return { ...result, mode: args.mode, repaired, document: countRecords(doc) }
  } finally {
    removeBackupUpload(deps, args.upload)
  }
}

/** How many legacy imports ran (and committed) on this instance. */
export function legacyImportCount(deps: Pick<Deps, 'settings'>): number {
  return deps.settings.getInternal<number>(COUNT_KEY) ?? 0
}
