// Quick checks for supervisors (GET /api/health): each one cheap enough to poll every few seconds.
import { existsSync } from 'node:fs'
import type { Deps } from '../deps.ts'
import { SANDBOX_MAIN_PATH, SANDBOX_NODE_PATH } from '../assets.ts'

export type Health = {
  status: 'ok' | 'error'
  /** The database answers a trivial query. */
  db: boolean
  /** The search index is built (searches answer 204 until then). */
  searchReady: boolean
  /** The plugin sandbox's runtime (Node 24 and its entry) is where the host starts it from. */
  sandbox: 'installed' | 'missing'
}

/** Whether the sandbox's runtime is where the host starts it from (beside the binary). */
export function sandboxInstalled(): boolean {
  return existsSync(SANDBOX_NODE_PATH) && existsSync(SANDBOX_MAIN_PATH)
}

function databaseAnswers(deps: Pick<Deps, 'db'>): boolean {
  try {
    return deps.db.$client.query('SELECT 1 AS one').get() !== null
  } catch {
    return false
  }
}

/** `status` is `error` only when the database fails: the rest degrades, it does not stop reads. */
export function health(deps: Pick<Deps, 'db' | 'search'>): Health {
  const db = databaseAnswers(deps)
  return {
    status: db ? 'ok' : 'error',
    db,
    searchReady: deps.search.ready,
    sandbox: sandboxInstalled() ? 'installed' : 'missing',
  }
}
