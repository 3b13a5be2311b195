// A trial run of a wizard plugin (POST /api/plugin-wizard/trial-run): the source runs in the
// sandbox as an installed plugin of its type would (its own hosts only, the real fetch rules, the
// server's limits, its login plugin's session), against a URL or an archive. Nothing is installed
// or written: a script plugin gets no ctx.library, since that could change categories.
import { fail } from '../../errors.ts'
import { wrongAnswer } from '../../plugins/answer-check.ts'
import {
  PluginRunError,
  type PluginCtx,
  type PluginFetchRecord,
  type PluginLogLine,
} from '../../plugins/host.ts'
import { ENTRY_OF, type LoginSession, type PluginManifest } from '../../plugins/manifest.ts'
import { requireArchive } from '../archives/lookup.ts'
import { toAbsolutePath } from '../archives/files.ts'
import { loginSession } from '../plugins/login.ts'
import { pluginArchiveOf, type PluginRunDeps } from '../plugins/run.ts'
import { readSourceManifest, requireSourceSize } from './check-source.ts'

export type TrialRunRequest = {
  source: string
  url?: string
  archiveId?: string
  args?: Record<string, unknown>
  oneshot?: string
}

export type TrialRunAnswer = {
  /** The hook's answer as the plugin gave it (null when it failed). */
  result: unknown
  log: PluginLogLine[]
  fetches: PluginFetchRecord[]
  /** Why the run failed: the plugin threw, answered `{error}`, or a fetch was refused. */
  error?: string
}

/** The arguments of the run: those given, else each parameter's default_value. */
function argsOf(manifest: PluginManifest, given: Record<string, unknown> = {}) {
  const args: Record<string, unknown> = {}
  for (const parameter of manifest.parameters ?? [])
    if (parameter.name !== undefined && parameter.default_value !== undefined)
      args[parameter.name] = parameter.default_value
  return { ...args, ...given }
}

export async function trialRunPlugin(
  deps: PluginRunDeps,
  request: TrialRunRequest,
): Promise<TrialRunAnswer> {
  requireSourceSize(request.source)
  const read = await readSourceManifest(deps, request.source)
  if (!read.ok) throw fail.bad_request(`Not a valid plugin: ${read.reason}`)
  const manifest = read.manifest
  const archive = request.archiveId ? requireArchive(deps, request.archiveId) : undefined
  const oneshot = request.oneshot ?? request.url ?? null
  const ctx: PluginCtx = {
    args: argsOf(manifest, request.args),
    oneshot,
    ...(request.url ? { url: request.url } : {}),
    ...(archive ? { archive: pluginArchiveOf(archive) } : {}),
  }
  // An installed login plugin named in login_from lends its session, as for a real run; one that
  // is unknown or fails is a 400, as there.
  let login: LoginSession | undefined
  if (manifest.login_from && manifest.type !== 'login')
    login = await loginSession(deps, manifest.login_from)
  try {
    const out = await deps.sandbox.run({
      source: request.source,
      filename: 'wizard/plugin.ts',
      entry: ENTRY_OF[manifest.type],
      ctx,
      limits: {
        wallMs: deps.settings.get('plugin_timeout_ms'),
        memoryMb: deps.settings.get('plugin_memory_mb'),
      },
      tag: {
        namespace: 'wizard/plugin',
        hosts: manifest.hosts ?? [],
        ...(archive ? { archivePath: toAbsolutePath(deps.config.contentDir, archive.path) } : {}),
        ...(login ? { login } : {}),
      },
    })
    const answer: TrialRunAnswer = { result: out.result, log: out.logs, fetches: out.fetches }
    const failed = (out.result as { error?: unknown } | null)?.error
    if (typeof failed === 'string' && failed) answer.error = failed
    else {
      // As an installed plugin's run: an answer the SDK does not declare is a failure.
      const wrong = wrongAnswer(manifest.type, ENTRY_OF[manifest.type], out.result)
      if (wrong) answer.error = wrong
    }
    return answer
  } catch (err) {
    if (err instanceof PluginRunError)
      return { result: null, log: err.logs, fetches: err.fetches, error: err.message }
    throw err
  }
}
