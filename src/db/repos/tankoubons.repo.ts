// Queries of the tankoubons and tankoubon_members tables (ordered groups of archives).
import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { tankoubons, tankoubonMembers } from '../schema/collections.ts'

export type TankoubonRow = typeof tankoubons.$inferSelect
export type NewTankoubonRow = typeof tankoubons.$inferInsert

/** A Tankoubon row with its member archive ids in reading order. */
export type TankoubonWithMembers = { row: TankoubonRow; members: string[] }

/** SQLite caps bound parameters: long id lists are read in slices. */
const ID_SLICE = 500

export function findTankoubon(db: Db, id: string): TankoubonRow | undefined {
  return db.select().from(tankoubons).where(eq(tankoubons.id, id)).get()
}

export function listTankoubonRows(db: Db): TankoubonRow[] {
  return db.select().from(tankoubons).orderBy(asc(tankoubons.id)).all()
}

export function insertTankoubon(db: Db, row: NewTankoubonRow): TankoubonRow {
  return db.insert(tankoubons).values(row).returning().get()
}

export function updateTankoubonRow(
  db: Db,
  id: string,
  patch: Partial<Omit<NewTankoubonRow, 'id'>>,
): TankoubonRow | undefined {
  if (Object.keys(patch).length === 0) return findTankoubon(db, id)
  return db.update(tankoubons).set(patch).where(eq(tankoubons.id, id)).returning().get()
}

/** Member rows go with it (foreign key cascade); the archives themselves stay. */
export function deleteTankoubonRow(db: Db, id: string): boolean {
  return db.delete(tankoubons).where(eq(tankoubons.id, id)).returning().all().length > 0
}

export function listTankMembers(db: Db, tankoubonId: string): string[] {
  return db
    .select({ id: tankoubonMembers.archiveId })
    .from(tankoubonMembers)
    .where(eq(tankoubonMembers.tankoubonId, tankoubonId))
    .orderBy(asc(tankoubonMembers.position))
    .all()
    .map((r) => r.id)
}

/**
 * Tankoubons with their members: every one (`ids` left out: the search index build reads all
 * member rows at once rather than a huge IN list), or those of `ids` that exist, in slices.
 */
export function findTankoubonsWithMembers(db: Db, ids?: readonly string[]): TankoubonWithMembers[] {
  const withMembers = (rows: TankoubonRow[], members: Map<string, string[]>) =>
    rows.map((row) => ({ row, members: members.get(row.id) ?? [] }))
  if (ids === undefined) {
    const members = new Map<string, string[]>()
    const rows = db
      .select()
      .from(tankoubonMembers)
      .orderBy(asc(tankoubonMembers.tankoubonId), asc(tankoubonMembers.position))
      .all()
    for (const m of rows) {
      const list = members.get(m.tankoubonId)
      if (list) list.push(m.archiveId)
      else members.set(m.tankoubonId, [m.archiveId])
    }
    return withMembers(db.select().from(tankoubons).all(), members)
  }
  const out: TankoubonWithMembers[] = []
  for (let i = 0; i < ids.length; i += ID_SLICE) {
    const slice = ids.slice(i, i + ID_SLICE)
    const rows = db.select().from(tankoubons).where(inArray(tankoubons.id, slice)).all()
    const members = membersByTankoubon(
      db,
      rows.map((r) => r.id),
    )
    out.push(...withMembers(rows, members))
  }
  return out
}

/** Member lists of many Tankoubons at once, each in reading order. */
export function membersByTankoubon(db: Db, tankoubonIds: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>(tankoubonIds.map((id) => [id, []]))
  if (tankoubonIds.length === 0) return out
  const rows = db
    .select()
    .from(tankoubonMembers)
    .where(inArray(tankoubonMembers.tankoubonId, tankoubonIds))
    .orderBy(asc(tankoubonMembers.tankoubonId), asc(tankoubonMembers.position))
    .all()
  for (const row of rows) out.get(row.tankoubonId)?.push(row.archiveId)
  return out
}

/** Appends at the final position; false when the archive was already a member. */
export function appendTankMember(db: Db, tankoubonId: string, archiveId: string): boolean {
  const next = db
    .select({ n: sql<number>`coalesce(max(${tankoubonMembers.position}), 0) + 1` })
    .from(tankoubonMembers)
    .where(eq(tankoubonMembers.tankoubonId, tankoubonId))
    .get()!.n
  return (
    db
      .insert(tankoubonMembers)
      .values({ tankoubonId, archiveId, position: next })
      .onConflictDoNothing()
      .returning()
      .all().length > 0
  )
}

export function removeTankMember(db: Db, tankoubonId: string, archiveId: string): boolean {
  return (
    db
      .delete(tankoubonMembers)
      .where(
        and(
          eq(tankoubonMembers.tankoubonId, tankoubonId),
          eq(tankoubonMembers.archiveId, archiveId),
        ),
      )
      .returning()
      .all().length > 0
  )
}

/** Replaces the whole member list with `archiveIds` in that order. */
export function replaceTankMembers(db: Db, tankoubonId: string, archiveIds: string[]): void {
  db.delete(tankoubonMembers).where(eq(tankoubonMembers.tankoubonId, tankoubonId)).run()
  if (archiveIds.length === 0) return
  db.insert(tankoubonMembers)
    .values(archiveIds.map((archiveId, i) => ({ tankoubonId, archiveId, position: i + 1 })))
    .run()
}

/** Drops an archive from every Tankoubon (the archive is deleted); answers the Tankoubons it left. */
export function removeTankMemberEverywhere(db: Db, archiveId: string): string[] {
  return db
    .delete(tankoubonMembers)
    .where(eq(tankoubonMembers.archiveId, archiveId))
    .returning({ id: tankoubonMembers.tankoubonId })
    .all()
    .map((r) => r.id)
}

/** Ids of the Tankoubons holding an archive, sorted. */
export function tankoubonsHolding(db: Db, archiveId: string): string[] {
  return db
    .select({ id: tankoubonMembers.tankoubonId })
    .from(tankoubonMembers)
    .where(eq(tankoubonMembers.archiveId, archiveId))
    .orderBy(asc(tankoubonMembers.tankoubonId))
    .all()
    .map((r) => r.id)
}
