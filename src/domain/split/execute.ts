// Executing a split: each output is written as a CBZ beside the original (temp name, then renamed
// to a free name), catalogued with the original's tags, summary, static categories, the
// bookmarks of its pages and the reading progress when its page is among them. The original is
// deleted, when asked, only once every output is catalogued; a failure before that removes the
// outputs written so far and leaves it untouched. A journal (journal.ts) lets the next start do
// the same after a crash.
import { link, rename, rm, stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { Deps } from '../../deps.ts'
import { findArchive, readArchivePages, type ArchiveRow } from '../../db/repos/archives.repo.ts'
import {
  deleteBookmark,
  insertBookmark,
  listArchiveBookmarks,
} from '../../db/repos/bookmarks.repo.ts'
import { categoriesHolding } from '../../db/repos/categories.repo.ts'
import { listTankMembers, tankoubonsHolding } from '../../db/repos/tankoubons.repo.ts'
import { deleteSplitSuggestion } from '../../db/repos/splits.repo.ts'
import { tx } from '../../db/client.ts'
import { fail } from '../../errors.ts'
import { createLogger } from '../../log.ts'
import { normalizeTags } from '../../model/tags.ts'
import { commit } from '../commit.ts'
import { addMember } from '../collections/category-save.ts'
import { patchTankoubon } from '../collections/tank-save.ts'
import { insertCatalogRow } from '../archives/catalog-row.ts'
import { computeArchiveId, TEMP_MARKER, toAbsolutePath } from '../archives/files.ts'
import { isPathTaken } from '../archives/placement.ts'
import { deleteArchive } from '../archives/remove.ts'
import { deleteArchiveRows, patchArchive } from '../archives/save.ts'
import { deleteThumbnails } from '../archives/thumbnails.ts'
import { createCbzFile } from './cbz-file.ts'
import { assertOriginalCarried, checkOutputs, fileNameOf, type SplitOutput } from './plan.ts'
import { openSplitJournal, type SplitJournal } from './journal.ts'
import { readSplitSource, type SplitSource } from './source.ts'

const log = createLogger('split')

export type SplitRequest = { id: string; outputs: SplitOutput[]; deleteOriginal: boolean }

/** The archive_split job's unique key: one split of an archive at a time. */
export const splitJobKey = (archiveId: string): string => `archive_split:${archiveId}`

/** Where a split is: output `outputIndex` (0-based) of `outputs`, pages written of all pages. */
export type SplitProgress = {
  outputIndex: number
  outputs: number
  pagesDone: number
  pages: number
}

/** What the outputs take from the original. */
type Inherited = {
  tags: string
  summary: string
  categoryIds: string[]
  /** Bookmarks by the page path they mark. */
  bookmarks: Map<string, { name: string | null; bookmarkedAt: number }>
  /** The page the reader was on (its path), carried to the output holding it. */
  progress: { path: string; lastreadtime: number } | null
}

/** A catalogued output, with the pages its mapped bookmarks are on. */
type Written = { id: string; path: string; bookmarkPages: number[] }

function inheritedOf(deps: Pick<Deps, 'db'>, archive: ArchiveRow): Inherited {
  const tags = normalizeTags(archive.tags)
    .split(',')
    .filter((tag) => tag && !tag.startsWith('date_added:'))
    .join(',')
  const pages = readArchivePages(deps.db, archive.id) ?? []
  const bookmarks = new Map<string, { name: string | null; bookmarkedAt: number }>()
  for (const row of listArchiveBookmarks(deps.db, archive.id)) {
    const path = pages[row.page - 1]
    if (path !== undefined) bookmarks.set(path, { name: row.name, bookmarkedAt: row.bookmarkedAt })
  }
  const categoryIds = categoriesHolding(deps.db, archive.id)
    .filter((category) => category.search === '')
    .map((category) => category.id)
  const read = pages[archive.progress - 1]
  const progress = read === undefined ? null : { path: read, lastreadtime: archive.lastreadtime }
  return { tags, summary: archive.summary, categoryIds, bookmarks, progress }
}

/** What a split needs: reading the source, writing, placing and cataloguing its outputs. */
export type SplitWriteDeps = Pick<
  Deps,
  'archives' | 'config' | 'db' | 'events' | 'jobs' | 'locks' | 'reader'
>

/** Runs a split; answers the new archives' ids in output order. */
export async function executeSplit(
  deps: SplitWriteDeps,
  request: SplitRequest,
  report: (progress: SplitProgress) => void,
  signal?: AbortSignal,
): Promise<string[]> {
  const archive = findArchive(deps.db, request.id)
  if (!archive || archive.unlinked) throw fail.not_found(`No archive with ID ${request.id}.`)
  const written: Written[] = []
  const journal = await openSplitJournal(deps.config.tempDir, {
    id: archive.id,
    path: archive.path,
  })
  try {
    await writeOutputs(deps, archive, request, written, journal, report, signal)
    if (request.deleteOriginal) await deleteOriginal(deps, archive, written, journal)
  } finally {
    await journal.close()
  }
  return written.map((w) => w.id)
}

async function writeOutputs(
  deps: SplitWriteDeps,
  archive: ArchiveRow,
  request: SplitRequest,
  written: Written[],
  journal: SplitJournal,
  report: (progress: SplitProgress) => void,
  signal?: AbortSignal,
): Promise<void> {
  await deps.locks.withLock(archive.id, async () => {
    const source = await readSplitSource(deps, archive)
    try {
      const outputs = checkOutputs(source, request.outputs)
      if (request.deleteOriginal) assertOriginalCarried(source, outputs)
      const inherited = inheritedOf(deps, archive)
      const pages = outputs.reduce((sum, output) => sum + output.pages.length, 0)
      let pagesDone = 0
      for (const [outputIndex, output] of outputs.entries()) {
        report({ outputIndex, outputs: outputs.length, pagesDone, pages })
        const onPage = () => {
          pagesDone++
          report({ outputIndex, outputs: outputs.length, pagesDone, pages })
        }
        written.push(await writeOutput(deps, source, output, inherited, journal, onPage, signal))
      }
    } catch (error) {
      await removeWritten(deps, written)
      throw error
    } finally {
      await source.dispose()
    }
  })
}

/**
 * Deletion goes through the one delete path, which drops the archive from its Tankoubons: the
 * outputs take its place there first, in order. If the delete is refused, the Tankoubons get
 * their member lists back and the outputs go, not the original.
 */
async function deleteOriginal(
  deps: Pick<Deps, 'config' | 'db' | 'events' | 'locks' | 'reader'>,
  archive: ArchiveRow,
  written: Written[],
  journal: SplitJournal,
): Promise<void> {
  const outputIds = written.map((w) => w.id)
  const tanks = tankoubonsHolding(deps.db, archive.id).map((id) => ({
    id,
    members: listTankMembers(deps.db, id),
  }))
  await journal.update((state) => {
    state.phase = 'deleting'
    state.tanks = tanks
  })
  const replace = (lists: { id: string; members: string[] }[]) =>
    commit(deps, (w) => {
      // A new member list moves every global page: the cover goes back to the first member's.
      for (const { id, members } of lists) patchTankoubon(w, id, { thumbnailPage: null }, members)
    })
  replace(
    tanks.map(({ id, members }) => ({
      id,
      members: members.flatMap((member) =>
        member === archive.id ? outputIds.filter((o) => !members.includes(o)) : [member],
      ),
    })),
  )
  try {
    await deleteArchive(deps, archive)
    tx(deps.db, () => deleteSplitSuggestion(deps.db, archive.id))
  } catch (error) {
    if (findArchive(deps.db, archive.id)) {
      replace(tanks)
      await removeWritten(deps, written)
    }
    throw error
  }
}

async function writeOutput(
  deps: Pick<Deps, 'archives' | 'config' | 'db' | 'events' | 'jobs'>,
  source: SplitSource,
  output: SplitOutput,
  inherited: Inherited,
  journal: SplitJournal,
  onPage: () => void,
  signal?: AbortSignal,
): Promise<Written> {
  const folder = dirname(toAbsolutePath(deps.config.contentDir, source.archive.path))
  const tempPath = join(folder, `${TEMP_MARKER}${crypto.randomUUID()}`)
  const cbz = await createCbzFile(tempPath)
  try {
    const width = Math.max(3, String(output.pages.length).length)
    const entries: string[] = []
    for (const [index, path] of output.pages.entries()) {
      signal?.throwIfAborted()
      const page = source.byPath.get(path)!
      const extension = page.entry.slice(page.entry.lastIndexOf('.') + 1).toLowerCase()
      // Numbered names keep the output's order under the reader's natural sort.
      const entry = `${String(index + 1).padStart(width, '0')}.${extension}`
      await cbz.add(entry, await source.readPage(page))
      entries.push(entry)
      onPage()
    }
    await cbz.finish()
    const id = await computeArchiveId(tempPath)
    if (deps.archives.uploads.ids.has(id) || findArchive(deps.db, id))
      throw fail.conflict(`Output "${output.name}" is the same file as archive ${id}.`, { id })
    deps.archives.uploads.ids.add(id)
    const bookmarkPages: number[] = []
    try {
      const info = await stat(tempPath)
      const written = await deps.archives.placement.alone(async () => {
        const finalPath = await freePath(deps, folder, fileNameOf(output.name))
        await journal.update((state) => state.outputs.push({ id, path: finalPath }))
        commit(deps, (w) => {
          insertCatalogRow(
            deps,
            w,
            finalPath,
            info,
            { id, pages: entries },
            {
              title: output.name,
              tags: inherited.tags,
              summary: inherited.summary,
            },
          )
          for (const categoryId of inherited.categoryIds) addMember(w, categoryId, id)
          const read = inherited.progress && output.pages.indexOf(inherited.progress.path)
          if (inherited.progress && read !== null && read >= 0)
            patchArchive(w, id, {
              progress: read + 1,
              lastreadtime: inherited.progress.lastreadtime,
            })
          for (const [index, path] of output.pages.entries()) {
            const bookmark = inherited.bookmarks.get(path)
            if (!bookmark) continue
            insertBookmark(w.db, { archiveId: id, page: index + 1, ...bookmark })
            bookmarkPages.push(index + 1)
          }
        })
        try {
          await placeWithoutOverwrite(tempPath, finalPath)
        } catch (error) {
          commit(deps, (w) => {
            deleteArchiveRows(w, [id])
            for (const page of bookmarkPages) deleteBookmark(w.db, id, page)
          })
          throw error
        }
        return { id, path: finalPath, bookmarkPages }
      })
      deps.jobs.enqueue('thumbnails', { ids: [id], page: 0 })
      return written
    } finally {
      deps.archives.uploads.ids.delete(id)
    }
  } finally {
    await cbz.abandon()
    await rm(tempPath, { force: true })
  }
}

/**
 * Gives the temp file its name; a file that appeared there since the name was checked (copied in
 * by hand) is never replaced: a hard link fails on it where a rename would overwrite. File systems
 * without hard links (FAT, some network shares) get the rename, checked just before.
 */
async function placeWithoutOverwrite(tempPath: string, finalPath: string): Promise<void> {
  try {
    await link(tempPath, finalPath)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EEXIST') throw fail.conflict('A file appeared under the output name; try again.')
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw error
    await rename(tempPath, finalPath)
  }
}

/** `<name>.cbz`, or `<name> (2).cbz` and on when a file or row holds it. Inside placement. */
async function freePath(
  deps: Pick<Deps, 'archives' | 'config' | 'db'>,
  folder: string,
  name: string,
): Promise<string> {
  for (let n = 1; ; n++) {
    const path = join(folder, n === 1 ? `${name}.cbz` : `${name} (${n}).cbz`)
    if (!deps.archives.uploads.paths.has(path) && !(await isPathTaken(deps, path))) return path
  }
}

/** Undoes catalogued outputs: their rows (memberships and bookmarks with them), files, covers. */
async function removeWritten(
  deps: Pick<Deps, 'config' | 'db' | 'events' | 'reader'>,
  written: Written[],
): Promise<void> {
  for (const { id, path, bookmarkPages } of written) {
    try {
      commit(deps, (w) => {
        deleteArchiveRows(w, [id])
        for (const page of bookmarkPages) deleteBookmark(w.db, id, page)
      })
      deps.reader.dropCached(path)
      await rm(path, { force: true })
      await deleteThumbnails(deps, id)
    } catch (error) {
      log.error('could not remove a split output', {
        id,
        error: error instanceof Error ? error.message : String(error),
      })
    }
  }
}
