// Access tokens: HS256 JWTs (jose) that carry a session family id (`fid`) and expire in hours.
import { SignJWT, compactVerify, errors, jwtVerify } from 'jose'

export const ACCESS_TTL_SECS = 4 * 60 * 60

/** Every claim a token must carry and match: a token of ours lacking one was not made here. */
const ISSUER = 'tankobun'
const AUDIENCE = 'tankobun-api'
const VERIFY_OPTIONS = {
  algorithms: ['HS256'],
  issuer: ISSUER,
  audience: AUDIENCE,
  requiredClaims: ['exp', 'iat'],
}

export type SessionKeys = { signingKey: Uint8Array }

export async function signAccessToken(
  keys: SessionKeys,
  familyId: string,
  expiresAt: number = Math.floor(Date.now() / 1000) + ACCESS_TTL_SECS,
): Promise<string> {
  return new SignJWT({ fid: familyId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(expiresAt)
    .sign(keys.signingKey)
}

/** Verified tokens kept: a browser sends the same one with every request. */
const VERIFIED_MAX = 1000

/**
 * The tokens verified under one server's signing key, by token, with the clock their expiry is
 * read from. Per server (deps.auth), so a token verified under one server's key is never taken
 * for valid by another.
 */
export type VerifiedTokens = {
  entries: Map<string, { familyId: string; exp: number }>
  /** Milliseconds since the epoch. */
  now: () => number
}

export function createVerifiedTokens(now: () => number = Date.now): VerifiedTokens {
  return { entries: new Map(), now }
}

/** A server's signing key and the tokens verified under it (deps.auth). */
export type TokenCheck = { sessionKeys: SessionKeys; verifiedTokens: VerifiedTokens }

/**
 * The family id of a valid, unexpired access token (algorithm, issuer, audience, exp); else
 * null. A signature check costs about half of a small request, so a token already verified
 * under these keys is only checked for expiry (revocation is checked apart, on every request).
 */
export async function verifyAccessToken(auth: TokenCheck, token: string): Promise<string | null> {
  const { entries: cache, now } = auth.verifiedTokens
  const known = cache.get(token)
  if (known) {
    if (known.exp > now() / 1000) return known.familyId
    cache.delete(token)
    return null
  }
  try {
    const { payload } = await jwtVerify(token, auth.sessionKeys.signingKey, {
      ...VERIFY_OPTIONS,
      currentDate: new Date(now()),
    })
    if (typeof payload.fid !== 'string' || typeof payload.exp !== 'number') return null
    if (cache.size >= VERIFIED_MAX) cache.delete(cache.keys().next().value!)
    cache.set(token, { familyId: payload.fid, exp: payload.exp })
    return payload.fid
  } catch (error) {
    if (error instanceof errors.JOSEError) return null
    throw error
  }
}

/**
 * The family id of an access token whose signature verifies, expired or not: logout must work
 * from a stale tab, and the signature still proves we issued the token.
 */
export async function familyOfSignedToken(
  keys: SessionKeys,
  token: string,
): Promise<string | null> {
  let payload: Uint8Array
  try {
    payload = (await compactVerify(token, keys.signingKey, { algorithms: ['HS256'] })).payload
  } catch (error) {
    if (error instanceof errors.JOSEError) return null
    throw error
  }
  // A payload we signed is always our JSON; parse defensively all the same.
  const claims = safeJson(new TextDecoder().decode(payload)) as { fid?: unknown } | null
  return typeof claims?.fid === 'string' ? claims.fid : null
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    if (error instanceof SyntaxError) return null
    throw error
  }
}
