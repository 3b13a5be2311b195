// Deleting an uploaded plugin (DELETE /api/plugins?namespace=): its file goes from the sideload
// folder and the registry drops its row, and with it the plugin's saved settings and options.
// Built-in plugins ship with the server and are refused: an update would bring them back.
import { rmSync } from 'node:fs'
import { relative, isAbsolute } from 'node:path'
import type { Deps } from '../../deps.ts'
import { findPlugin } from '../../db/repos/plugins.repo.ts'
import { fail } from '../../errors.ts'
import { requirePlugin } from './settings.ts'

/** Deletes the sideloaded plugin `namespace`, answering its namespace and the version it had. */
export async function deletePlugin(
  deps: Pick<Deps, 'config' | 'db' | 'plugins'>,
  namespace: string | undefined,
): Promise<{ namespace: string; version: string }> {
  const plugin = await requirePlugin(deps, namespace)
  if (plugin.origin === 'builtin')
    throw fail.bad_request(
      `Plugin ${plugin.namespace} is built in and cannot be deleted. It runs only when asked, ` +
        'or on new archives while Run Automatically is on in its settings.',
    )
  // The row's path is the registry's own, under the sideload folder; checked all the same, since
  // a delete must never reach outside it.
  const inside = relative(deps.config.pluginsDir, plugin.source)
  if (inside.startsWith('..') || isAbsolute(inside))
    throw fail.internal(`Plugin ${plugin.namespace} lies outside the plugins folder.`)
  rmSync(plugin.source, { force: true })
  await deps.plugins.registry.refresh()
  if (findPlugin(deps.db, plugin.namespace))
    throw fail.internal(`Plugin ${plugin.namespace} could not be removed.`)
  return { namespace: plugin.namespace, version: plugin.info.version }
}
