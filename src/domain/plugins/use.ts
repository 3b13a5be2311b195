// Running an installed plugin now (POST /api/plugins/use), answered as LANraragi answers it: 200
// for every outcome of the run, `success` telling which. Its clients read a refusal from the body
// (the lanraragi Python client expects "Plugin not found on system." at 200); nothing is written.
import { AppError, fail } from '../../errors.ts'
import type { PluginType } from '../../plugins/manifest.ts'
import { requireArchive } from '../archives/lookup.ts'
import { failureLog, logField, runPlugin, type PluginRunDeps } from './run.ts'
import type { RunLogLine } from './run-log.ts'
import { findInstalledPlugin } from './settings.ts'

/**
 * `log`: the last lines the plugin logged (see run-log.ts), only when it logged any, so a quiet
 * plugin's answer is exactly LANraragi's.
 */
export type UseAnswer =
  | { success: 1; type: PluginType; data: Record<string, unknown>; log?: RunLogLine[] }
  | {
      success: 0
      type: PluginType | null
      error: string
      data: { error: string }
      log?: RunLogLine[]
    }

/**
 * Runs `plugin` with the archive `id` (required by a metadata plugin) and the one-shot `arg`. A
 * refusal (unknown plugin or archive, the plugin's own error, a refused fetch, a time-out) is a
 * `success: 0` answer with LANraragi's wording where it has one; a server fault stays an error.
 */
export async function usePlugin(
  deps: PluginRunDeps,
  params: { plugin?: string; id?: string; arg?: string },
): Promise<UseAnswer> {
  let type: PluginType | null = null
  try {
    const plugin = await findInstalledPlugin(deps, params.plugin)
    if (!plugin) throw fail.bad_request('Plugin not found on system.')
    type = plugin.type
    if (plugin.type === 'metadata' && !params.id)
      throw fail.bad_request('Tried to call a metadata plugin without providing an id.')
    const archive = params.id ? requireArchive(deps, params.id) : undefined
    const { log, ...answer } = await runPlugin(deps, plugin, archive, params.arg ?? null)
    return { success: 1, ...answer, ...logField(log) }
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== 'bad_request') throw err
    return {
      success: 0,
      type,
      error: err.message,
      data: { error: err.message },
      ...logField(failureLog(err)),
    }
  }
}
