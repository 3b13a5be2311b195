// Plugins: the installed plugins found at start, their runs (plugin_exec, Run Automatically).
import { join } from 'node:path'
import { log } from './log.ts'
import type { Area } from './area.ts'
import type { PluginExecArgs } from '../domain/plugins/exec.ts'
import { pluginsPolicy, pluginsRoutes } from '../http/routes/plugins.ts'
import { createPluginRegistry, type PluginRegistry } from '../plugins/registry.ts'
import { BUILTIN_PLUGINS_DIR } from '../assets.ts'
import { pluginExecJob } from '../jobs/kinds/plugin-exec.ts'
import { runPluginsOnNewArchives } from '../domain/plugins/auto-run.ts'
import { applyDomainRules } from '../domain/plugins/settings.ts'
import { createLoginSessions, type LoginSessions } from '../domain/plugins/login.ts'

export type PluginsState = {
  /** Installed plugins, found in the background once the server listens; `ready()` waits. */
  registry: PluginRegistry
  /** Sessions of login plugins, kept for later runs of the plugins naming them. */
  loginSessions: LoginSessions
}

type PluginsJobArgs = { plugin_exec: PluginExecArgs }

export const pluginsArea: Area<'plugins', PluginsState, PluginsJobArgs> = {
  name: 'plugins',
  state: ({ db, sandbox, config }) => ({
    registry: createPluginRegistry({
      db,
      sandbox,
      builtinDir: BUILTIN_PLUGINS_DIR,
      sideloadDir: join(config.pluginsDir, 'custom'),
    }),
    loginSessions: createLoginSessions(),
  }),
  jobs: { plugin_exec: pluginExecJob },
  subscribe: (deps) => runPluginsOnNewArchives(deps),
  // In the background: the sandbox's cold start must not hold up the listen.
  start: (deps) => {
    const { registry } = deps.plugins
    registry.start()
    void registry.ready().then(() => {
      try {
        applyDomainRules(deps)
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error)
        log.warn('stored domain rules not applied', { error: message })
      }
    })
    // The sandbox closes first (a registration's runs then fail at once), and the registration
    // is waited for before the database closes.
    return async () => {
      await deps.sandbox.close()
      await registry.ready()
    }
  },
  routes: [{ routes: pluginsRoutes, policy: pluginsPolicy }],
}
