// Resolves the Caller of a request: an API token (Authorization: Bearer) or the session cookie.
// Invalid, expired or revoked credentials count as none; the policy then decides.
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
  // A live API token wins over a cookie: session-only routes must see that a token was used.
  // Anything else in the header (another scheme such as a proxy's Basic credentials, a malformed
  // or dead token) is not a credential, so the session cookie still counts, as in LANraragi.
  const authorization = request.headers.get('authorization')
  const secret = authorization ? parseBearer(authorization) : null
  const token = secret ? authenticateApiToken(deps, secret, ip) : null
  if (token) return { kind: 'token', tokenId: token.id, role: token.role }
  const access = readCookie(request, ACCESS_COOKIE)
  if (access) {
    const familyId = await verifyAccessToken(deps.sessionKeys, access)
    if (familyId && sessionIsLive(deps, familyId)) return { kind: 'session', familyId }
  }
  return ANONYMOUS
}
