// Sessions of login plugins: the first run of a plugin naming `login_from` runs that login plugin,
// and its cookies and headers are kept for a while for every later run, per server.
import { AppError, fail } from '../../errors.ts'
import type { LoginSession } from '../../plugins/manifest.ts'
import { pluginDataOf, runPluginRaw, type PluginRunDeps } from './run.ts'
import { findInstalledPlugin, pluginArgs } from './settings.ts'

/** A site's session usually outlives this; logging in again now and then picks up a new one. */
export const LOGIN_SESSION_TTL_MS = 30 * 60 * 1000

type Kept = { until: number; session: Promise<LoginSession> }

/**
 * Kept sessions by login plugin, file and arguments. Per server (deps.plugins), so test servers in
 * one process never share a session.
 */
export type LoginSessions = Map<string, Kept>

export const createLoginSessions = (): LoginSessions => new Map()

function toSession(data: Record<string, unknown>, hosts: string[]): LoginSession {
  const cookies: LoginSession['cookies'] = []
  for (const cookie of Array.isArray(data.cookies) ? data.cookies : []) {
    const { name, value, domain } = (cookie ?? {}) as Record<string, unknown>
    if (typeof name !== 'string' || !name || typeof value !== 'string') continue
    cookies.push({ name, value, ...(typeof domain === 'string' ? { domain } : {}) })
  }
  const headers: Record<string, string> = {}
  if (data.headers && typeof data.headers === 'object' && !Array.isArray(data.headers))
    for (const [name, value] of Object.entries(data.headers))
      if (typeof value === 'string') headers[name] = value
  return { cookies, headers, hosts }
}

/**
 * The session of the login plugin `namespace`, from its last run if it is recent and its file and
 * arguments are unchanged. A login that fails fails the run that needed it, and is not kept.
 */
export async function loginSession(deps: PluginRunDeps, namespace: string): Promise<LoginSession> {
  const plugin = await findInstalledPlugin(deps, namespace)
  if (!plugin) throw fail.bad_request(`Plugin ${namespace} named in login_from is not installed.`)
  if (plugin.type !== 'login')
    throw fail.bad_request(`Plugin ${namespace} named in login_from is not a login plugin.`)
  const args = await pluginArgs(deps, plugin)
  const key = `${plugin.namespace}\n${plugin.sha256}\n${JSON.stringify(args)}`
  const kept = deps.plugins.loginSessions
  const now = Date.now()
  const hit = kept.get(key)
  if (hit && hit.until > now) return hit.session
  const session = runPluginRaw(deps, plugin, undefined, null).then(({ result }) =>
    toSession(pluginDataOf(result), plugin.info.hosts ?? []),
  )
  const entry = { until: now + LOGIN_SESSION_TTL_MS, session }
  kept.set(key, entry)
  try {
    return await session
  } catch (err) {
    if (kept.get(key) === entry) kept.delete(key)
    const message = err instanceof Error ? err.message : String(err)
    throw err instanceof AppError && err.code !== 'bad_request'
      ? err
      : fail.bad_request(`Login plugin ${namespace} failed: ${message}`)
  }
}
