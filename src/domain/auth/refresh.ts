// Refresh tokens: one-time `<id>.<secret>` values per session family, rotated on every redemption,
// with reuse detection that revokes the whole family and a short grace window for parallel tabs.
import type { Deps } from '../../deps.ts'
import { tx } from '../../db/client.ts'
import { fail } from '../../errors.ts'
import { createLogger } from '../../log.ts'
import {
  findRefreshToken,
  findSessionFamily,
  insertRefreshToken,
  markRefreshTokenRotated,
  revokeSessionFamily,
  touchSessionFamily,
} from '../../db/repos/auth.repo.ts'
import { deriveHex, randomHex, safeEqual, sha256Hex } from './secrets.ts'

const log = createLogger('auth')

export const REFRESH_TTL_SECS = 30 * 24 * 60 * 60
/** A rotated token presented again this soon is a second tab (or a lost response), not theft. */
export const REFRESH_GRACE_MS = 5000
const VALUE_PATTERN = /^([0-9a-f]{32})\.([0-9a-f]{64})$/
/** How far the grace path follows rotations made while the window was open. */
const MAX_GRACE_HOPS = 8

type RefreshDeps = Pick<Deps, 'db' | 'auth'>
type Secret = { id: string; secret: string }

const encode = (t: Secret) => `${t.id}.${t.secret}`

/**
 * A successor is derived from its predecessor under the server key (only hashes are stored), so a
 * request inside the grace window can be answered with the family's current refresh token and both
 * tabs end up holding the same, valid cookie.
 */
function successorOf(key: Uint8Array, token: Secret): Secret {
  return {
    id: deriveHex(key, 'refresh-id', token.id).slice(0, 32),
    secret: deriveHex(key, 'refresh-secret', encode(token)),
  }
}

function store(deps: RefreshDeps, familyId: string, token: Secret, now: number): void {
  insertRefreshToken(deps.db, {
    id: token.id,
    familyId,
    secretHash: sha256Hex(token.secret),
    createdAt: now,
    expiresAt: now + REFRESH_TTL_SECS,
    rotatedAt: null,
  })
}

/** The first refresh token of a new family; returns the cookie value. */
export function issueRefreshToken(deps: RefreshDeps, familyId: string): string {
  const token = { id: randomHex(16), secret: randomHex(32) }
  store(deps, familyId, token, Math.floor(Date.now() / 1000))
  return encode(token)
}

/**
 * Redeems a refresh cookie value: rotates it and returns the family and the new value. A rotated
 * value presented again within REFRESH_GRACE_MS gets the family's current value; later, it is
 * reuse and the whole family is revoked. Every refusal is a 401.
 */
export function redeemRefreshToken(
  deps: RefreshDeps,
  value: string | null,
  ip: string | null,
): { familyId: string; refreshToken: string } {
  const match = value ? VALUE_PATTERN.exec(value) : null
  if (!match) throw fail.unauthorized('Missing or malformed refresh token.')
  const presented = { id: match[1]!, secret: match[2]! }
  const row = findRefreshToken(deps.db, presented.id)
  if (!row || !safeEqual(row.secretHash, sha256Hex(presented.secret))) {
    throw fail.unauthorized('Unknown refresh token.')
  }
  const family = findSessionFamily(deps.db, row.familyId)
  if (!family || family.revokedAt !== null) throw fail.unauthorized('This session was revoked.')
  const nowMs = Date.now()
  const now = Math.floor(nowMs / 1000)
  if (row.expiresAt <= now) throw fail.unauthorized('This session expired; log in again.')

  if (row.rotatedAt === null) {
    const next = successorOf(deps.auth.sessionKeys.signingKey, presented)
    const rotated = tx(deps.db, () => {
      if (!markRefreshTokenRotated(deps.db, presented.id, nowMs)) return false
      store(deps, row.familyId, next, now)
      touchSessionFamily(deps.db, row.familyId, now, ip)
      return true
    })
    if (rotated) return { familyId: row.familyId, refreshToken: encode(next) }
    // Another request redeemed it between our read and write: that is the grace case.
    return currentOfChain(deps, row.familyId, presented)
  }
  if (nowMs - row.rotatedAt <= REFRESH_GRACE_MS) {
    return currentOfChain(deps, row.familyId, presented)
  }
  revokeSessionFamily(deps.db, row.familyId, now)
  log.warn('refresh token reused after rotation; session family revoked', {
    familyId: row.familyId,
    ip,
  })
  throw fail.unauthorized('Refresh token reuse detected; the session was revoked.')
}

/** Walks the derived successors of a just-rotated token to the one not yet redeemed. */
function currentOfChain(
  deps: RefreshDeps,
  familyId: string,
  start: Secret,
): { familyId: string; refreshToken: string } {
  let token = start
  for (let hop = 0; hop < MAX_GRACE_HOPS; hop++) {
    token = successorOf(deps.auth.sessionKeys.signingKey, token)
    const row = findRefreshToken(deps.db, token.id)
    if (!row || row.familyId !== familyId) break
    if (row.rotatedAt === null) return { familyId, refreshToken: encode(token) }
  }
  throw fail.unauthorized('Unknown refresh token.')
}
