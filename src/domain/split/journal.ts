// A split's journal: what it has catalogued so far, in `<data>/temp/split-journal-<uuid>.json`,
// written before each output's row so a crash (kill -9, power cut after the OS flushed) never
// leaves a catalogued output the journal does not name. The next start reads the journals before
// anything else runs and finishes the promise a failed split makes: the outputs go and the
// original stays, or, when the original's delete had already committed, the split is completed.
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Deps } from '../../deps.ts'
import { findArchive } from '../../db/repos/archives.repo.ts'
import { deleteBookmark, listArchiveBookmarks } from '../../db/repos/bookmarks.repo.ts'
import { findTankoubon } from '../../db/repos/tankoubons.repo.ts'
import { deleteSplitSuggestion } from '../../db/repos/splits.repo.ts'
import { tx } from '../../db/client.ts'
import { createLogger } from '../../log.ts'
import { commit } from '../commit.ts'
import { patchTankoubon } from '../collections/tank-save.ts'
import { computeArchiveId, patchPathOf, toAbsolutePath } from '../archives/files.ts'
import { deleteArchiveRows } from '../archives/save.ts'
import { deleteThumbnails } from '../archives/thumbnails.ts'

const log = createLogger('split')

/** Journal files, beside the split temp folders (both start with `split-`). */
export const SPLIT_JOURNAL_PREFIX = 'split-journal-'

export type SplitJournalState = {
  /** The archive being split, and its file (content-relative) when the split started. */
  original: { id: string; path: string }
  /** `deleting` once every output is catalogued and the original's delete has begun. */
  phase: 'writing' | 'deleting'
  /** Outputs as they are about to be catalogued: id and absolute path. */
  outputs: { id: string; path: string }[]
  /** Member lists of the Tankoubons holding the original, before the outputs took its place. */
  tanks: { id: string; members: string[] }[]
}

export type SplitJournal = {
  readonly state: SplitJournalState
  /** Writes the state as changed by `change`, atomically (temp file, then rename). */
  update(change: (state: SplitJournalState) => void): Promise<void>
  /** The split ended (done, or its failure handled): nothing is left to recover. */
  close(): Promise<void>
}

export async function openSplitJournal(
  tempDir: string,
  original: { id: string; path: string },
): Promise<SplitJournal> {
  const path = join(tempDir, `${SPLIT_JOURNAL_PREFIX}${crypto.randomUUID()}.json`)
  const state: SplitJournalState = { original, phase: 'writing', outputs: [], tanks: [] }
  const save = async () => {
    await writeFile(`${path}.new`, JSON.stringify(state))
    await rename(`${path}.new`, path)
  }
  await save()
  return {
    state,
    async update(change) {
      change(state)
      await save()
    },
    close: () => rm(path, { force: true }),
  }
}

/**
 * Boot only, before the first scan and before jobs resume: settles each split a crash cut short.
 * Returns how many journals there were.
 */
export async function recoverInterruptedSplits(
  deps: Pick<Deps, 'config' | 'db' | 'events'>,
): Promise<number> {
  const names = (await readdir(deps.config.tempDir).catch(() => [] as string[])).filter(
    (name) => name.startsWith(SPLIT_JOURNAL_PREFIX) && name.endsWith('.json'),
  )
  for (const name of names) {
    const path = join(deps.config.tempDir, name)
    try {
      const state = JSON.parse(await readFile(path, 'utf8')) as SplitJournalState
      await settle(deps, state)
    } catch (error) {
      log.error('could not recover an interrupted split', {
        journal: name,
        error: error instanceof Error ? error.message : String(error),
      })
    }
    await rm(path, { force: true })
  }
  return names.length
}

async function settle(
  deps: Pick<Deps, 'config' | 'db' | 'events'>,
  state: SplitJournalState,
): Promise<void> {
  const originalKept = findArchive(deps.db, state.original.id) !== undefined
  if (state.phase === 'deleting' && !originalKept) {
    // The original's row delete committed: the split is done but for its file and covers.
    const absPath = toAbsolutePath(deps.config.contentDir, state.original.path)
    await rm(absPath, { force: true })
    await rm(patchPathOf(absPath), { force: true })
    await deleteThumbnails(deps, state.original.id)
    tx(deps.db, () => deleteSplitSuggestion(deps.db, state.original.id))
    log.warn('completed a split cut short while deleting its original', {
      id: state.original.id,
      outputs: state.outputs.length,
    })
    return
  }
  // Unfinished: the Tankoubons get their members back, the outputs go.
  if (state.tanks.length > 0)
    commit(deps, (w) => {
      for (const { id, members } of state.tanks)
        if (findTankoubon(w.db, id)) patchTankoubon(w, id, { thumbnailPage: null }, members)
    })
  for (const output of state.outputs) await removeOutput(deps, output)
  log.warn('removed the outputs of a split cut short', {
    id: state.original.id,
    outputs: state.outputs.length,
  })
}

/** An output's row, bookmarks, covers and file; the file only when it is that output's. */
async function removeOutput(
  deps: Pick<Deps, 'config' | 'db' | 'events'>,
  output: { id: string; path: string },
): Promise<void> {
  commit(deps, (w) => {
    deleteArchiveRows(w, [output.id])
    for (const bookmark of listArchiveBookmarks(w.db, output.id))
      deleteBookmark(w.db, output.id, bookmark.page)
  })
  await deleteThumbnails(deps, output.id)
  // Named in the journal before it was linked: whatever is there may be a file copied in since.
  const id = await computeArchiveId(output.path).catch(() => null)
  if (id === output.id) await rm(output.path, { force: true })
}
