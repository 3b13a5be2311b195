// Which plugins ride which login plugin's session (`login_from`), resolved against the installed
// plugins: an upload naming no installed login plugin is refused, a sideloaded one is logged and
// listed as unresolved, and a login plugin lists the plugins that use it.
import type { PluginManifest } from './manifest.ts'

type Named = { namespace: string; type: string; info: Pick<PluginManifest, 'login_from'> }

/** The plugin's `login_from` if it is followed: a login plugin's own is not (two could loop). */
export function followedLogin(plugin: {
  type: string
  info: Pick<PluginManifest, 'login_from'>
}): string | null {
  return plugin.type !== 'login' && plugin.info.login_from ? plugin.info.login_from : null
}

/** Why `login_from` does not name an installed login plugin, or null when it does (or is unset). */
export function loginFromProblem(
  plugin: { type: string; info: Pick<PluginManifest, 'login_from'> },
  find: (namespace: string) => { type: string } | undefined,
): string | null {
  const login = followedLogin(plugin)
  if (!login) return null
  const named = find(login)
  if (!named) return `login_from names ${login}, which is not an installed plugin`
  if (named.type !== 'login')
    return `login_from names ${login}, which is a ${named.type} plugin, not a login plugin`
  return null
}

export type LoginLinks = {
  /** A login plugin's users (namespaces, sorted); [] for others. */
  usedBy(namespace: string): string[]
  /** Whether the plugin's followed `login_from` resolves; null when it follows none. */
  loginInstalled(plugin: Named): boolean | null
}

/** The links between `plugins` (every installed plugin). */
export function loginLinks(plugins: readonly Named[]): LoginLinks {
  const byNamespace = new Map(plugins.map((p) => [p.namespace, p]))
  const users = new Map<string, string[]>()
  for (const plugin of plugins) {
    const login = followedLogin(plugin)
    if (login && !loginFromProblem(plugin, (ns) => byNamespace.get(ns)))
      users.set(login, [...(users.get(login) ?? []), plugin.namespace].sort())
  }
  return {
    usedBy: (namespace) => users.get(namespace) ?? [],
    loginInstalled: (plugin) =>
      followedLogin(plugin) === null
        ? null
        : loginFromProblem(plugin, (ns) => byNamespace.get(ns)) === null,
  }
}
