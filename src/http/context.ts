// The request context every route file uses: looks the route up in the policy table, resolves and
// checks the caller, and fills `operation` into success envelopes. Failures render as Env.
import { Elysia } from 'elysia'
import type { Deps } from '../deps.ts'
import { checkAccess, type Caller } from '../domain/auth/caller.ts'
import { AppError, fail } from '../errors.ts'
import { resolveCaller } from './auth.ts'
import { checkBodySize } from './body-limit.ts'
import { renderError } from './envelope.ts'
import { isJsonContentType, readJsonBody, requireJsonObject } from './json-body.ts'
import type { BodyClass, RoutePolicy } from './policy.ts'
import { checkSameOrigin } from './same-origin.ts'

export type RequestContext = {
  caller: Caller
  op: string
  guestScoped: boolean
  ip: string | null
  bodyClass: BodyClass
}

type RequestServer = { requestIP(request: Request): { address: string } | null } | null

export function requestContext(
  deps: Pick<Deps, 'auth' | 'config' | 'db' | 'instanceId' | 'policy' | 'settings'>,
) {
  // Elysia dedupes a named plugin by name + JSON of its seed: one seed per server instance.
  const seed = deps.instanceId
  const { policyOf } = deps.policy
  // One check per request, whichever hook gets there first.
  const checked = new WeakMap<Request, Promise<RequestContext>>()
  const authorize = (request: Request, route: string, server: RequestServer) => {
    let context = checked.get(request)
    if (!context) checked.set(request, (context = checkRequest(deps, request, route, server)))
    return context
  }
  return (
    new Elysia({ name: 'request-context', seed })
      // Before the body is read: a caller without the right credentials must not make the server
      // buffer an upload, and gets its 401/403 rather than a 400 about a body it may not send.
      // A body past its size cap (body-limit.ts) is refused here too, unread. JSON bodies are
      // then parsed here for every route, with the nesting cap (json-body.ts), never by Elysia.
      .onParse({ as: 'global' }, async ({ request, route, server, contentType }) => {
        const { bodyClass } = await authorize(request, route, server)
        // A streamed body is left unread: its handler reads it as it arrives (multipart.ts).
        if (bodyClass === 'stream') return null
        if (bodyClass === 'json' && isJsonContentType(contentType))
          return requireJsonObject(await readJsonBody(request))
      })
      .derive({ as: 'global' }, ({ request, route, server }) => authorize(request, route, server))
      .onAfterHandle({ as: 'global' }, ({ response, request, route }) => {
        if (isPlainEnvelope(response) && !('operation' in response)) {
          return { operation: policyOf(request.method, route)?.op ?? '', ...response }
        }
      })
      .onError({ as: 'global' }, ({ code, error, request, route }) => {
        const op = route ? (policyOf(request.method, route)?.op ?? '') : ''
        // Elysia wraps what a parse hook throws (the access check above) in a ParseError.
        const cause = code === 'PARSE' ? (error as Error).cause : undefined
        if (cause instanceof AppError) return renderError(op, 'APP', cause)
        return renderError(op, code, error)
      })
  )
}

async function checkRequest(
  deps: Pick<Deps, 'auth' | 'config' | 'db' | 'policy' | 'settings'>,
  request: Request,
  route: string,
  server: RequestServer,
): Promise<RequestContext> {
  const policy = deps.policy.policyOf(request.method, route)
  if (!policy) throw fail.internal(`route ${request.method} ${route} has no access policy`)
  const ip = server?.requestIP(request)?.address ?? null
  const caller = await resolveCaller(deps, request, ip)
  const { guestScoped } = challenged(policy, () =>
    checkAccess(policy.access, caller, accessSettings(deps), policy.guestScope === true),
  )
  checkSameOrigin(request, caller, { credentialedOrigins: credentialedOrigins(deps) })
  const bodyClass = policy.body ?? 'json'
  checkBodySize(request, bodyClass, deps.config)
  return { caller, op: policy.op, guestScoped, ip, bodyClass }
}

/** The access check, its 401 inviting Basic credentials where the policy says (OPDS readers). */
function challenged<T>(policy: RoutePolicy, check: () => T): T {
  try {
    return check()
  } catch (error) {
    if (policy.basicChallenge && error instanceof AppError && error.code === 'unauthorized')
      error.challenge = 'Basic realm="Tankobun"'
    throw error
  }
}

/** Origins the admin lent the session to (credentialed CORS, cors.ts): none while CORS is off. */
function credentialedOrigins(deps: Pick<Deps, 'settings'>): readonly string[] {
  return deps.settings.get('enable_cors') ? deps.settings.get('cors_origins') : []
}

/** The three settings access checks read, without copying the whole settings object per request. */
function accessSettings(deps: Pick<Deps, 'settings'>) {
  return {
    nofun_mode: deps.settings.get('nofun_mode'),
    guest_mode: deps.settings.get('guest_mode'),
    authenticated_progress: deps.settings.get('authenticated_progress'),
  }
}

function isPlainEnvelope(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.getPrototypeOf(value) === Object.prototype &&
    'success' in value
  )
}
