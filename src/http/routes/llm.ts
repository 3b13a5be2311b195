// The language-model route of its own: whether a provider is configured. The features that ask
// the provider are routed with the areas they serve (tankoubons, split, database).
import { Elysia } from 'elysia'
import type { Deps } from '../../deps.ts'
import { requestContext } from '../context.ts'
import type { PolicyRows } from '../policy.ts'

/** Access policy of this file's routes, keyed by `METHOD /path` as registered (http/policy.ts). */
export const llmPolicy = {
  'GET /api/llm/key-status': { op: 'llm_key_status', access: 'any' },
} satisfies PolicyRows

export const llmRoutes = (deps: Deps) =>
  new Elysia({ name: 'routes.llm' })
    .use(requestContext(deps))
    .get('/api/llm/key-status', () => ({ configured: deps.llm.configured() }))
