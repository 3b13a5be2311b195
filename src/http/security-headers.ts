// Response headers every answer carries. Pages and thumbnails are bytes from user archives:
// `nosniff` keeps a browser from reading one as HTML or script whatever its bytes look like. No
// page of ours may be framed (clickjacking) or leak its URL to another site, and answers that
// carry credentials or settings are never stored by a browser or proxy cache.
import { Elysia } from 'elysia'

/** Paths whose answers hold secrets or session state (tokens, cookies, settings). */
const NO_STORE_PREFIXES = [
  '/api/login',
  '/api/logout',
  '/api/token',
  '/api/sessions',
  '/api/settings',
]

export function isNoStorePath(path: string): boolean {
  return NO_STORE_PREFIXES.some(
    (prefix) =>
      path === prefix ||
      path.startsWith(prefix + '/') ||
      path.startsWith(prefix + '?') ||
      // /api/token covers /api/tokens and /api/token/refresh
      (prefix === '/api/token' && path.startsWith('/api/tokens')),
  )
}

/**
 * The web UI's policy, sent on every answer: scripts, styles and connections only from this
 * server, images also as blob: (page compare) and data: URLs; no plugins, no framing, no <base>.
 * A title or tag that got rendered as markup still could not run a script.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

export function securityHeaders() {
  return new Elysia({ name: 'security-headers' }).onRequest(({ request, set }) => {
    set.headers['x-content-type-options'] = 'nosniff'
    set.headers['referrer-policy'] = 'no-referrer'
    set.headers['x-frame-options'] = 'DENY'
    set.headers['content-security-policy'] = CONTENT_SECURITY_POLICY
    const url = request.url
    const path = url.slice(url.indexOf('/', url.indexOf('//') + 2))
    if (isNoStorePath(path)) set.headers['cache-control'] = 'no-store'
  })
}
