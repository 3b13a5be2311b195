// Browser sessions: a family row per login, and short-lived access JWTs (jose) naming the family.
import { SignJWT, jwtVerify, decodeProtectedHeader } from 'jose'
import { eq } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { sessionFamilies } from '../../db/schema/auth.ts'

export const ACCESS_COOKIE = 'tankobun_access'
export const REFRESH_COOKIE = 'tankobun_refresh'
export const ACCESS_TTL_SECS = 4 * 60 * 60

export type SessionKeys = { signingKey: Uint8Array }

export function createSessionFamily(db: Db, meta: { ip: string | null; userAgent: string | null }): string {
  const id = crypto.randomUUID()
  const now = Math.floor(Date.now() / 1000)
  db.insert(sessionFamilies)
    .values({ id, createdAt: now, lastSeenAt: now, ip: meta.ip, userAgent: meta.userAgent })
    .run()
  return id
}

export async function signAccessToken(keys: SessionKeys, familyId: string): Promise<string> {
  return new SignJWT({ fid: familyId })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime(`${ACCESS_TTL_SECS}s`)
    .sign(keys.signingKey)
}

/** The family id of a valid, unexpired access token; null otherwise. */
export async function verifyAccessToken(keys: SessionKeys, token: string): Promise<string | null> {
  try {
    if (decodeProtectedHeader(token).alg !== 'HS256') return null
    const { payload } = await jwtVerify(token, keys.signingKey, { algorithms: ['HS256'] })
    return typeof payload.fid === 'string' ? payload.fid : null
  } catch {
    return null
  }
}

export function familyIsLive(db: Db, familyId: string): boolean {
  const row = db
    .select({ revokedAt: sessionFamilies.revokedAt })
    .from(sessionFamilies)
    .where(eq(sessionFamilies.id, familyId))
    .get()
  return row !== undefined && row.revokedAt === null
}
