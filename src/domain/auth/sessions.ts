// Browser sessions: a family row per login holding its rotating refresh tokens, and the family's
// lifecycle (open, liveness on every request, listing, revocation).
import type { Deps } from '../../deps.ts'
import { fail } from '../../errors.ts'
import {
  findSessionFamily,
  insertSessionFamily,
  listLiveSessionFamilies,
  pruneSessions,
  revokeSessionFamiliesExcept,
  revokeSessionFamily,
  touchSessionFamily,
} from '../../db/repos/auth.repo.ts'
import { signAccessToken } from './access-token.ts'
import { issueRefreshToken, REFRESH_TTL_SECS } from './refresh.ts'

export type { SessionKeys } from './access-token.ts'

/** last_seen_at is written at most this often per family. */
const FAMILY_TOUCH_INTERVAL_SECS = 60
const MAX_USER_AGENT_LENGTH = 512

export type SessionMeta = { ip: string | null; userAgent: string | null }
/** What a client needs to hold a session: the access JWT and the refresh cookie value. */
export type SessionGrant = { familyId: string; accessToken: string; refreshToken: string }
export type SessionInfo = {
  familyId: string
  createdAt: number
  lastSeenAt: number
  ip: string | null
  userAgent: string | null
}

const nowSecs = () => Math.floor(Date.now() / 1000)

/** Opens a new family (one per login) with its first refresh token. */
export async function openSession(
  deps: Pick<Deps, 'db' | 'auth'>,
  meta: SessionMeta,
): Promise<SessionGrant> {
  const now = nowSecs()
  pruneSessions(deps.db, now, now - REFRESH_TTL_SECS)
  const familyId = crypto.randomUUID()
  insertSessionFamily(deps.db, {
    id: familyId,
    createdAt: now,
    lastSeenAt: now,
    ip: meta.ip,
    userAgent: meta.userAgent?.slice(0, MAX_USER_AGENT_LENGTH) ?? null,
    revokedAt: null,
  })
  const refreshToken = issueRefreshToken(deps, familyId)
  return {
    familyId,
    accessToken: await signAccessToken(deps.auth.sessionKeys, familyId),
    refreshToken,
  }
}

/**
 * Whether a family may still use its access tokens: one prepared lookup per request, so a revoked
 * family is refused at once. Also records activity, at most once per FAMILY_TOUCH_INTERVAL_SECS.
 */
export function sessionIsLive(deps: Pick<Deps, 'db'>, familyId: string): boolean {
  const family = findSessionFamily(deps.db, familyId)
  if (!family || family.revokedAt !== null) return false
  const now = nowSecs()
  if (now - family.lastSeenAt >= FAMILY_TOUCH_INTERVAL_SECS) {
    touchSessionFamily(deps.db, familyId, now)
  }
  return true
}

export function listSessions(deps: Pick<Deps, 'db'>): SessionInfo[] {
  return listLiveSessionFamilies(deps.db, nowSecs()).map((row) => ({
    familyId: row.id,
    createdAt: row.createdAt,
    lastSeenAt: row.lastSeenAt,
    ip: row.ip,
    userAgent: row.userAgent,
  }))
}

/** Revokes a family: its access tokens stop at once and its refresh tokens are refused. */
export function revokeSession(deps: Pick<Deps, 'db'>, familyId: string): boolean {
  return revokeSessionFamily(deps.db, familyId, nowSecs())
}

/** DELETE /api/sessions/{id}: only a live family can be revoked; anything else is unknown. */
export function revokeListedSession(deps: Pick<Deps, 'db'>, familyId: string): void {
  if (!revokeSession(deps, familyId)) throw fail.not_found(`No session ${familyId.slice(0, 64)}.`)
}

/** Revokes every family but `keepFamilyId` (all of them when null); returns how many. */
export function revokeOtherSessions(deps: Pick<Deps, 'db'>, keepFamilyId: string | null): number {
  return revokeSessionFamiliesExcept(deps.db, keepFamilyId, nowSecs())
}
