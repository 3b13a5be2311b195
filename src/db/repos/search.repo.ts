// The search area's reads: the narrow archive feed of the index, Tankoubons with their ordered
// members, and categories (static members, dynamic filter, guest visibility).
import { asc, eq, inArray } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { archives } from '../schema/archives.ts'
import { categories, categoryMembers, tankoubons, tankoubonMembers } from '../schema/collections.ts'

/** SQLite caps bound parameters: long id lists are read in slices. */
const ID_SLICE = 500

export type IndexArchiveRow = {
  id: string
  title: string
  tags: string
  isnew: boolean
  progress: number
  pagecount: number
  lastreadtime: number
}

export type TankoubonRecord = {
  id: string
  name: string
  summary: string
  tags: string
  progress: number
  lastreadtime: number
  /** Member archive ids in reading order. */
  members: string[]
}

export type CategoryRecord = {
  id: string
  search: string
  visibleToGuest: boolean
  members: string[]
}

type TankoubonRow = typeof tankoubons.$inferSelect
type CategoryRow = typeof categories.$inferSelect

/** Only the columns the index reads, for every linked archive (the build at start). */
export function listIndexArchives(db: Db): IndexArchiveRow[] {
  return db
    .select({
      id: archives.id,
      title: archives.title,
      tags: archives.tags,
      isnew: archives.isnew,
      progress: archives.progress,
      pagecount: archives.pagecount,
      lastreadtime: archives.lastreadtime,
    })
    .from(archives)
    .where(eq(archives.unlinked, false))
    .all()
}

function withMembers(db: Db, rows: TankoubonRow[]): TankoubonRecord[] {
  if (rows.length === 0) return []
  // Many Tankoubons (the build): read every member row rather than a huge IN list.
  const ids = rows.map((r) => r.id)
  const only = rows.length > ID_SLICE ? undefined : inArray(tankoubonMembers.tankoubonId, ids)
  const members = db
    .select()
    .from(tankoubonMembers)
    .where(only)
    .orderBy(asc(tankoubonMembers.tankoubonId), asc(tankoubonMembers.position))
    .all()
  const byTank = new Map<string, string[]>()
  for (const m of members) {
    const list = byTank.get(m.tankoubonId)
    if (list) list.push(m.archiveId)
    else byTank.set(m.tankoubonId, [m.archiveId])
  }
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    summary: r.summary,
    tags: r.tags,
    progress: r.progress,
    lastreadtime: r.lastreadtime,
    members: byTank.get(r.id) ?? [],
  }))
}

export function listTankoubonRecords(db: Db): TankoubonRecord[] {
  return withMembers(db, db.select().from(tankoubons).all())
}

export function findTankoubonRecords(db: Db, ids: string[]): TankoubonRecord[] {
  const out: TankoubonRecord[] = []
  for (let i = 0; i < ids.length; i += ID_SLICE) {
    const slice = ids.slice(i, i + ID_SLICE)
    const rows = db.select().from(tankoubons).where(inArray(tankoubons.id, slice)).all()
    out.push(...withMembers(db, rows))
  }
  return out
}

function withCategoryMembers(db: Db, rows: CategoryRow[]): CategoryRecord[] {
  if (rows.length === 0) return []
  const members = db
    .select()
    .from(categoryMembers)
    .where(
      inArray(
        categoryMembers.categoryId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(categoryMembers.position))
    .all()
  return rows.map((r) => ({
    id: r.id,
    search: r.search,
    visibleToGuest: r.visibleToGuest,
    members: members.filter((m) => m.categoryId === r.id).map((m) => m.memberId),
  }))
}

export function findCategoryRecord(db: Db, id: string): CategoryRecord | undefined {
  const rows = db.select().from(categories).where(eq(categories.id, id)).all()
  return withCategoryMembers(db, rows)[0]
}

export function listGuestCategoryRecords(db: Db): CategoryRecord[] {
  const rows = db.select().from(categories).where(eq(categories.visibleToGuest, true)).all()
  return withCategoryMembers(db, rows)
}
