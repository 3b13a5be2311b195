// Resolves the Caller of a request: API token (Authorization: Bearer) or session cookie.
import type { Deps } from '../deps.ts'
import { ANONYMOUS, type Caller } from '../domain/auth/caller.ts'
import { passwordEnabled } from '../domain/auth/password.ts'
import { ACCESS_COOKIE, familyIsLive, verifyAccessToken } from '../domain/auth/sessions.ts'
import { findTokenBySecret } from '../domain/auth/tokens.ts'

export function readCookie(request: Request, name: string): string | null {
  const header = request.headers.get('cookie')
  if (!header) return null
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq < 0) continue
    if (part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim())
  }
  return null
}

export async function resolveCaller(deps: Deps, request: Request, ip: string | null): Promise<Caller> {
  if (!passwordEnabled(deps.settings)) return { kind: 'session', familyId: null }
  const authorization = request.headers.get('authorization')
  if (authorization) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization)
    const token = match ? findTokenBySecret(deps, match[1]!, ip) : null
    if (token) return { kind: 'token', tokenId: token.id, role: token.role }
    return ANONYMOUS
  }
  const access = readCookie(request, ACCESS_COOKIE)
  if (access) {
    const familyId = await verifyAccessToken(deps.sessionKeys, access)
    if (familyId && familyIsLive(deps.db, familyId)) return { kind: 'session', familyId }
  }
  return ANONYMOUS
}
