// The request context every route file uses: looks the route up in the policy table, resolves and
// checks the caller, and fills `operation` into success envelopes. Failures render as Env.
import { Elysia } from 'elysia'
import type { Deps } from '../deps.ts'
import { checkAccess, type Caller } from '../domain/auth/caller.ts'
import { fail } from '../errors.ts'
import { resolveCaller } from './auth.ts'
import { renderError } from './envelope.ts'
import { policyOf } from './policy.ts'

export type RequestContext = { caller: Caller; op: string; guestScoped: boolean; ip: string | null }

/** Elysia dedupes a named plugin by name + JSON of its seed: one seed per server instance. */
const seeds = new WeakMap<Deps, number>()
let nextSeed = 0

export function requestContext(deps: Deps) {
  let seed = seeds.get(deps)
  if (seed === undefined) seeds.set(deps, (seed = nextSeed++))
  return new Elysia({ name: 'request-context', seed })
    .derive({ as: 'global' }, async ({ request, route, server }): Promise<RequestContext> => {
      const policy = policyOf(request.method, route)
      if (!policy) throw fail.internal(`route ${request.method} ${route} has no access policy`)
      const ip = server?.requestIP(request)?.address ?? null
      const caller = await resolveCaller(deps, request, ip)
      const { guestScoped } = checkAccess(policy.access, caller, accessSettings(deps))
      return { caller, op: policy.op, guestScoped, ip }
    })
    .onAfterHandle({ as: 'global' }, ({ response, request, route }) => {
      if (isPlainEnvelope(response) && !('operation' in response)) {
        return { operation: policyOf(request.method, route)?.op ?? '', ...response }
      }
    })
    .onError({ as: 'global' }, ({ code, error, request, route }) => {
      const op = route ? (policyOf(request.method, route)?.op ?? '') : ''
      return renderError(op, code, error)
    })
}

/** The three settings access checks read, without copying the whole settings object per request. */
function accessSettings(deps: Deps) {
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
