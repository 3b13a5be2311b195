// The session cookies (names, paths and lifetimes in docs/auth.md): reading them from a request
// and the Set-Cookie values that grant, rotate and clear them.
import { ACCESS_TTL_SECS } from '../domain/auth/access-token.ts'
import { REFRESH_TTL_SECS } from '../domain/auth/refresh.ts'
import { clientProtocol } from './same-origin.ts'

export const ACCESS_COOKIE = 'tankobun_access'
export const REFRESH_COOKIE = 'tankobun_refresh'
/** The refresh cookie travels only to the endpoint that redeems it. */
export const REFRESH_PATH = '/api/token/refresh'

export function readCookie(request: Request, name: string): string | null {
  const header = request.headers.get('cookie')
  if (!header) return null
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue
    const raw = part.slice(eq + 1).trim()
    try {
      return decodeURIComponent(raw)
    } catch (error) {
      if (error instanceof URIError) return null
      throw error
    }
  }
  return null
}

/** Secure when the client reached us over TLS (directly or through a proxy that says so). */
function secureFlag(request: Request): string {
  return clientProtocol(request) === 'https:' ? '; Secure' : ''
}

function cookie(request: Request, name: string, value: string, path: string, maxAge: number) {
  const attributes = `Path=${path}; HttpOnly; SameSite=Lax; Max-Age=${maxAge}`
  return `${name}=${value}; ${attributes}${secureFlag(request)}`
}

/** Both cookies of a session grant: a login, or a refresh (which rotates the refresh value). */
export function sessionCookies(
  request: Request,
  grant: { accessToken: string; refreshToken: string },
): string[] {
  return [
    cookie(request, ACCESS_COOKIE, grant.accessToken, '/', ACCESS_TTL_SECS),
    cookie(request, REFRESH_COOKIE, grant.refreshToken, REFRESH_PATH, REFRESH_TTL_SECS),
  ]
}

export function clearedSessionCookies(request: Request): string[] {
  return [
    cookie(request, ACCESS_COOKIE, '', '/', 0),
    cookie(request, REFRESH_COOKIE, '', REFRESH_PATH, 0),
  ]
}
