// Sidecar patches: pages inserted into an archive without rewriting it. The patch is a zip beside
// the archive (`<filename>.patch.zip`, see files.ts: the scanner never takes it for an archive, and
// a rename or delete of the archive carries it along) holding the inserted page images and a
// manifest naming each one's anchor among the archive's own pages. The row's has_patch flag says
// whether to look for it, so an archive without a patch never touches the disk for it.
// Snake_case kept: `after_filename`/`before_filename` are the patch zip's stored manifest format.
import { rename, rm } from 'node:fs/promises'
import { basename } from 'node:path'
import type { Deps } from '../../deps.ts'
import { findArchive, readArchivePages, type ArchiveRow } from '../../db/repos/archives.repo.ts'
import { writeZip } from '../../archive/zip-writer.ts'
import type { PageBody } from '../../archive/types.ts'
import { AppError, fail } from '../../errors.ts'
import { createLogger } from '../../log.ts'
import { commit } from '../commit.ts'
import { patchPathOf, TEMP_MARKER, toAbsolutePath } from './files.ts'
import { patchArchive } from './save.ts'

const log = createLogger('archives.patch')

export const PATCH_MANIFEST = 'manifest.json'
/**
 * Patch pages in an archive's page list are `.patch/<entry>`: an archive's own pages never have a
 * segment starting with a dot (archive/entries.ts), so the two can never be confused.
 */
export const PATCH_PAGE_PREFIX = '.patch/'
/** A manifest larger than this is not read (it names pages, a few dozen bytes each). */
const MAX_MANIFEST_BYTES = 1024 * 1024
/** A patched archive is downloaded as one zip built in memory; past this it is refused. */
export const MAX_PATCHED_DOWNLOAD_BYTES = 1024 * 1024 * 1024

/** One inserted page: its entry in the patch zip and where it goes. */
export type PatchPage = { name: string; after_filename?: string; before_filename?: string }

/** A page to insert: its bytes, the name it had where it came from, its anchor. */
export type Insertion = {
  data: Uint8Array
  sourceName: string
  after_filename?: string
  before_filename?: string
}

export type Patch = { pages: PatchPage[] }

/** A unique entry name: patches merged later or made again never reuse one (page etags). */
function entryNameFor(sourceName: string): string {
  return `${crypto.randomUUID().slice(0, 8)}-${basename(sourceName)}`
}

/** Zip bytes of a patch: the page images, then the manifest. */
export function buildPatchZip(pages: readonly (PatchPage & { data: Uint8Array })[]): Uint8Array {
  const manifest: Patch = {
    pages: pages.map(({ name, after_filename, before_filename }) => ({
      name,
      ...(after_filename === undefined ? {} : { after_filename }),
      ...(before_filename === undefined ? {} : { before_filename }),
    })),
  }
  return writeZip([
    ...pages.map((p) => ({ name: p.name, data: p.data })),
    { name: PATCH_MANIFEST, data: new TextEncoder().encode(JSON.stringify(manifest, null, 2)) },
  ])
}

/** New pages named for a patch zip. */
export function namedInsertions(insertions: readonly Insertion[]) {
  return insertions.map((i) => ({
    name: entryNameFor(i.sourceName),
    data: i.data,
    after_filename: i.after_filename,
    before_filename: i.before_filename,
  }))
}

const optionalText = (value: unknown) => value === undefined || typeof value === 'string'

/**
 * The manifest of the patch at `patchPath`, keeping only pages that are in the zip (the file sits
 * in the content folder: read as untrusted). Null when there is no readable patch.
 */
export async function readPatch(
  deps: Pick<Deps, 'reader'>,
  patchPath: string,
): Promise<Patch | null> {
  try {
    const [raw, pages] = await Promise.all([
      deps.reader.readEntry(patchPath, PATCH_MANIFEST, MAX_MANIFEST_BYTES),
      deps.reader.listPages(patchPath),
    ])
    if (!raw) return null
    const parsed = JSON.parse(new TextDecoder().decode(raw)) as { pages?: unknown }
    if (!Array.isArray(parsed.pages)) return null
    const present = new Set(pages)
    const kept = (parsed.pages as Record<string, unknown>[]).filter(
      (p): p is PatchPage =>
        typeof p === 'object' &&
        p !== null &&
        typeof p.name === 'string' &&
        present.has(p.name) &&
        optionalText(p.after_filename) &&
        optionalText(p.before_filename),
    )
    return { pages: kept }
  } catch (error) {
    if (error instanceof SyntaxError || (error instanceof AppError && error.code !== 'internal')) {
      log.warn('patch not readable', { patchPath, error: error.message })
      return null
    }
    throw error
  }
}

/**
 * The archive's pages with the patch's inserted after (or before) their anchors, in manifest
 * order among pages sharing an anchor; a page whose anchor is gone goes last.
 */
export function mergePatchPages(own: readonly string[], patch: Patch): string[] {
  const after = new Map<string, string[]>()
  const before = new Map<string, string[]>()
  const last: string[] = []
  const ownSet = new Set(own)
  for (const page of patch.pages) {
    const listed = PATCH_PAGE_PREFIX + page.name
    if (page.after_filename !== undefined && ownSet.has(page.after_filename))
      after.set(page.after_filename, [...(after.get(page.after_filename) ?? []), listed])
    else if (page.before_filename !== undefined && ownSet.has(page.before_filename))
      before.set(page.before_filename, [...(before.get(page.before_filename) ?? []), listed])
    else last.push(listed)
  }
  const merged: string[] = []
  for (const page of own) merged.push(...(before.get(page) ?? []), page, ...(after.get(page) ?? []))
  return [...merged, ...last]
}

export function patchPathOfRow(deps: Pick<Deps, 'config'>, row: ArchiveRow): string {
  return patchPathOf(toAbsolutePath(deps.config.contentDir, row.path))
}

/** The pages of a patch with their bytes, to carry them into a new patch. */
async function patchPagesWithBytes(deps: Pick<Deps, 'reader'>, patchPath: string) {
  const patch = await readPatch(deps, patchPath)
  if (!patch) return []
  return Promise.all(
    patch.pages.map(async (p) => ({ ...p, data: await deps.reader.readPage(patchPath, p.name) })),
  )
}

/** Writes aside (a temp name the scanner skips) and renames over. */
async function writePatchFile(path: string, bytes: Uint8Array): Promise<void> {
  const aside = `${path}${TEMP_MARKER}${crypto.randomUUID()}`
  try {
    await Bun.write(aside, bytes)
    await rename(aside, path)
  } catch (error) {
    await rm(aside, { force: true })
    throw error
  }
}

/**
 * Adds `insertions` to the archive's patch (made when it has none, merged with the one it has):
 * has_patch set and pagecount counting the inserted pages, in one commit after the file is in
 * place. Page thumbnails are made again, since page numbers after an insertion moved.
 */
export function addToPatch(
  deps: Pick<Deps, 'config' | 'db' | 'events' | 'locks' | 'reader'>,
  row: ArchiveRow,
  insertions: readonly Insertion[],
): Promise<ArchiveRow> {
  return deps.locks.withLock(row.id, async () => {
    // Read again under the lock: a patch written since `row` was read is merged, not replaced.
    const current = findArchive(deps.db, row.id)
    if (!current) throw fail.bad_request(`No archive with ID ${row.id}.`)
    const patchPath = patchPathOfRow(deps, current)
    const kept = current.hasPatch ? await patchPagesWithBytes(deps, patchPath) : []
    const pages = [...kept, ...namedInsertions(insertions)]
    await writePatchFile(patchPath, buildPatchZip(pages))
    deps.reader.dropCached(patchPath)
    const own = readArchivePages(deps.db, row.id) ?? []
    const updated = commit(deps, (w) =>
      patchArchive(w, row.id, { hasPatch: true, pagecount: own.length + pages.length }),
    )
    if (!updated) throw fail.bad_request(`No archive with ID ${row.id}.`)
    return updated
  })
}

/** The archive's own page count, once its patch is gone. */
export function ownPageCount(deps: Pick<Deps, 'db'>, row: ArchiveRow): number {
  return readArchivePages(deps.db, row.id)?.length ?? row.pagecount
}

/**
 * The page list of an archive as every reader sees it (files, page, thumbnails, download): its own
 * pages, with its patch's pages placed when it has one.
 */
export async function pageListOf(
  deps: Pick<Deps, 'db' | 'reader' | 'config'>,
  row: ArchiveRow,
): Promise<string[]> {
  const own = readArchivePages(deps.db, row.id) ?? []
  if (!row.hasPatch) return own
  const patch = await readPatch(deps, patchPathOfRow(deps, row))
  return patch ? mergePatchPages(own, patch) : own
}

/** Bytes of a page of that list (the caller checked it is in the list). */
export function readListedPage(
  deps: Pick<Deps, 'reader' | 'config'>,
  row: ArchiveRow,
  entry: string,
): Promise<Uint8Array<ArrayBuffer>> {
  if (row.hasPatch && entry.startsWith(PATCH_PAGE_PREFIX))
    return deps.reader.readPage(patchPathOfRow(deps, row), entry.slice(PATCH_PAGE_PREFIX.length))
  return deps.reader.readPage(toAbsolutePath(deps.config.contentDir, row.path), entry)
}

/** That page as a body to stream (archive/types.ts, openPage). */
export function openListedPage(
  deps: Pick<Deps, 'reader' | 'config'>,
  row: ArchiveRow,
  entry: string,
): Promise<PageBody> {
  if (row.hasPatch && entry.startsWith(PATCH_PAGE_PREFIX))
    return deps.reader.openPage(patchPathOfRow(deps, row), entry.slice(PATCH_PAGE_PREFIX.length))
  return deps.reader.openPage(toAbsolutePath(deps.config.contentDir, row.path), entry)
}

/**
 * A patched archive as one zip of its pages in reading order, named `0001-<page>` so every reader
 * orders them alike. Held in memory (bounded by MAX_PATCHED_DOWNLOAD_BYTES): patched archives are
 * few, and the archive without its patch still streams from disk.
 */
export async function buildPatchedArchive(
  deps: Pick<Deps, 'config' | 'db' | 'reader'>,
  row: ArchiveRow,
): Promise<Uint8Array> {
  if (row.size > MAX_PATCHED_DOWNLOAD_BYTES)
    throw fail.unprocessable('This archive is too large to download with its patch.')
  const pages = await pageListOf(deps, row)
  const width = Math.max(4, String(pages.length).length)
  const entries = []
  for (const [index, entry] of pages.entries())
    entries.push({
      name: `${String(index + 1).padStart(width, '0')}-${basename(entry)}`,
      data: await readListedPage(deps, row, entry),
    })
  return writeZip(entries)
}
