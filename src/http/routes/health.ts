// GET /api/health (open): quick checks for supervisors and load balancers; 503 when the database
// does not answer. Not an Env: probes read `status` (and the HTTP status) only.
import { Elysia } from 'elysia'
import type { Deps } from '../../deps.ts'
import { requestContext } from '../context.ts'
import { health } from '../../domain/health.ts'
import { toWireHealth } from '../models/health.ts'
import type { PolicyRows } from '../policy.ts'

/** Access policy of this file's routes, keyed by `METHOD /path` as registered (http/policy.ts). */
export const healthPolicy = {
  'GET /api/health': { op: 'health', access: 'open' },
} satisfies PolicyRows

export const healthRoutes = (deps: Deps) =>
  new Elysia({ name: 'routes.health' }).use(requestContext(deps)).get('/api/health', ({ set }) => {
    const answer = health(deps)
    set.headers['cache-control'] = 'no-store'
    if (answer.status !== 'ok') set.status = 503
    return toWireHealth(answer)
  })
