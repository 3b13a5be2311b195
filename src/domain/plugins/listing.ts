// GET /api/plugins/{type}: the installed plugins of a type, each with what an administrator
// approves by installing it beside its manifest: which login plugin's session it rides (and
// whether that one is installed) and, for a login plugin, which plugins ride its session.
import type { Deps } from '../../deps.ts'
import { loginLinks } from '../../plugins/login-links.ts'
import { listPlugins, type InstalledPlugin } from './settings.ts'

export type ListedPlugin = InstalledPlugin & {
  /** Namespaces whose `login_from` names this (login) plugin. */
  usedBy: string[]
  /** Whether the followed `login_from` names an installed login plugin; null: it follows none. */
  loginInstalled: boolean | null
}

export async function listPluginsWithLogins(
  deps: Pick<Deps, 'db' | 'plugins'>,
  type: string,
): Promise<ListedPlugin[]> {
  const listed = await listPlugins(deps, type)
  const links = loginLinks(type === 'all' ? listed : await listPlugins(deps, 'all'))
  return listed.map((plugin) => ({
    ...plugin,
    usedBy: links.usedBy(plugin.namespace),
    loginInstalled: links.loginInstalled(plugin),
  }))
}
