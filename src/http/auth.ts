// Resolves the Caller of a request: an API token (Authorization: Bearer) or the session cookie.
// Invalid, expired or revoked credentials resolve to anonymous; the policy then decides.
import type { Deps } from '../deps.ts'
import { ANONYMOUS, type Caller } from '../domain/auth/caller.ts'
import { verifyAccessToken } from '../domain/auth/access-token.ts'
import { passwordEnabled } from '../domain/auth/password.ts'
import { sessionIsLive } from '../domain/auth/sessions.ts'
import { authenticateApiToken, parseBearer } from '../domain/auth/tokens.ts'
import { ACCESS_COOKIE, readCookie } from './cookies.ts'

export { readCookie } from './cookies.ts'

export async function resolveCaller(
  deps: Deps,
  request: Request,
  ip: string | null,
): Promise<Caller> {
  if (!passwordEnabled(deps.settings)) return { kind: 'session', familyId: null }
  const authorization = request.headers.get('authorization')
  // A request that names a token is judged by that token alone, even if it also carries a
  // cookie: session-only routes must see that an API token was used.
  if (authorization) {
    const secret = parseBearer(authorization)
    const token = secret ? authenticateApiToken(deps, secret, ip) : null
    return token ? { kind: 'token', tokenId: token.id, role: token.role } : ANONYMOUS
  }
  const access = readCookie(request, ACCESS_COOKIE)
  if (access) {
    const familyId = await verifyAccessToken(deps.sessionKeys, access)
    if (familyId && sessionIsLive(deps, familyId)) return { kind: 'session', familyId }
  }
  return ANONYMOUS
}
