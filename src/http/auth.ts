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
  deps: Pick<Deps, 'auth' | 'db' | 'settings'>,
  request: Request,
  ip: string | null,
): Promise<Caller> {
  if (!passwordEnabled(deps.settings)) return { kind: 'session', familyId: null }
  // A live API token wins over a cookie: session-only routes must see that a token was used.
  // Anything else in the header (another scheme such as a proxy's Basic credentials, a malformed
  // or dead token) is not a credential, so the session cookie still counts, as in LANraragi.
  const authorization = request.headers.get('authorization')
  const secret = authorization ? tokenSecret(authorization) : null
  const token = secret ? authenticateApiToken(deps, secret, ip) : null
  if (token) return { kind: 'token', tokenId: token.id, role: token.role }
  const access = readCookie(request, ACCESS_COOKIE)
  if (access) {
    const familyId = await verifyAccessToken(deps.auth, access)
    if (familyId && sessionIsLive(deps, familyId)) return { kind: 'session', familyId }
  }
  return ANONYMOUS
}

/**
 * The API token an Authorization header carries: `Bearer <token>` (raw or base64), or Basic
 * credentials whose password is the token (any user name). OPDS readers can only send Basic
 * credentials (docs/clients.md); a Basic password that is not a token is no credential.
 */
function tokenSecret(authorization: string): string | null {
  const basic = /^Basic\s+([A-Za-z0-9+/=]{1,1024})\s*$/i.exec(authorization)
  if (!basic) return parseBearer(authorization)
  const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  return colon < 0 ? null : parseBearer(`Bearer ${decoded.slice(colon + 1).trim()}`)
}
