// The policy table's shape: every route's operation name and access level (the spec's Access
// column). Each route file declares its rows; the areas' union is the one table the request
// context looks routes up in. A route missing from it fails closed (500), and
// test/http/policy.test.ts fails when a registered route has no row.
import type { Access } from '../domain/auth/caller.ts'

export type { Access }
/**
 * guestScope: the handler limits what it answers to the guest-visitor scope (or answers nothing
 * archive-specific), so anonymous guest-mode visitors may call it. Guest mode keeps every other
 * route closed to them: a new route is refused to guests until it applies the scope.
 */
export type RoutePolicy = {
  op: string
  access: Access
  guestScope?: true
  body?: BodyClass
  /**
   * A 401 here carries `WWW-Authenticate: Basic`: OPDS readers send credentials only when
   * challenged. Nowhere else: a browser would pop its login box over the UI's own calls.
   */
  basicChallenge?: true
}

/**
 * How a route's request body is read. `json` (the default): small bodies, capped in size and JSON
 * nesting and parsed by the request context. `stream`: large bodies (uploads) read as a stream by
 * the handler itself, capped by the upload limit.
 */
export type BodyClass = 'json' | 'stream'

/** OPDS routes: reads, guest-scoped, and challenging readers for Basic credentials on a 401. */
export const OPDS_READ = { guestScope: true, basicChallenge: true } as const

/** One route file's rows, keyed by `METHOD /path/:param` exactly as Elysia registers the route. */
export type PolicyRows = Record<string, RoutePolicy>

/** The server's table: the union of every area's route files' rows (src/areas/index.ts). */
export type PolicyTable = {
  readonly rows: Readonly<PolicyRows>
  /** HEAD is answered by the GET route (Bun drops the body), so it shares that route's policy. */
  policyOf(method: string, route: string): RoutePolicy | undefined
}

/** The union of route files' rows; a key in two files is a mistake caught at start. */
export function policyTable(parts: readonly PolicyRows[]): PolicyTable {
  const rows: PolicyRows = {}
  for (const part of parts) {
    for (const [key, policy] of Object.entries(part)) {
      if (key in rows) throw new Error(`policy row ${key} is declared twice`)
      rows[key] = policy
    }
  }
  Object.freeze(rows)
  return {
    rows,
    policyOf: (method, route) => rows[`${method === 'HEAD' ? 'GET' : method} ${route}`],
  }
}
