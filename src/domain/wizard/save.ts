// Saving a wizard plugin (POST /api/plugin-wizard/save): the source passes the wizard's checks,
// then it is installed exactly as an uploaded file is (custom/<type>/<stem>.ts, registered, never
// replacing an installed namespace).
import type { Deps } from '../../deps.ts'
import { fail } from '../../errors.ts'
import { installUploadedPlugin, pluginStemOf } from '../plugins/upload.ts'
import { checkPluginSource, requireSourceSize } from './check-source.ts'

/**
 * Installs `source` as `custom/<type>/<stem>`, the stem from `filename` (`<stem>.ts`) or else from
 * the manifest's namespace or name. 400 when a check fails, 409 when the namespace is taken.
 */
export async function saveWizardPlugin(
  deps: Pick<Deps, 'config' | 'db' | 'plugins' | 'sandbox'>,
  body: { source: string; filename?: string },
): Promise<{ namespace: string }> {
  requireSourceSize(body.source)
  // A bad name is refused before the sandbox runs anything; unlike an upload's file name, a
  // path is not cut down to its last part.
  if (body.filename !== undefined) {
    if (/[\\/]/.test(body.filename))
      throw fail.bad_request(`The plugin file name "${body.filename}" must not hold a path.`)
    pluginStemOf(body.filename)
  }
  const check = await checkPluginSource(deps, body.source)
  if (!check.ok) throw fail.bad_request(check.errors.join(' '))
  const filename = body.filename ?? check.filename
  const { namespace } = await installUploadedPlugin(
    deps,
    filename,
    new TextEncoder().encode(body.source),
  )
  return { namespace }
}
