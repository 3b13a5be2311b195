// Cross-origin access (`enable_cors`, `cors_origins`): credentialed CORS headers for origins named
// in the list, the plain wildcard for `*`, and preflight answers before routing (most routes register no OPTIONS handler).
import { Elysia } from 'elysia'
import type { Deps } from '../deps.ts'
import { fail } from '../errors.ts'

const ALLOW_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS'
const ALLOW_HEADERS = 'Authorization, Content-Type'
const PREFLIGHT_MAX_AGE_SECS = '600'
/** Readable by cross-origin scripts: the archive download's file name. */
const EXPOSE_HEADERS = 'Content-Disposition'

/** A configured entry is `*` or an exact origin such as `https://reader.example:8443`. */
export function isCorsOriginEntry(entry: string): boolean {
  if (entry === '*') return true
  if (!URL.canParse(entry)) return false
  const url = new URL(entry)
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === entry
}

export function assertCorsOrigins(value: unknown): void {
  if (!Array.isArray(value)) return
  const bad = value.find((entry) => typeof entry === 'string' && !isCorsOriginEntry(entry))
  if (bad !== undefined) {
    const shown = JSON.stringify(bad).slice(0, 100)
    throw fail.bad_request(`Invalid CORS origin ${shown}: use * or scheme://host[:port].`)
  }
}

/**
 * How an origin is admitted: `listed` (named in cors_origins: echoed, with credentials), `any`
 * (only through `*`: the plain wildcard, which browsers never combine with cookies, so a `*`
 * setting cannot lend the session to any site), or not at all. The opaque `null` origin
 * (sandboxed frames, files) only by name.
 */
export function originAdmission(
  origin: string,
  configured: readonly string[],
): 'listed' | 'any' | null {
  if (configured.includes(origin)) return 'listed'
  return origin !== 'null' && configured.includes('*') ? 'any' : null
}

function isApiPath(url: string): boolean {
  const path = url.slice(url.indexOf('/', url.indexOf('//') + 2))
  return path === '/api' || path.startsWith('/api/') || path.startsWith('/api?')
}

export function cors(deps: Pick<Deps, 'settings'>) {
  return new Elysia({ name: 'cors' }).onRequest(({ request, set }) => {
    if (!deps.settings.get('enable_cors') || !isApiPath(request.url)) return
    const origin = request.headers.get('origin')
    const configured = deps.settings.get('cors_origins')
    const headers: Record<string, string> = { vary: 'Origin' }
    let allowed = false
    const admission = origin ? originAdmission(origin, configured) : null
    if (origin && admission === 'listed') {
      allowed = true
      headers['access-control-allow-origin'] = origin
      headers['access-control-allow-credentials'] = 'true'
    } else if (admission === 'any' || (!origin && configured.includes('*'))) {
      // The plain wildcard, as LANraragi sends: token clients (Authorization header) work.
      allowed = true
      headers['access-control-allow-origin'] = '*'
    }
    // Preflights carry no credentials by design (Fetch spec), so they are answered here.
    if (request.method === 'OPTIONS') {
      if (allowed) {
        headers['access-control-allow-methods'] = ALLOW_METHODS
        headers['access-control-allow-headers'] = ALLOW_HEADERS
        headers['access-control-max-age'] = PREFLIGHT_MAX_AGE_SECS
      }
      return new Response(null, { status: 204, headers })
    }
    if (allowed) headers['access-control-expose-headers'] = EXPOSE_HEADERS
    Object.assign(set.headers, headers)
  })
}
