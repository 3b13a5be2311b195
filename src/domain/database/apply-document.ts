// Writes a backup document into the library inside one open write (restore, legacy import): the
// archives it names get their metadata, its categories and Tankoubons are created or updated. An
// archive is matched by id, then by file name (a file whose name only one archive here carries);
// one the library does not have is skipped and counted: its metadata has no file to belong to.
// Every row goes through its writer; the caller's commit() makes the whole document one
// transaction, so a failure part way leaves the library as it was.
// Snake_case kept: ApplyCounts is the restore and legacy-import jobs' result, stored as the job's
// JSON and answered as-is by the job routes (JobStatus `result`).
import { findArchive } from '../../db/repos/archives.repo.ts'
import { findCategory, listCategoryMembers } from '../../db/repos/categories.repo.ts'
import { archiveIdsByFilename } from '../../db/repos/database.repo.ts'
import { findTankoubon, listTankMembers } from '../../db/repos/tankoubons.repo.ts'
import { joinTags, normalizeTags, splitTags, tagNamespace } from '../../model/tags.ts'
import type { Write } from '../commit.ts'
import { patchArchive, type ArchivePatch } from '../archives/save.ts'
import { addMember, insertCategoryRow, patchCategory } from '../collections/category-save.ts'
import { insertTankoubonRow, patchTankoubon } from '../collections/tank-save.ts'
import { repairTagsWith } from './mojibake.ts'
import type {
  BackupArchive,
  BackupCategory,
  BackupDocument,
  BackupTankoubon,
} from './backup-document.ts'

/**
 * What happens to a record the library already has. `overwrite`: the document's fields replace
 * ours (a restore). `merge`: tags and members are unioned, a field is taken from the document only
 * where ours is empty or untouched. `skip`: records the library has are left as they are, except
 * archives whose metadata was never edited here (see `isUntouched`).
 */
export type ExistingMode = 'overwrite' | 'merge' | 'skip'

export type ApplyOptions = {
  mode: ExistingMode
  /** Applied to every text field read from the document (legacy import's mojibake repair). */
  clean?: (text: string) => string
}

export type ApplyCounts = {
  /** Archives whose metadata was written. */
  updated: number
  /** Of those, matched by file name because their id is not in this library. */
  matched_by_filename: number
  /** Archives of the document with no file here. */
  skipped_missing: number
  /** Archives left as they were (mode `skip`, or nothing to change). */
  skipped_existing: number
  categories_created: number
  categories_updated: number
  categories_skipped: number
  tankoubons_created: number
  tankoubons_updated: number
  tankoubons_skipped: number
  /** Collection members naming an archive (or Tankoubon) the library does not have. */
  skipped_memberships: number
}

const now = () => Math.floor(Date.now() / 1000)

/** Unioned tag lists, ours first; the canonical joined form. */
const unionTags = (ours: string, theirs: string) => joinTags(splitTags(`${ours},${theirs}`))

/** Cataloguing gives a title from the file name and a date_added: tag; nothing else was set. */
function isUntouched(row: { title: string; filename: string; tags: string; summary: string }) {
  return (
    row.title === row.filename &&
    row.summary === '' &&
    splitTags(row.tags).every((tag) => tagNamespace(tag) === 'date_added')
  )
}

/** The toc's entries within the archive's pages (the API refuses a page past the end), or null. */
function tocWithin(toc: string, pagecount: number): string | null {
  const entries = Object.entries(JSON.parse(toc) as Record<string, string>)
  // An empty one says the archive has none (an import snapshot's "{}"): kept as it is.
  if (entries.length === 0) return toc
  const kept = entries.filter(([page]) => Number(page) <= pagecount)
  if (kept.length === 0) return null
  return kept.length === entries.length ? toc : JSON.stringify(Object.fromEntries(kept))
}

function archivePatch(
  row: NonNullable<ReturnType<typeof findArchive>>,
  record: BackupArchive,
  options: ApplyOptions,
): ArchivePatch | null {
  const clean = options.clean ?? ((text: string) => text)
  const title = clean(record.title).trim()
  const tags = normalizeTags(repairTagsWith(record.tags, clean))
  const summary = clean(record.summary ?? '')
  const mode = options.mode === 'skip' && isUntouched(row) ? 'overwrite' : options.mode
  if (mode === 'skip') return null
  const patch: ArchivePatch =
    mode === 'overwrite'
      ? { title: title || row.title, tags, summary }
      : {
          title: row.title === row.filename && title ? title : row.title,
          tags: unionTags(row.tags, tags),
          summary: row.summary === '' ? summary : row.summary,
        }
  const toc = record.toc ? tocWithin(record.toc, row.pagecount) : null
  if (toc && toc !== row.toc && (mode === 'overwrite' || row.toc === '{}')) patch.toc = toc
  // The hash of the cover the file's id made there; ours is set again whenever a cover is made.
  if (row.thumbhash === null && record.thumbhash) patch.thumbhash = record.thumbhash
  const changed = (Object.keys(patch) as (keyof ArchivePatch)[]).some(
    (key) => patch[key] !== row[key],
  )
  return changed ? patch : null
}

export function emptyCounts(): ApplyCounts {
  return {
    updated: 0,
    matched_by_filename: 0,
    skipped_missing: 0,
    skipped_existing: 0,
    categories_created: 0,
    categories_updated: 0,
    categories_skipped: 0,
    tankoubons_created: 0,
    tankoubons_updated: 0,
    tankoubons_skipped: 0,
    skipped_memberships: 0,
  }
}

/** Writes `doc` through the writers; answers what it did. */
export function applyBackupDocument(
  w: Write,
  doc: BackupDocument,
  options: ApplyOptions,
): ApplyCounts {
  const counts = emptyCounts()
  const local = matchArchives(w, doc.archives)
  for (const record of doc.archives) applyArchive(w, record, local, options, counts)
  // Tankoubons first: categories may list them.
  for (const tank of doc.tankoubons) applyTankoubon(w, tank, local, options, counts)
  for (const category of doc.categories) applyCategory(w, category, local, options, counts)
  return counts
}

/** The document's metadata on its archive here (`local`: matchArchives), if any. */
export function applyArchive(
  w: Write,
  record: BackupArchive,
  local: Map<string, string>,
  options: ApplyOptions,
  counts: ApplyCounts,
): void {
  const id = local.get(record.arcid)
  const row = id === undefined ? undefined : findArchive(w.db, id)
  if (!row) {
    counts.skipped_missing++
    return
  }
  const patch = archivePatch(row, record, options)
  if (!patch) {
    counts.skipped_existing++
    return
  }
  patchArchive(w, row.id, patch)
  counts.updated++
  if (row.id !== record.arcid) counts.matched_by_filename++
}

/**
 * The library's id for each archive of the document: its own when the library has it, else the
 * one archive here with its file name (never one the document names under its own id).
 */
export function matchArchives(w: Write, records: readonly BackupArchive[]): Map<string, string> {
  const out = new Map<string, string>()
  const named = new Set(records.map((r) => r.arcid))
  let byFilename: Map<string, string[]> | undefined
  const claimed = new Set<string>()
  for (const record of records) {
    if (findArchive(w.db, record.arcid)) {
      out.set(record.arcid, record.arcid)
      claimed.add(record.arcid)
    }
  }
  for (const record of records) {
    if (out.has(record.arcid) || record.filename === '') continue
    byFilename ??= archiveIdsByFilename(w.db)
    const candidates = (byFilename.get(record.filename) ?? []).filter(
      (id) => !named.has(id) && !claimed.has(id),
    )
    // Two files of one name: which one the record meant is a guess, and a wrong guess overwrites.
    if (candidates.length !== 1) continue
    out.set(record.arcid, candidates[0]!)
    claimed.add(candidates[0]!)
  }
  return out
}

/** Member ids mapped to this library's archives; ids with nothing behind them are dropped. */
export function mapMembers(
  w: Write,
  ids: readonly string[],
  local: Map<string, string>,
  counts: ApplyCounts,
): string[] {
  const out: string[] = []
  const seen = new Set<string>()
  for (const id of ids) {
    const mapped = id.startsWith('TANK_')
      ? findTankoubon(w.db, id)
        ? id
        : undefined
      : (local.get(id) ?? (findArchive(w.db, id) ? id : undefined))
    if (mapped === undefined) {
      counts.skipped_memberships++
      continue
    }
    if (seen.has(mapped)) continue
    seen.add(mapped)
    out.push(mapped)
  }
  return out
}

export function applyTankoubon(
  w: Write,
  tank: BackupTankoubon,
  local: Map<string, string>,
  options: ApplyOptions,
  counts: ApplyCounts,
): void {
  const clean = options.clean ?? ((text: string) => text)
  const members = mapMembers(w, tank.archives, local, counts)
  const name = clean(tank.name).trim() || tank.tankid
  const summary = clean(tank.summary ?? '')
  const tags = normalizeTags(repairTagsWith(tank.tags ?? '', clean))
  const existing = findTankoubon(w.db, tank.tankid)
  if (!existing) {
    insertTankoubonRow(w, { id: tank.tankid, name, summary, tags, createdAt: now() })
    patchTankoubon(w, tank.tankid, { name }, members)
    counts.tankoubons_created++
    return
  }
  if (options.mode === 'skip') {
    counts.tankoubons_skipped++
    return
  }
  if (options.mode === 'overwrite') patchTankoubon(w, tank.tankid, { name, summary, tags }, members)
  else {
    const ours = listTankMembers(w.db, tank.tankid)
    const merged = [...ours, ...members.filter((id) => !ours.includes(id))]
    patchTankoubon(
      w,
      tank.tankid,
      {
        tags: unionTags(existing.tags, tags),
        summary: existing.summary === '' ? summary : existing.summary,
      },
      merged,
    )
  }
  counts.tankoubons_updated++
}

export function applyCategory(
  w: Write,
  category: BackupCategory,
  local: Map<string, string>,
  options: ApplyOptions,
  counts: ApplyCounts,
): void {
  const clean = options.clean ?? ((text: string) => text)
  const search = clean(category.search ?? '').trim()
  // A dynamic category has no members (LANraragi's restore skips them too).
  const members = search === '' ? mapMembers(w, category.archives ?? [], local, counts) : []
  const name = clean(category.name ?? '').trim() || category.catid
  const existing = findCategory(w.db, category.catid)
  if (!existing) {
    insertCategoryRow(w, {
      id: category.catid,
      name,
      search,
      pinned: category.pinned ?? false,
      visibleToGuest: category.visible_to_guest ?? false,
      createdAt: now(),
    })
    for (const member of members) addMember(w, category.catid, member)
    counts.categories_created++
    return
  }
  if (options.mode === 'skip') {
    counts.categories_skipped++
    return
  }
  if (options.mode === 'overwrite') {
    patchCategory(
      w,
      category.catid,
      {
        name,
        search,
        ...(category.pinned === undefined ? {} : { pinned: category.pinned }),
        ...(category.visible_to_guest === undefined
          ? {}
          : { visibleToGuest: category.visible_to_guest }),
      },
      { clearMembers: true },
    )
    for (const member of members) addMember(w, category.catid, member)
  } else if (existing.search === '') {
    // Merge: a static category gains the members it lacks, in the document's order.
    const ours = new Set(listCategoryMembers(w.db, category.catid))
    for (const member of members) if (!ours.has(member)) addMember(w, category.catid, member)
  }
  counts.categories_updated++
}
