// The backup document (docs/maintenance.md) in LANraragi's shape: what GET /api/database/backup
// answers, the backup job writes, restore and legacy import read, and snapshots hold. Reading one
// checks every record before anything is written, so a bad file is a 400, never half a restore.
// Snake_case kept: the backup document format (`visible_to_guest`), written to files and read back.
import type { Db } from '../../db/client.ts'
import { listCategoryRows, membersByCategory } from '../../db/repos/categories.repo.ts'
import { listBackupArchiveRows } from '../../db/repos/database.repo.ts'
import { findTankoubonsWithMembers } from '../../db/repos/tankoubons.repo.ts'
import { fail } from '../../errors.ts'
import { isArchiveId, isCategoryId, isTankoubonId } from '../../model/ids.ts'
import { MAX_TOC_TITLE_CHARS } from '../archives/edit.ts'
import { MAX_METADATA_TEXT_LENGTH, MAX_TITLE_LENGTH } from '../archives/metadata-text.ts'
import { LINE_BREAKS } from '../../model/tags.ts'
import { MAX_CATEGORY_NAME_LENGTH } from '../collections/categories.ts'
import { MAX_TANKOUBON_NAME_LENGTH } from '../collections/tankoubons.ts'

export type BackupArchive = {
  arcid: string
  title: string
  tags: string
  summary: string | null
  filename: string
  thumbhash?: string | null
  /** JSON object page -> chapter title, as LANraragi writes it (a string); absent when none. */
  toc?: string | null
}

export type BackupCategory = {
  catid: string
  name?: string
  search?: string
  archives?: string[]
  /** Ours, beyond LANraragi's record: kept so a round trip loses nothing. */
  pinned?: boolean
  visible_to_guest?: boolean
}

export type BackupTankoubon = {
  tankid: string
  name: string
  summary?: string
  tags?: string
  archives: string[]
}

export type BackupDocument = {
  archives: BackupArchive[]
  categories: BackupCategory[]
  tankoubons: BackupTankoubon[]
}

const THUMBHASH = /^[0-9a-f]{40}$/

/**
 * Members a category or Tankoubon of a document may list. The API adds members a few at a time;
 * a document listing a million made one restore hold the server for 13 minutes.
 */
export const MAX_RESTORE_MEMBERS = 100_000

/**
 * The whole library as a backup document: hidden archives included, their metadata is theirs.
 * `toc` is written only where an archive has one, as LANraragi writes it; a snapshot (`everyToc`)
 * writes `"{}"` for the others too, so that restoring it (an import's rollback) takes away a table
 * of contents added since, where a missing field leaves the stored one alone.
 */
export function buildBackupDocument(db: Db, options: { everyToc?: boolean } = {}): BackupDocument {
  const archives = listBackupArchiveRows(db).map((row): BackupArchive => {
    const archive: BackupArchive = {
      arcid: row.id,
      title: row.title,
      tags: row.tags,
      summary: row.summary,
      filename: row.filename,
      thumbhash: row.thumbhash && THUMBHASH.test(row.thumbhash) ? row.thumbhash : null,
    }
    if (row.toc !== '{}' || options.everyToc) archive.toc = row.toc
    return archive
  })
  const categoryRows = listCategoryRows(db)
  const members = membersByCategory(
    db,
    categoryRows.map((row) => row.id),
  )
  const categories = categoryRows.map((row): BackupCategory => ({
    catid: row.id,
    name: row.name,
    search: row.search,
    archives: row.search === '' ? (members.get(row.id) ?? []) : [],
    pinned: row.pinned,
    visible_to_guest: row.visibleToGuest,
  }))
  const tankoubons = findTankoubonsWithMembers(db).map(({ row, members }): BackupTankoubon => ({
    tankid: row.id,
    name: row.name,
    summary: row.summary,
    tags: row.tags,
    archives: members,
  }))
  return { archives, categories, tankoubons }
}

type Json = Record<string, unknown>

const bad = (message: string) => fail.bad_request(`Invalid backup: ${message}`)
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

/** A string field, `null`/absent as `fallback`; anything else is a 400 naming the field. */
function stringField(record: Json, key: string, where: string, fallback = ''): string {
  const v = record[key]
  if (v === undefined || v === null) return fallback
  // LANraragi's JSON writer emits a numeric-looking Perl string ("2023") as a number.
  if (typeof v === 'number' && Number.isFinite(v)) return String(v)
  if (typeof v !== 'string') throw bad(`${where} '${key}' must be a string.`)
  return v
}

/** A name the API would take: present and not blank (it refuses an empty one). */
function nameField(record: Json, where: string, max: number): string {
  const name = cappedField(record, 'name', where, max)
  if (name.trim() === '') throw bad(`${where} has no name.`)
  return name
}

/**
 * Tags as a document lists them. A line break separates two tags here: the API deletes line
 * breaks as LANraragi does, which would merge `a:b<newline>c:d` into one tag.
 */
function tagsField(record: Json, where: string): string {
  return cappedField(record, 'tags', where, MAX_METADATA_TEXT_LENGTH).replace(LINE_BREAKS, ',')
}

/** stringField, refused past `max` (the API's own cap on that field) before anything is written. */
function cappedField(record: Json, key: string, where: string, max: number): string {
  const v = stringField(record, key, where)
  if (v.trim().length > max) throw bad(`${where} '${key}' is longer than ${max} characters.`)
  return v
}

function idList(record: Json, where: string, accept: (id: string) => boolean): string[] {
  const v = record.archives
  if (v === undefined || v === null) return []
  if (!Array.isArray(v)) throw bad(`${where} archives must be an array.`)
  if (v.length > MAX_RESTORE_MEMBERS)
    throw bad(`${where} lists more than ${MAX_RESTORE_MEMBERS} members.`)
  return v.map((id) => {
    const lower = typeof id === 'string' && !id.startsWith('TANK_') ? id.toLowerCase() : id
    if (typeof lower !== 'string' || !accept(lower))
      throw bad(`${where} lists an invalid archive id.`)
    return lower
  })
}

/**
 * LANraragi writes toc as a JSON string of page -> title; an object is taken too. Like LANraragi,
 * which reads a broken toc as none, a bad toc is dropped rather than refusing the whole backup,
 * and so is an entry that is not a page and a title, or whose title the API would refuse as too
 * long. Pages past the archive's end are dropped when it is written (apply-document.ts). An empty
 * one (`"{}"`) is kept as `'{}'`: the document says the archive has none. Null: the document says
 * nothing of it.
 */
function tocField(record: Json): string | null {
  const v = record.toc
  let parsed: unknown = v
  if (typeof v === 'string') {
    try {
      parsed = JSON.parse(v)
    } catch {
      return null
    }
  }
  if (!isObject(parsed)) return null
  const toc: Record<string, string> = {}
  for (const [page, title] of Object.entries(parsed))
    if (
      /^[1-9][0-9]{0,8}$/.test(page) &&
      typeof title === 'string' &&
      [...title].length <= MAX_TOC_TITLE_CHARS
    )
      toc[page] = title
  if (Object.keys(parsed).length === 0) return '{}'
  return Object.keys(toc).length > 0 ? JSON.stringify(toc) : null
}

/**
 * Checks a backup document as LANraragi's restore does (archives and categories arrays required,
 * tankoubons optional), with ids in their formats; answers it with absent fields filled in.
 */
export function parseBackupDocument(text: string): BackupDocument {
  let root: unknown
  try {
    // A byte order mark, as some editors save JSON, is not part of the document.
    root = JSON.parse(text.replace(/^\uFEFF/, ''))
  } catch {
    throw bad('the file is not JSON.')
  }
  if (!isObject(root)) throw bad('the root must be an object.')
  for (const key of ['archives', 'categories'])
    if (!Array.isArray(root[key])) throw bad(`'${key}' must be an array.`)
  if (root.tankoubons !== undefined && !Array.isArray(root.tankoubons))
    throw bad(`'tankoubons' must be an array.`)

  const archives = (root.archives as unknown[]).map((raw, i): BackupArchive => {
    const where = `archive ${i + 1}`
    if (!isObject(raw)) throw bad(`${where} is not an object.`)
    const arcid = typeof raw.arcid === 'string' ? raw.arcid.toLowerCase() : ''
    if (!isArchiveId(arcid)) throw bad(`${where} has an invalid arcid.`)
    const thumbhash = stringField(raw, 'thumbhash', where)
    return {
      arcid,
      title: cappedField(raw, 'title', where, MAX_TITLE_LENGTH),
      tags: tagsField(raw, where),
      summary: cappedField(raw, 'summary', where, MAX_METADATA_TEXT_LENGTH),
      filename: stringField(raw, 'filename', where),
      thumbhash: THUMBHASH.test(thumbhash) ? thumbhash : null,
      toc: tocField(raw),
    }
  })
  const categories = (root.categories as unknown[]).map((raw, i): BackupCategory => {
    const where = `category ${i + 1}`
    if (!isObject(raw)) throw bad(`${where} is not an object.`)
    if (typeof raw.catid !== 'string' || !isCategoryId(raw.catid))
      throw bad(`${where} has an invalid catid.`)
    const category: BackupCategory = {
      catid: raw.catid,
      name: nameField(raw, where, MAX_CATEGORY_NAME_LENGTH),
      search: cappedField(raw, 'search', where, MAX_METADATA_TEXT_LENGTH),
      archives: idList(raw, where, (id) => isArchiveId(id) || isTankoubonId(id)),
    }
    if (typeof raw.pinned === 'boolean' || raw.pinned === 0 || raw.pinned === 1)
      category.pinned = Boolean(raw.pinned)
    if (typeof raw.visible_to_guest === 'boolean') category.visible_to_guest = raw.visible_to_guest
    return category
  })
  const tankoubons = ((root.tankoubons as unknown[] | undefined) ?? []).map(
    (raw, i): BackupTankoubon => {
      const where = `tankoubon ${i + 1}`
      if (!isObject(raw)) throw bad(`${where} is not an object.`)
      if (typeof raw.tankid !== 'string' || !isTankoubonId(raw.tankid))
        throw bad(`${where} has an invalid tankid.`)
      return {
        tankid: raw.tankid,
        name: nameField(raw, where, MAX_TANKOUBON_NAME_LENGTH),
        summary: cappedField(raw, 'summary', where, MAX_METADATA_TEXT_LENGTH),
        tags: tagsField(raw, where),
        archives: idList(raw, where, isArchiveId),
      }
    },
  )
  return { archives, categories, tankoubons }
}

/** How many records of each kind a document holds (job results, snapshot listings). */
export function countRecords(doc: BackupDocument) {
  return {
    archives: doc.archives.length,
    categories: doc.categories.length,
    tankoubons: doc.tankoubons.length,
  }
}
