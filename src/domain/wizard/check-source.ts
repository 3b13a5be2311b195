// The checks a wizard plugin source passes before it is shown as done, run on trial or saved: it
// is one small text file, its pluginInfo() runs in the sandbox and answers a valid manifest (as an
// upload's does), and it exports the hook of its type. Also where a model's answer becomes a file.
import type { Deps } from '../../deps.ts'
import { fail } from '../../errors.ts'
import { PluginRunError } from '../../plugins/host.ts'
import { checkManifest, type PluginManifest } from '../../plugins/manifest.ts'
import { missingHook } from '../../plugins/hook-check.ts'
import { MAX_PLUGIN_SOURCE_BYTES } from '../plugins/upload.ts'

export type SourceCheck =
  | { ok: true; errors: []; manifest: PluginManifest; filename: string; namespace: string }
  | { ok: false; errors: string[] }

/**
 * The code of a model's answer: the first fenced block when it has one (```ts ... ```), else the
 * whole text; an unclosed fence (an answer cut short) keeps what follows it.
 */
export function stripCodeFences(answer: string): string {
  const open = /^[ \t]*(`{3,}|~{3,})[^\n]*\n/m.exec(answer)
  if (!open) return answer.trim() + '\n'
  const fence = open[1]!
  const body = answer.slice(open.index + open[0].length)
  const close = new RegExp(`^[ \\t]*${fence[0] === '`' ? '`' : '~'}{${fence.length},}[ \\t]*$`, 'm')
  const end = close.exec(body)
  return (end ? body.slice(0, end.index) : body).trim() + '\n'
}

/** A file stem the sideload folder takes (letters, digits, - and _), from the manifest. */
export function stemOf(manifest: PluginManifest): string {
  const raw = manifest.namespace?.split('/').pop() || manifest.name
  const stem = raw
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
  return stem || 'plugin'
}

/** The size cap of a plugin file, as for an upload (413 past it). */
export function requireSourceSize(source: string): void {
  if (new TextEncoder().encode(source).byteLength > MAX_PLUGIN_SOURCE_BYTES)
    throw fail.payload_too_large(
      `A plugin file must be at most ${MAX_PLUGIN_SOURCE_BYTES >> 20} MiB.`,
    )
}

/** A registration's pluginInfo() never needs long; neither does a wizard's. */
const INFO_LIMITS = { wallMs: 10_000, memoryMb: 64 }

/**
 * The source's manifest, read by running its pluginInfo() in the sandbox and checked as at
 * registration, or why it is refused. Not through the registry's process-wide manifest cache: a
 * wizard tries many drafts, and each would stay there for the life of the process.
 */
export async function readSourceManifest(
  deps: Pick<Deps, 'sandbox'>,
  source: string,
): Promise<{ ok: true; manifest: PluginManifest } | { ok: false; reason: string }> {
  let info: unknown
  try {
    const out = await deps.sandbox.run({
      source,
      filename: 'wizard/plugin.ts',
      entry: 'pluginInfo',
      ctx: { args: {}, oneshot: null },
      limits: INFO_LIMITS,
      tag: { namespace: 'wizard/plugin', hosts: [] },
    })
    info = out.result
  } catch (err) {
    if (!(err instanceof PluginRunError)) throw err
    return { ok: false, reason: `pluginInfo() failed: ${err.message}` }
  }
  return checkManifest(info)
}

/** Runs the checks; a failed one is data (the wizard shows it), never a throw. */
export async function checkPluginSource(
  deps: Pick<Deps, 'sandbox'>,
  source: string,
): Promise<SourceCheck> {
  if (source.trim() === '') return { ok: false, errors: ['The plugin source is empty.'] }
  const read = await readSourceManifest(deps, source)
  if (!read.ok) return { ok: false, errors: [`Not a valid plugin: ${read.reason}`] }
  const { manifest } = read
  const noHook = missingHook(source, manifest.type)
  if (noHook) return { ok: false, errors: [noHook] }
  const stem = stemOf(manifest)
  return {
    ok: true,
    errors: [],
    manifest,
    filename: `${stem}.ts`,
    namespace: `custom/${manifest.type}/${stem}`,
  }
}
