// Answers to a filename conflict (an item `waiting` with its staged file at temp_path):
// overwrite replaces the archive holding the name, carrying its reading progress, static
// categories and rating tags over to the new one; rename catalogues the staged file under another
// name, which may collide again (a new conflict). compare / keep-b are the comparison's
// (compare*.ts).
// Snake_case kept: PendingConflict (`existing_id`) is the item row's stored JSON column format.
import type { Deps } from '../../deps.ts'
import { findArchive, type ArchiveRow } from '../../db/repos/archives.repo.ts'
import { categoriesHolding } from '../../db/repos/categories.repo.ts'
import type { DownloadItemRow } from '../../db/repos/downloads.repo.ts'
import { fail } from '../../errors.ts'
import { joinTags, splitTags } from '../../model/tags.ts'
import { checkStaged } from '../archives/check-staged.ts'
import { archiveExtension } from '../archives/files.ts'
import { validateFileName } from '../archives/rename.ts'
import { setArchiveAside } from '../archives/set-aside.ts'
import { patchArchive } from '../archives/save.ts'
import { addToCategory } from '../collections/categories.ts'
import { commit } from '../commit.ts'
import {
  readOverwriteInsertions,
  writeOverwriteInsertions,
  type InsertionRequest,
} from './compare-patch.ts'
import { ingestForItem, type IngestOutcome, type DownloadIngestDeps } from './ingest.ts'
import { patchDownloadRow } from './item-save.ts'
import { itemLockOf, requireItem } from './queue.ts'
import { stagedUploadOf } from './staging.ts'

export type PendingConflict = { existing_id: string | null; filename: string }

/**
 * The item and its waiting conflict; 409 when no filename conflict waits for an answer. A staged
 * file removed behind the server's back ends the item in error (startable again), also a 409.
 */
async function requireConflict(
  deps: Pick<Deps, 'db' | 'events'>,
  id: string,
): Promise<{ item: DownloadItemRow; conflict: PendingConflict }> {
  const item = requireItem(deps, id)
  if (item.state !== 'waiting' || !item.tempPath || !item.pendingFilenameConflict)
    throw fail.conflict(`The item is ${item.state}: no filename conflict waits for an answer.`)
  if (!(await Bun.file(item.tempPath).exists())) {
    commit(deps, (w) =>
      patchDownloadRow(w, id, {
        state: 'error',
        error: STAGED_FILE_GONE,
        tempPath: null,
        pendingFilenameConflict: null,
      }),
    )
    throw fail.conflict(`${STAGED_FILE_GONE} The item is now in error: start it again.`)
  }
  return { item, conflict: JSON.parse(item.pendingFilenameConflict) as PendingConflict }
}

const STAGED_FILE_GONE = 'The staged download file is gone (removed outside the server).'

const stillWaiting = (row: DownloadItemRow) => row.state === 'waiting'

const isRatingTag = (tag: string) => tag.toLowerCase().startsWith('rating:')

/** What the old archive hands on to the one that replaces it. */
type CarriedOver = {
  progress: number
  lastreadtime: number
  ratings: string[]
  categories: string[]
}

function carriedOverFrom(deps: Pick<Deps, 'db'>, old: ArchiveRow): CarriedOver {
  return {
    progress: old.progress,
    lastreadtime: old.lastreadtime,
    ratings: splitTags(old.tags).filter(isRatingTag),
    categories: categoriesHolding(deps.db, old.id)
      .filter((category) => category.search === '')
      .map((category) => category.id),
  }
}

function carryOver(
  deps: Pick<Deps, 'db' | 'events'>,
  archiveId: string,
  carried: CarriedOver,
): void {
  commit(deps, (w) => {
    const row = findArchive(w.db, archiveId)
    if (!row) return
    const tags = splitTags(row.tags)
    const have = new Set(tags.map((tag) => tag.toLowerCase()))
    const ratings = carried.ratings.filter((tag) => !have.has(tag.toLowerCase()))
    patchArchive(w, archiveId, {
      progress: Math.min(carried.progress, row.pagecount),
      lastreadtime: carried.lastreadtime,
      ...(ratings.length > 0 ? { tags: joinTags([...tags, ...ratings]) } : {}),
    })
  })
  for (const category of carried.categories) addToCategory(deps, category, archiveId)
}

/**
 * POST /{id}/overwrite: the staged download is catalogued under the name of the archive holding
 * it, which is then deleted (file and row; put back instead when placing fails), with the old
 * one's progress, static categories and rating tags carried over. `insertions` picks pages of the old archive, read before it goes, into a sidecar patch of
 * the new one (compare-patch.ts).
 */
export async function overwriteConflict(
  deps: DownloadIngestDeps,
  id: string,
  insertions: readonly InsertionRequest[] = [],
): Promise<IngestOutcome> {
  return deps.locks.withLock(itemLockOf(id), async () => {
    const { item, conflict } = await requireConflict(deps, id)
    const old = conflict.existing_id ? findArchive(deps.db, conflict.existing_id) : undefined
    if (!old)
      throw fail.conflict(
        'The file holding this name is not a catalogued archive: rename the download instead.',
      )
    const carried = carriedOverFrom(deps, old)
    // Every check of the picked pages (a 400) happens while the old archive still exists.
    const pages = await readOverwriteInsertions(deps, id, insertions)
    const staged = await stagedUploadOf(item.tempPath!, conflict.filename)
    // Read before anything is deleted: a staged file that cannot be catalogued (422) or that the
    // library already holds under another name keeps the old archive.
    const checked = await checkStaged(deps, staged)
    if (checked.kind === 'duplicate') return ingestForItem(deps, item, staged, stillWaiting)
    // The old archive steps aside rather than going first: if the download cannot be placed
    // (a full disk), it is put back as it was.
    const aside = await setArchiveAside(deps, old)
    let outcome: IngestOutcome
    try {
      outcome = await ingestForItem(deps, item, staged, stillWaiting)
    } catch (error) {
      await aside.restore()
      throw error
    }
    if (outcome.kind !== 'done') {
      await aside.restore()
      return outcome
    }
    await aside.discard()
    carryOver(deps, outcome.archiveId, carried)
    const placed = findArchive(deps.db, outcome.archiveId)
    if (placed) await writeOverwriteInsertions(deps, placed, pages)
    return outcome
  })
}

/** POST /{id}/rename: the staged download under `filename`; a new collision is a new conflict. */
export async function renameConflict(
  deps: DownloadIngestDeps,
  id: string,
  filename: string,
): Promise<IngestOutcome> {
  const name = validateFileName(filename)
  if (!archiveExtension(name))
    throw fail.bad_request('The new file name needs an archive extension (.zip, .cbz, ...).')
  return deps.locks.withLock(itemLockOf(id), async () => {
    const { item } = await requireConflict(deps, id)
    const staged = await stagedUploadOf(item.tempPath!, name)
    return ingestForItem(deps, item, staged, stillWaiting)
  })
}
