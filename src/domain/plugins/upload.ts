// Installing an uploaded plugin file (POST /api/plugins/upload): its pluginInfo() is read in the
// sandbox and checked before anything is written, then the file lands in the sideload folder under
// its type and is registered, replacing the file of the same namespace when the caller allows it.
import { linkSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Deps } from '../../deps.ts'
import { findPlugin } from '../../db/repos/plugins.repo.ts'
import { fail } from '../../errors.ts'
import type { PluginManifest } from '../../plugins/manifest.ts'
import { readManifest } from '../../plugins/registry.ts'
import { loginFromProblem } from '../../plugins/login-links.ts'
import { missingHook } from '../../plugins/hook-check.ts'
import { firstSyntaxError } from '../../plugins/syntax-check.ts'

/** A plugin is one source file; anything larger is not a plugin we want to run. */
export const MAX_PLUGIN_SOURCE_BYTES = 1024 * 1024

/** The stem becomes part of the namespace and of URL queries: the registry's plain names. */
const STEM = /^[A-Za-z0-9_-]{1,100}$/

/** The stem of an uploaded file name, or a 400 naming what is wrong with it. */
export function pluginStemOf(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? ''
  if (!base.endsWith('.ts') || base.endsWith('.d.ts'))
    throw fail.bad_request(`A plugin upload must be one .ts file, not "${base}".`)
  const stem = base.slice(0, -'.ts'.length)
  if (!STEM.test(stem))
    throw fail.bad_request(
      `The plugin file name "${base}" must be letters, digits, - or _ before .ts.`,
    )
  return stem
}

/** Reads a file part into memory, refusing it (413) as soon as it passes the cap. */
export async function readPluginSource(content: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of content) {
    size += chunk.byteLength
    if (size > MAX_PLUGIN_SOURCE_BYTES)
      throw fail.payload_too_large(
        `A plugin file must be at most ${MAX_PLUGIN_SOURCE_BYTES >> 20} MiB.`,
      )
    chunks.push(chunk)
  }
  const out = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    out.set(chunk, at)
    at += chunk.byteLength
  }
  return out
}

/** What an install did: the namespace, the new version, and the version it replaced (or null). */
export type InstalledAnswer = {
  namespace: string
  version: string
  previousVersion: string | null
}

/**
 * Checks and installs one uploaded plugin as `custom/<type>/<stem>`. 400 for a file that is not
 * UTF-8 or whose pluginInfo() fails or answers a bad manifest. An upload over an installed
 * sideloaded plugin of that namespace replaces its file (settings kept) when `replace` is set (the
 * upload route), else it is a 409 (the wizard's save never replaces). With `declaredNamespace:
 * 'must-match'` (the upload route) a manifest declaring another namespace than the one the file
 * gets is refused; the wizard's save names the file after that namespace itself.
 */
export async function installUploadedPlugin(
  deps: Pick<Deps, 'config' | 'db' | 'plugins' | 'sandbox'>,
  filename: string,
  bytes: Uint8Array,
  options: { replace: boolean; declaredNamespace: 'must-match' | 'ignored' } = {
    replace: false,
    declaredNamespace: 'ignored',
  },
): Promise<InstalledAnswer> {
  const stem = pluginStemOf(filename)
  let source: string
  try {
    source = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw fail.bad_request(`The plugin file "${filename}" is not UTF-8 text.`)
  }
  // Before the sandbox: its message for some syntax errors is only "Parse error", no line.
  const syntax = firstSyntaxError(source, `${stem}.ts`)
  if (syntax) throw fail.bad_request(`Not a valid plugin: ${syntax}`)
  const read = await readManifest(deps.sandbox, source, `upload/${stem}`)
  if (!read.ok) throw fail.bad_request(`Not a valid plugin: ${read.reason}`)
  const { type, version } = read.manifest
  const noHook = missingHook(source, type)
  if (noHook) throw fail.bad_request(`Not a valid plugin: ${noHook}`)
  const namespace = `custom/${type}/${stem}`
  // A namespace is where the file lies, for built-ins and uploads alike: a declared other one
  // would be ignored, and plugins naming it in login_from would fail at run time.
  const declared = read.manifest.namespace
  if (
    options.declaredNamespace === 'must-match' &&
    declared !== undefined &&
    declared !== namespace
  )
    throw fail.bad_request(
      `Not a valid plugin: pluginInfo() declares namespace "${declared}", but an uploaded ` +
        `plugin's namespace is custom/<type>/<file name>, here ${namespace}. Leave namespace ` +
        `out or set it to ${namespace} (and name it so in other plugins' login_from).`,
    )
  await deps.plugins.registry.ready()
  const taken = () => fail.conflict(`A plugin with namespace ${namespace} is already installed.`)
  const installed = findPlugin(deps.db, namespace)
  if (installed && !options.replace) throw taken()
  const previousVersion = installed ? (JSON.parse(installed.info) as PluginManifest).version : null
  // The login whose session it rides is approved with it: it must be installed already.
  const loginProblem = loginFromProblem({ type, info: read.manifest }, (ns) =>
    findPlugin(deps.db, ns),
  )
  if (loginProblem)
    throw fail.bad_request(`Not installed: ${loginProblem}. Install that login plugin first.`)

  const folder = join(deps.config.pluginsDir, 'custom', type)
  const target = join(folder, `${stem}.ts`)
  mkdirSync(folder, { recursive: true })
  // The registry reads only `*.ts`: the temp name is never picked up half-written.
  const temp = join(folder, `.upload-${crypto.randomUUID()}.tmp`)
  writeFileSync(temp, bytes)
  try {
    // A replace renames over the old file (never a half-written plugin). A new install links:
    // that fails when the name exists, so two uploads racing for one new name cannot both land.
    if (options.replace) renameSync(temp, target)
    else linkSync(temp, target)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw taken()
    throw err
  } finally {
    rmSync(temp, { force: true })
  }
  await deps.plugins.registry.refresh()
  const sha256 = new Bun.CryptoHasher('sha256').update(bytes).digest('hex')
  if (findPlugin(deps.db, namespace)?.sha256 !== sha256) {
    // Not expected (the manifest was checked above); a new file that did not register goes.
    if (!installed) rmSync(target, { force: true })
    throw fail.internal(`Plugin ${namespace} could not be registered.`)
  }
  return { namespace, version, previousVersion }
}
