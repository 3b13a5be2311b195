// Refuses cross-origin writes made with a browser's ambient credentials (CSRF). SameSite=Lax keeps
// the session cookie off cross-site requests, but another app on the same host (any other port) is
// the same site, and a simple POST from it needs no preflight: it would act as the logged-in admin.
// Browsers say where a request comes from (Sec-Fetch-Site, else Origin); writes from elsewhere are
// refused unless an API token made them. docs/auth.md ("Cross-site request forgery").
import type { Caller } from '../domain/auth/caller.ts'
import { fail } from '../errors.ts'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])
/** `none`: the user started the request (typed address, bookmark), not a page. */
const OWN_FETCH_SITES = new Set(['same-origin', 'none'])

export type OriginRule = {
  /** Origins an admin named in cors_origins (with enable_cors on): they get the session too. */
  credentialedOrigins: readonly string[]
}

/**
 * Throws 403 for a state-changing request whose authority is ambient (the session cookie, or
 * anyone while password protection is off; also anonymous writes such as login) when the browser
 * says it comes from another origin. Token callers are never checked: a browser does not attach a
 * token by itself.
 */
export function checkSameOrigin(request: Request, caller: Caller, rule: OriginRule): void {
  if (SAFE_METHODS.has(request.method) || caller.kind === 'token') return
  // A script set this header, which a foreign page may do only after a CORS preflight this server
  // approved (password protection off: the header is not resolved, the caller is the session).
  if (/^Bearer\s/i.test(request.headers.get('authorization') ?? '')) return
  const origin = request.headers.get('origin')
  if (origin !== null && rule.credentialedOrigins.includes(origin)) return
  const site = request.headers.get('sec-fetch-site')
  if (site !== null) {
    if (OWN_FETCH_SITES.has(site.trim().toLowerCase())) return
    throw refused()
  }
  if (origin !== null && !ownOrigins(request).includes(origin)) throw refused()
}

function refused() {
  return fail.forbidden(
    'Cross-origin request refused: this change must come from the server’s own pages or carry an API token.',
  )
}

/**
 * How the client reached us: TLS directly, or a proxy in front saying so (X-Forwarded-Proto, the
 * same header the cookies' Secure flag trusts).
 */
export function clientProtocol(request: Request): 'https:' | 'http:' {
  const forwarded = firstValue(request.headers.get('x-forwarded-proto'))
  return new URL(request.url).protocol === 'https:' || forwarded === 'https' ? 'https:' : 'http:'
}

/**
 * The origins the browser may name for this server: its Host, and the host a proxy in front says
 * the browser used (X-Forwarded-Host). A page cannot add that header to a credentialed request
 * without a preflight, so trusting it lends nothing to another site.
 */
function ownOrigins(request: Request): string[] {
  const protocol = clientProtocol(request)
  const hosts = [
    firstValue(request.headers.get('x-forwarded-host')),
    request.headers.get('host') ?? new URL(request.url).host,
  ]
  const origins: string[] = []
  for (const host of hosts) {
    if (!host || !URL.canParse(`${protocol}//${host}`)) continue
    // URL drops a default port, as the Origin header does.
    origins.push(new URL(`${protocol}//${host}`).origin)
  }
  return origins
}

function firstValue(header: string | null): string | undefined {
  return header?.split(',')[0]?.trim().toLowerCase() || undefined
}
