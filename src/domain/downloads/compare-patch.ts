// What a comparison resolves into: a patch zip of the download's picked pages (exported, nothing
// written), keep-b (the existing archive kept, picked pages written to its sidecar patch, the item
// and its staged file gone), and for overwrite the existing archive's unique pages carried into a
// patch of the new one.
// Snake_case kept: an Insertion's anchors (`after_filename`/`before_filename`) are the patch
// manifest's names (archives/patch.ts).
import { rm } from 'node:fs/promises'
import { basename, dirname } from 'node:path'
import type { Deps } from '../../deps.ts'
import { createLogger } from '../../log.ts'
import type { ArchiveRow } from '../../db/repos/archives.repo.ts'
import { fail } from '../../errors.ts'
import { MAX_ENTRIES } from '../../archive/limits.ts'
import { commit } from '../commit.ts'
import { addToPatch, buildPatchZip, namedInsertions, type Insertion } from '../archives/patch.ts'
import { deletePageThumbnails } from '../archives/thumbnails.ts'
import { deleteDownloadRow } from './item-save.ts'
import { requireCompareSides, sidePages, type CompareSides } from './compare.ts'
import { itemLockOf } from './queue.ts'
import type { Side } from './compare-align.ts'

const log = createLogger('downloads.compare')

/** Only a staged download of ours (`download-*` in the temp folder) is removed, whatever a row says. */
async function removeStagedFile(deps: Pick<Deps, 'config'>, path: string): Promise<void> {
  if (dirname(path) !== deps.config.tempDir || !basename(path).startsWith('download-')) return
  await rm(path, { force: true }).catch((error: Error) =>
    log.warn('could not remove a staged download', { path, error: error.message }),
  )
}

/**
 * One picked page: a page of the source side by position (0-based, natural order) or by entry
 * name, and its anchor among the other side's pages. Refusals name the wire fields, as sent.
 */
export type InsertionRequest = {
  aIndex?: number
  aFilename?: string
  bIndex?: number
  bFilename?: string
  afterFilename?: string
  beforeFilename?: string
}

/**
 * The picked pages of `from` with their bytes, each anchored among the pages of the other side.
 * Every fault is a 400 naming the insertion by its position.
 */
async function resolveInsertions(
  deps: Pick<Deps, 'reader'>,
  sides: CompareSides,
  from: Side,
  requests: readonly InsertionRequest[],
): Promise<Insertion[]> {
  if (requests.length > MAX_ENTRIES) throw fail.bad_request('Too many insertions.')
  const to: Side = from === 'a' ? 'b' : 'a'
  const [sourcePages, anchorPages] = await Promise.all([
    sidePages(deps, sides, from),
    sidePages(deps, sides, to),
  ])
  const anchors = new Set(anchorPages)
  const seen = new Set<string>()
  const picked = requests.map((request, n) => {
    const what = `Insertion ${n + 1}`
    const index = from === 'a' ? request.aIndex : request.bIndex
    const filename = from === 'a' ? request.aFilename : request.bFilename
    if ((index === undefined) === (filename === undefined))
      throw fail.bad_request(`${what}: give one of ${from}_index or ${from}_filename.`)
    const name = filename ?? sourcePages[index!]
    if (name === undefined || !sourcePages.includes(name))
      throw fail.bad_request(`${what}: not a page of side ${from}.`)
    if (seen.has(name)) throw fail.bad_request(`${what}: that page is picked twice.`)
    seen.add(name)
    const { afterFilename, beforeFilename } = request
    if (afterFilename === undefined && beforeFilename === undefined)
      throw fail.bad_request(`${what}: give after_filename or before_filename.`)
    for (const anchor of [afterFilename, beforeFilename])
      if (anchor !== undefined && !anchors.has(anchor))
        throw fail.bad_request(`${what}: the anchor is not a page of side ${to}.`)
    return { name, afterFilename, beforeFilename }
  })
  const path = from === 'a' ? sides.aPath : sides.bPath
  const out: Insertion[] = []
  // One page in memory at a time while reading; all of them end up in the zip anyway.
  for (const p of picked)
    out.push({
      data: await deps.reader.readPage(path, p.name),
      sourceName: p.name,
      ...(p.afterFilename === undefined ? {} : { after_filename: p.afterFilename }),
      ...(p.beforeFilename === undefined ? {} : { before_filename: p.beforeFilename }),
    })
  return out
}

/** POST compare/export-patch: the zip bytes of a patch of the download's picked pages. */
export async function exportPatch(
  deps: Pick<Deps, 'config' | 'db' | 'reader'>,
  itemId: string,
  requests: readonly InsertionRequest[],
): Promise<Uint8Array> {
  const sides = requireCompareSides(deps, itemId)
  if (requests.length === 0) throw fail.bad_request('Pick at least one page to export.')
  return buildPatchZip(namedInsertions(await resolveInsertions(deps, sides, 'a', requests)))
}

/**
 * POST compare/keep-b: the existing archive stays; the picked pages of the download (if any) are
 * added to its patch; the item is deleted in one commit and its staged file removed after. It holds
 * the item's lock, as overwrite and rename do: a second answer meanwhile is 423, one after it 404.
 */
export function keepExisting(
  deps: Pick<Deps, 'config' | 'db' | 'events' | 'locks' | 'reader'>,
  itemId: string,
  requests: readonly InsertionRequest[],
): Promise<{ archive: ArchiveRow; inserted: number }> {
  return deps.locks.withLock(itemLockOf(itemId), async () => {
    const sides = requireCompareSides(deps, itemId)
    let archive = sides.bRow
    if (requests.length > 0) {
      const insertions = await resolveInsertions(deps, sides, 'a', requests)
      archive = await addToPatch(deps, sides.bRow, insertions)
      await deletePageThumbnails(deps, archive.id)
    }
    commit(deps, (w) => deleteDownloadRow(w, itemId))
    deps.reader.dropCached(sides.aPath)
    await removeStagedFile(deps, sides.aPath)
    return { archive, inserted: requests.length }
  })
}

/**
 * For the queue's overwrite, before the existing archive (side b) is deleted: its picked pages
 * (`b_index` or `b_filename`, anchored among the download's pages) read into memory. Once the
 * download is catalogued as its replacement, `writeOverwriteInsertions` puts them in its patch.
 */
export async function readOverwriteInsertions(
  deps: Pick<Deps, 'config' | 'db' | 'reader'>,
  itemId: string,
  requests: readonly InsertionRequest[],
): Promise<Insertion[]> {
  if (requests.length === 0) return []
  return resolveInsertions(deps, requireCompareSides(deps, itemId), 'b', requests)
}

/** Writes what readOverwriteInsertions read into the new archive's sidecar patch. */
export async function writeOverwriteInsertions(
  deps: Pick<Deps, 'config' | 'db' | 'events' | 'locks' | 'reader'>,
  newArchive: ArchiveRow,
  insertions: readonly Insertion[],
): Promise<ArchiveRow> {
  if (insertions.length === 0) return newArchive
  const updated = await addToPatch(deps, newArchive, insertions)
  await deletePageThumbnails(deps, updated.id)
  return updated
}
