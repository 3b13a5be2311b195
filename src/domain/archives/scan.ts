// The rescan job: walks the content folder (walk.ts: links followed, loops and unreachable
// entries skipped), catalogues new files, follows moves and changes, hides rows whose file is
// gone or became unreadable. Unchanged files (path, size, mtime) of shown rows are never re-read;
// a hidden row's file is, so a file that came back is shown again.
// Snake_case kept: ScanResult (`existing_id`) is the rescan job's result, stored as the job's JSON
// and answered as-is by the job routes (JobStatus `result`).
import { existsSync } from 'node:fs'
import { stat } from 'node:fs/promises'
import type { Deps } from '../../deps.ts'
import type { Progress } from '../../model/progress.ts'
import { findArchive, readArchivePages } from '../../db/repos/archives.repo.ts'
import { commit, type Write } from '../commit.ts'
import { AppError } from '../../errors.ts'
import {
  computeArchiveId,
  hasFolderAbove,
  splitFileName,
  toAbsolutePath,
  toContentPath,
} from './files.ts'
import { insertCatalogRow, type ReadArchive } from './catalog-row.ts'
import { hideArchive, patchArchive } from './save.ts'
import { reasonOf, walkArchiveFiles, walkArchiveFilesUnder } from './walk.ts'
import { readCatalogFiles, type CatalogFiles } from './catalog-files.ts'
import { collectAfterPass } from '../../model/large-pass.ts'
import { eachLimited } from '../../model/each-limited.ts'
import { deleteThumbnails } from './thumbnails.ts'

/** Files read in parallel: hashing and directory reads are I/O bound. */
const SCAN_PARALLELISM = 8
/**
 * Files stat'ed in parallel. At a million unchanged files one at a time took 16.3 s, sixteen at
 * a time 2.9 s.
 */
const STAT_PARALLELISM = 16
/**
 * Rows written per transaction. A transaction holds the server's one thread (each row also
 * updates the search index and its subscribers), so a search waits for the batch in progress:
 * smaller batches bound that wait (bench/plugins.ts, 2,000 archives, search p95 while scanning
 * 29.5 ms at 250 against 23.6 ms at 50, the scan's rate unchanged within noise).
 */
const WRITE_BATCH = 50

export type ScanResult = {
  scanned: number
  added: number
  updated: number
  moved: number
  unlinked: number
  duplicates: { path: string; existing_id: string }[]
  unreadable: { path: string; reason: string }[]
}

type Found = { absPath: string; path: string; size: number; mtimeMs: number }
type Read = Found & ReadArchive

/** One server's unreadable files, by (path, size, mtime), so a rescan does not retry them. */
export type UnreadableFiles = {
  /** Whether the file at `path` failed to read while it had this size and mtime. */
  has(path: string, size: number, mtimeMs: number): boolean
  remember(path: string, size: number, mtimeMs: number): void
}

export function createUnreadableFiles(): UnreadableFiles {
  const stamps = new Set<string>()
  return {
    has: (path, size, mtimeMs) => stamps.has(`${path}|${size}|${mtimeMs}`),
    remember(path, size, mtimeMs) {
      stamps.add(`${path}|${size}|${mtimeMs}`)
    },
  }
}

export type ScanOptions = {
  /** Counts the changed files read. */
  progress?: Progress
  /** Stops the pass between files. */
  signal?: AbortSignal
  /**
   * Content-relative files or folders (none of them the content folder itself) the pass is
   * limited to: only rows at or under them can be found gone.
   */
  paths?: readonly string[]
  /** Called with each archive the pass added, moved or refreshed from its file. */
  onCatalogued?: (id: string) => void
}

export async function scanContentFolder(
  deps: Pick<Deps, 'archives' | 'config' | 'db' | 'events' | 'reader'>,
  { progress, signal, paths, onCatalogued }: ScanOptions = {},
): Promise<ScanResult> {
  const { contentDir } = deps.config
  const result: ScanResult = {
    scanned: 0,
    added: 0,
    updated: 0,
    moved: 0,
    unlinked: 0,
    duplicates: [],
    unreadable: [],
  }
  const scope = paths && !paths.includes('') ? outermost(paths) : undefined
  const walk = scope
    ? await walkArchiveFilesUnder(contentDir, scope)
    : await walkArchiveFiles(contentDir)
  const files = walk.files
  result.unreadable.push(...walk.unreadable)
  // The walk's garbage (its folder entries) is as large as what it keeps: collected before the
  // catalogue is read, a million files' rescan peaked ~0.3 GB lower.
  collectAfterPass(files.length)
  const known = readCatalogFiles(deps.db, scope)
  // Files to read, in walk order (the first of two identical files is the one catalogued).
  const changed: (Found & { order: number })[] = []
  await eachLimited(files, STAT_PARALLELISM, async (absPath, order) => {
    const path = toContentPath(contentDir, absPath)
    const st = await stat(absPath).catch((error: unknown) => {
      // Gone or out of reach since the walk listed it.
      result.unreadable.push({ path, reason: reasonOf(error) })
      return null
    })
    if (!st) return
    const mtimeMs = Math.floor(st.mtimeMs)
    if (known.found(path, st.size, mtimeMs)) return
    if (deps.archives.unreadable.has(path, st.size, mtimeMs)) return
    changed.push({ absPath, path, size: st.size, mtimeMs, order })
  })
  changed.sort((a, b) => a.order - b.order)
  result.scanned = files.length

  // Rows whose file disappeared: candidates for a move (same id found elsewhere) or unlinking.
  // Files under a folder that could not be listed are out of sight, not gone.
  const unseen = (path: string) =>
    walk.skippedDirs.some((dir) => path === dir || path.startsWith(`${dir}/`))
  const vanished = new Map<string, string>()
  for (const row of known.notFound()) if (!unseen(row.path)) vanished.set(row.id, row.path)

  let done = 0
  // Archives whose file changed past the hashed prefix: their thumbnails show the old pages.
  const staleThumbnails: string[] = []
  const batch: Read[] = []
  const failed: (Found & { reason: string })[] = []
  const flush = () => {
    if (batch.length === 0) return
    commit(deps, (w) => {
      for (const item of batch.splice(0))
        if (applyRead(deps, w, item, known, vanished, result, staleThumbnails))
          onCatalogued?.(item.id)
    })
  }
  // Reads end in any order and are applied in walk order, so the first of two identical files
  // is the one catalogued whichever read ends first.
  const ended = new Map<number, Read | (Found & { reason: string })>()
  let nextApplied = 0
  await eachLimited(
    changed,
    SCAN_PARALLELISM,
    async (item, at) => {
      ended.set(at, await readArchiveFile(deps, item, result))
      for (let read = ended.get(nextApplied); read; read = ended.get(nextApplied)) {
        ended.delete(nextApplied++)
        if ('reason' in read) failed.push(read)
        else batch.push(read)
      }
      if (batch.length >= WRITE_BATCH) flush()
      done++
      progress?.(done, changed.length)
    },
    signal,
  )
  flush()

  commit(deps, (w) => {
    for (const item of failed) hideUnreadable(deps, w, item, known, result)
    for (const [id, path] of vanished) {
      const row = findArchive(deps.db, id)
      if (!row || row.path !== path || row.unlinked) continue
      hideArchive(w, id)
      deps.reader.dropCached(toAbsolutePath(contentDir, path))
      result.unlinked++
    }
  })
  // The rescan job's `thumbnails` pass then makes the missing covers again from the new pages.
  for (const id of staleThumbnails) await deleteThumbnails(deps, id)
  return result
}

/** The paths none of the others holds (a folder and a file in it: the folder). */
function outermost(paths: readonly string[]): string[] {
  const kept = new Set<string>()
  // Sorted, a folder comes before everything under it.
  for (const path of [...new Set(paths)].sort()) if (!hasFolderAbove(kept, path)) kept.add(path)
  return [...kept]
}

async function readArchiveFile(
  deps: Pick<Deps, 'archives' | 'reader'>,
  item: Found,
  result: ScanResult,
): Promise<Read | (Found & { reason: string })> {
  try {
    const [id, pages] = await Promise.all([
      computeArchiveId(item.absPath),
      deps.reader.listPages(item.absPath),
    ])
    return { ...item, id, pages }
  } catch (error) {
    const reason = error instanceof AppError ? error.message : 'unreadable archive'
    deps.archives.unreadable.remember(item.path, item.size, item.mtimeMs)
    result.unreadable.push({ path: item.path, reason })
    return { ...item, reason }
  }
}

/**
 * A catalogued file that can no longer be read (truncated, corrupted) is hidden like a vanished
 * one: out of listings and search, metadata kept, so the repaired file is shown again.
 */
function hideUnreadable(
  deps: Pick<Deps, 'db' | 'reader'>,
  w: Write,
  item: Found & { reason: string },
  known: CatalogFiles,
  result: ScanResult,
): void {
  const atPath = known.get(item.path)
  const row = atPath && findArchive(deps.db, atPath.id)
  // The row may have followed its own file elsewhere during this scan.
  if (!row || row.path !== item.path) return
  hideArchive(w, row.id, { unreadable: item.reason })
  deps.reader.dropCached(item.absPath)
  if (!row.unlinked) result.unlinked++
}

function applyRead(
  deps: Pick<Deps, 'config' | 'db' | 'reader'>,
  w: Write,
  item: Read,
  known: CatalogFiles,
  vanished: Map<string, string>,
  result: ScanResult,
  staleThumbnails: string[],
): boolean {
  const atPath = known.get(item.path)
  const existing = findArchive(deps.db, item.id)
  const stamps = {
    size: item.size,
    mtimeMs: item.mtimeMs,
    pagecount: item.pages.length,
    unreadable: null,
  }

  if (existing && existing.path === item.path) {
    // Same file, changed past the hashed prefix, or back where it was after being hidden:
    // refresh stamps and pages, keep metadata. Changed bytes make its thumbnails stale, and
    // progress may not point past the new last page.
    const rewritten = existing.size !== item.size || existing.mtimeMs !== item.mtimeMs
    if (rewritten) staleThumbnails.push(item.id)
    // A patch's pages stay in the count: they are placed among the new pages (or last, when
    // their anchors are gone) until the patch is deleted.
    const patchPages = existing.hasPatch
      ? Math.max(0, existing.pagecount - (readArchivePages(w.db, item.id)?.length ?? 0))
      : 0
    const pagecount = item.pages.length + patchPages
    const progress = Math.min(existing.progress, pagecount)
    patchArchive(w, item.id, { ...stamps, pagecount, progress, unlinked: false }, item.pages)
    deps.reader.dropCached(item.absPath)
    if (existing.unlinked) result.moved++
    else result.updated++
    return true
  }
  if (existing && (vanished.has(item.id) || existing.unlinked || isGone(deps, existing.path))) {
    // The file moved (or came back): follow it, keep its metadata. A pass over some paths never
    // looked at the row's own path, so a move whose source event was lost is told by its file.
    if (atPath && atPath.id !== item.id) displace(w, atPath, item.path, result)
    patchArchive(
      w,
      item.id,
      { ...stamps, ...splitFileName(item.absPath), path: item.path, unlinked: false },
      item.pages,
    )
    vanished.delete(item.id)
    result.moved++
    return true
  }
  if (existing) {
    result.duplicates.push({ path: item.path, existing_id: item.id })
    return false
  }
  if (atPath && atPath.id !== item.id) displace(w, atPath, item.path, result)
  insertCatalogRow(deps, w, item.absPath, item, item)
  result.added++
  return true
}

/**
 * Whether nothing is at a row's path any more: asked only of a file whose id the catalogue holds
 * under another path, before calling it a duplicate.
 */
function isGone(deps: Pick<Deps, 'config'>, path: string): boolean {
  return !existsSync(toAbsolutePath(deps.config.contentDir, path))
}

/**
 * Another file took the place of a row's file. The old row keeps its metadata, unlinked, under a
 * path no file can have (paths are unique), until database/clean deletes it or its file returns.
 */
function displace(
  w: Write,
  old: { id: string; unlinked: boolean },
  path: string,
  result: ScanResult,
): void {
  hideArchive(w, old.id, { path: `${path}#replaced-${old.id}` })
  if (!old.unlinked) result.unlinked++
}
