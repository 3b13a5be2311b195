// Queries of the categories and category_members tables (static member lists, dynamic filters).
import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import type { Statement } from 'bun:sqlite'
import type { Db } from '../client.ts'
import { categories, categoryMembers } from '../schema/collections.ts'

export type CategoryRow = typeof categories.$inferSelect
export type NewCategoryRow = typeof categories.$inferInsert

export function findCategory(db: Db, id: string): CategoryRow | undefined {
  return db.select().from(categories).where(eq(categories.id, id)).get()
}

export function listCategoryRows(db: Db): CategoryRow[] {
  return db.select().from(categories).orderBy(asc(categories.id)).all()
}

/** Categories flagged visible to guests, by id: what the guest scope is made of. */
export function listGuestCategoryRows(db: Db): CategoryRow[] {
  return db
    .select()
    .from(categories)
    .where(eq(categories.visibleToGuest, true))
    .orderBy(asc(categories.id))
    .all()
}

export function insertCategory(db: Db, row: NewCategoryRow): CategoryRow {
  return db.insert(categories).values(row).returning().get()
}

export function updateCategoryRow(
  db: Db,
  id: string,
  patch: Partial<Omit<NewCategoryRow, 'id'>>,
): CategoryRow | undefined {
  if (Object.keys(patch).length === 0) return findCategory(db, id)
  return db.update(categories).set(patch).where(eq(categories.id, id)).returning().get()
}

/** Members go with it (foreign key cascade). */
export function deleteCategoryRow(db: Db, id: string): boolean {
  return db.delete(categories).where(eq(categories.id, id)).returning().all().length > 0
}

export function listCategoryMembers(db: Db, categoryId: string): string[] {
  return db
    .select({ id: categoryMembers.memberId })
    .from(categoryMembers)
    .where(eq(categoryMembers.categoryId, categoryId))
    .orderBy(asc(categoryMembers.position))
    .all()
    .map((r) => r.id)
}

/** Member lists of many categories at once, each in insertion order. */
export function membersByCategory(db: Db, categoryIds: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>(categoryIds.map((id) => [id, []]))
  if (categoryIds.length === 0) return out
  const rows = db
    .select()
    .from(categoryMembers)
    .where(inArray(categoryMembers.categoryId, categoryIds))
    .orderBy(asc(categoryMembers.categoryId), asc(categoryMembers.position))
    .all()
  for (const row of rows) out.get(row.categoryId)?.push(row.memberId)
  return out
}

const appendStatements = new WeakMap<Db, Statement>()

/**
 * Appends at the end; false when it was already a member. One kept statement: a restore adds
 * members by the thousand, and building the query each time cost ~0.3 ms a member.
 */
export function addCategoryMember(db: Db, categoryId: string, memberId: string): boolean {
  let append = appendStatements.get(db)
  if (!append) {
    append = db.$client.prepare(
      `INSERT INTO category_members (category_id, member_id, position)
       SELECT ?1, ?2, coalesce(max(position), 0) + 1 FROM category_members WHERE category_id = ?1
       ON CONFLICT DO NOTHING RETURNING 1`,
    )
    appendStatements.set(db, append)
  }
  return append.all(categoryId, memberId).length > 0
}

export function removeCategoryMember(db: Db, categoryId: string, memberId: string): boolean {
  return (
    db
      .delete(categoryMembers)
      .where(
        and(eq(categoryMembers.categoryId, categoryId), eq(categoryMembers.memberId, memberId)),
      )
      .returning()
      .all().length > 0
  )
}

export function clearCategoryMembers(db: Db, categoryId: string): void {
  db.delete(categoryMembers).where(eq(categoryMembers.categoryId, categoryId)).run()
}

/** Drops an id (a deleted archive or Tankoubon) from every category; answers the categories. */
export function removeMemberEverywhere(db: Db, memberId: string): string[] {
  return db
    .delete(categoryMembers)
    .where(eq(categoryMembers.memberId, memberId))
    .returning({ id: categoryMembers.categoryId })
    .all()
    .map((r) => r.id)
}

/** Categories listing the id as a member, by category id. */
export function categoriesHolding(db: Db, memberId: string): CategoryRow[] {
  return db
    .select({ category: categories })
    .from(categoryMembers)
    .innerJoin(categories, eq(categories.id, categoryMembers.categoryId))
    .where(eq(categoryMembers.memberId, memberId))
    .orderBy(asc(categories.id))
    .all()
    .map((r) => r.category)
}
