// Plugin sources packed as zip files: one plugin under its file name (GET /api/plugins/export), or
// several under their full namespace paths (POST /api/plugins/export-batch).
import type { Deps } from '../../deps.ts'
import { writeZip } from '../../archive/zip-writer.ts'
import { fail } from '../../errors.ts'
import { requirePlugin, type InstalledPlugin } from './settings.ts'

/** Namespaces one batch may name; far more than any install holds. */
export const MAX_EXPORT_NAMESPACES = 1000

export type PluginZip = { filename: string; bytes: Uint8Array<ArrayBuffer> }

async function sourceOf(plugin: InstalledPlugin): Promise<Uint8Array> {
  return Bun.file(plugin.source)
    .bytes()
    .catch(() => {
      throw fail.bad_request(`Plugin ${plugin.namespace} cannot be read: its file is gone.`)
    })
}

/** `<last>.zip` holding `<last>.ts`, where `<last>` is the namespace's last path component. */
export async function exportPlugin(
  deps: Pick<Deps, 'db' | 'plugins'>,
  namespace: string | undefined,
): Promise<PluginZip> {
  const plugin = await requirePlugin(deps, namespace)
  const last = plugin.namespace.split('/').pop()!
  return {
    filename: `${last}.zip`,
    bytes: writeZip([{ name: `${last}.ts`, data: await sourceOf(plugin) }]),
  }
}

/**
 * `plugins.zip` holding each plugin as `<namespace>.ts`, in the order given (a repeated namespace
 * once). Any unknown namespace fails the whole batch with a 400 naming it.
 */
export async function exportPlugins(
  deps: Pick<Deps, 'db' | 'plugins'>,
  namespaces: string[],
): Promise<PluginZip> {
  const unique = [...new Set(namespaces)]
  if (unique.length === 0) throw fail.bad_request('No plugin namespaces to export.')
  const entries = []
  for (const namespace of unique) {
    const plugin = await requirePlugin(deps, namespace)
    entries.push({ name: `${plugin.namespace}.ts`, data: await sourceOf(plugin) })
  }
  return { filename: 'plugins.zip', bytes: writeZip(entries) }
}
