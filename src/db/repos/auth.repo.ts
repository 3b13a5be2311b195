// Queries of the credential tables (api_tokens, session_families, refresh_tokens). The lookups that
// run on every authenticated request are prepared once per db.
import { and, asc, eq, exists, gt, isNotNull, isNull, lt, ne, or, sql } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { apiTokens, refreshTokens, sessionFamilies } from '../schema/auth.ts'

export type ApiTokenRow = typeof apiTokens.$inferSelect
export type SessionFamilyRow = typeof sessionFamilies.$inferSelect
/** `rotatedAt` is epoch milliseconds (the grace window is seconds long); other times seconds. */
export type RefreshTokenRow = typeof refreshTokens.$inferSelect

const prepared = new WeakMap<Db, ReturnType<typeof prepare>>()

function prepare(db: Db) {
  return {
    tokenByHash: db
      .select()
      .from(apiTokens)
      .where(eq(apiTokens.secretHash, sql.placeholder('hash')))
      .prepare(),
    familyById: db
      .select({ revokedAt: sessionFamilies.revokedAt, lastSeenAt: sessionFamilies.lastSeenAt })
      .from(sessionFamilies)
      .where(eq(sessionFamilies.id, sql.placeholder('id')))
      .prepare(),
  }
}

function q(db: Db) {
  let p = prepared.get(db)
  if (!p) prepared.set(db, (p = prepare(db)))
  return p
}

// --- API tokens

export function insertApiToken(db: Db, row: ApiTokenRow): void {
  db.insert(apiTokens).values(row).run()
}

export function findApiTokenByHash(db: Db, hash: string): ApiTokenRow | undefined {
  return q(db).tokenByHash.get({ hash })
}

export function findApiToken(db: Db, id: string): ApiTokenRow | undefined {
  return db.select().from(apiTokens).where(eq(apiTokens.id, id)).get()
}

export function listApiTokens(db: Db): ApiTokenRow[] {
  // rowid keeps creation order among tokens made in the same second.
  return db
    .select()
    .from(apiTokens)
    .orderBy(asc(apiTokens.createdAt), sql`rowid`)
    .all()
}

export function renameApiToken(db: Db, id: string, name: string): ApiTokenRow | undefined {
  return db.update(apiTokens).set({ name }).where(eq(apiTokens.id, id)).returning().get()
}

export function deleteApiToken(db: Db, id: string): boolean {
  const deleted = db
    .delete(apiTokens)
    .where(eq(apiTokens.id, id))
    .returning({ id: apiTokens.id })
    .all()
  return deleted.length > 0
}

export function touchApiToken(db: Db, id: string, at: number, ip: string | null): void {
  db.update(apiTokens).set({ lastUsedAt: at, lastUsedIp: ip }).where(eq(apiTokens.id, id)).run()
}

// --- session families

export function insertSessionFamily(db: Db, row: SessionFamilyRow): void {
  db.insert(sessionFamilies).values(row).run()
}

export function findSessionFamily(
  db: Db,
  id: string,
): { revokedAt: number | null; lastSeenAt: number } | undefined {
  return q(db).familyById.get({ id })
}

export function touchSessionFamily(db: Db, id: string, at: number, ip?: string | null): void {
  const set = ip === undefined ? { lastSeenAt: at } : { lastSeenAt: at, ip }
  db.update(sessionFamilies).set(set).where(eq(sessionFamilies.id, id)).run()
}

export function revokeSessionFamily(db: Db, id: string, at: number): boolean {
  return (
    db
      .update(sessionFamilies)
      .set({ revokedAt: at })
      .where(and(eq(sessionFamilies.id, id), isNull(sessionFamilies.revokedAt)))
      .returning({ id: sessionFamilies.id })
      .all().length > 0
  )
}

/** Revokes every live family except `keepId` (none kept when null); returns how many. */
export function revokeSessionFamiliesExcept(db: Db, keepId: string | null, at: number): number {
  const live = isNull(sessionFamilies.revokedAt)
  return db
    .update(sessionFamilies)
    .set({ revokedAt: at })
    .where(keepId === null ? live : and(live, ne(sessionFamilies.id, keepId)))
    .returning({ id: sessionFamilies.id })
    .all().length
}

/** Families that are not revoked and still hold a refresh token that has not expired. */
export function listLiveSessionFamilies(db: Db, now: number): SessionFamilyRow[] {
  const hasLiveRefresh = exists(
    db
      .select({ one: sql`1` })
      .from(refreshTokens)
      .where(and(eq(refreshTokens.familyId, sessionFamilies.id), gt(refreshTokens.expiresAt, now))),
  )
  return db
    .select()
    .from(sessionFamilies)
    .where(and(isNull(sessionFamilies.revokedAt), hasLiveRefresh))
    .orderBy(asc(sessionFamilies.createdAt), sql`rowid`)
    .all()
}

// --- refresh tokens

export function insertRefreshToken(db: Db, row: RefreshTokenRow): void {
  db.insert(refreshTokens).values(row).run()
}

export function findRefreshToken(db: Db, id: string): RefreshTokenRow | undefined {
  return db.select().from(refreshTokens).where(eq(refreshTokens.id, id)).get()
}

/** Marks a refresh token redeemed; false when another request redeemed it first. */
export function markRefreshTokenRotated(db: Db, id: string, atMs: number): boolean {
  return (
    db
      .update(refreshTokens)
      .set({ rotatedAt: atMs })
      .where(and(eq(refreshTokens.id, id), isNull(refreshTokens.rotatedAt)))
      .returning({ id: refreshTokens.id })
      .all().length > 0
  )
}

/**
 * Drops refresh tokens past their expiry, and families revoked or last seen before `before` (a
 * family unseen for a refresh lifetime holds no usable token). Rotated but unexpired tokens stay:
 * reuse detection needs them.
 */
export function pruneSessions(db: Db, now: number, before: number): void {
  db.delete(refreshTokens).where(lt(refreshTokens.expiresAt, now)).run()
  db.delete(sessionFamilies)
    .where(
      or(
        and(isNotNull(sessionFamilies.revokedAt), lt(sessionFamilies.revokedAt, before)),
        lt(sessionFamilies.lastSeenAt, before),
      ),
    )
    .run()
}
