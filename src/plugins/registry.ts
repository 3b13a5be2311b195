// Finds plugin files (built-ins under plugins/<type>/, sideloaded ones under
// <dataDir>/plugins/custom/<type>/), reads each one's pluginInfo() through the sandbox, checks it and
// records it in the plugins table. A file with a bad manifest is skipped with a warning; the row of a
// deleted file is dropped.
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Db } from '../db/client.ts'
import {
  deletePluginsOtherThan,
  findPlugin,
  listPluginRows,
  upsertPluginRegistration,
} from '../db/repos/plugins.repo.ts'
import { loginFromProblem } from './login-links.ts'
import { createLogger } from '../log.ts'
import { AppError } from '../errors.ts'
import { PluginRunError, type SandboxHost } from './host.ts'
import { checkManifest, PLUGIN_TYPES, type PluginManifest, type PluginRunTag } from './manifest.ts'

const log = createLogger('plugins.registry')

/**
 * Checked manifests by the SHA-256 of their source. pluginInfo() runs in a fresh isolate with no
 * input, so one source always answers the same manifest: every server of the process (tests start
 * hundreds) reads the built-ins through the sandbox once, not once per start. Bounded: every
 * distinct upload adds one, so the least recently used go past MANIFESTS_KEPT.
 */
const manifestBySource = new Map<string, PluginManifest>()
const MANIFESTS_KEPT = 256

/** A registration run reads one pluginInfo() per file; it never needs long. */
const INFO_LIMITS = { wallMs: 10_000, memoryMb: 64 }

export type PluginOrigin = 'builtin' | 'sideloaded'
export type PluginFile = { namespace: string; type: string; origin: PluginOrigin; path: string }

export type PluginRegistry = {
  /** Starts a registration in the background (boot does not wait for the sandbox). */
  start(): void
  /** Settles once the latest registration is done; it never rejects. */
  ready(): Promise<void>
  /** Registers again now and waits for it (after an upload, for instance). */
  refresh(): Promise<void>
}

/** `plugins/<type>/<stem>.ts` under each root; built-ins first, so a name clash keeps the built-in. */
export function findPluginFiles(builtinDir: string, sideloadDir: string): PluginFile[] {
  const files: PluginFile[] = []
  const roots = [
    { dir: builtinDir, origin: 'builtin' as const, prefix: '' },
    { dir: sideloadDir, origin: 'sideloaded' as const, prefix: 'custom/' },
  ]
  for (const { dir, origin, prefix } of roots)
    for (const type of PLUGIN_TYPES) {
      const folder = join(dir, type)
      if (!existsSync(folder)) continue
      for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) =>
        a.name < b.name ? -1 : 1,
      )) {
        if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.d.ts')) continue
        const stem = entry.name.slice(0, -'.ts'.length)
        // The stem becomes part of a namespace and a URL query: plain names only.
        if (!/^[A-Za-z0-9_-]{1,100}$/.test(stem)) {
          log.warn('plugin file skipped: its name must be letters, digits, - or _', {
            path: join(folder, entry.name),
          })
          continue
        }
        files.push({
          namespace: `${prefix}${type}/${stem}`,
          type,
          origin,
          path: join(folder, entry.name),
        })
      }
    }
  return files
}

/**
 * A plugin source's checked manifest, read by running its pluginInfo() in the sandbox, or the
 * reason it is refused (pluginInfo() failed, or answered a bad manifest).
 */
export async function readManifest(
  sandbox: SandboxHost<PluginRunTag>,
  source: string,
  namespace: string,
): Promise<{ ok: true; manifest: PluginManifest } | { ok: false; reason: string }> {
  const sha256 = new Bun.CryptoHasher('sha256').update(source).digest('hex')
  const known = manifestBySource.get(sha256)
  if (known) {
    // Map order is insertion order: moving a hit to the end keeps the oldest first to go.
    manifestBySource.delete(sha256)
    manifestBySource.set(sha256, known)
    return { ok: true, manifest: known }
  }
  let info: unknown
  try {
    const out = await sandbox.run({
      source,
      filename: `${namespace}.ts`,
      entry: 'pluginInfo',
      ctx: { args: {}, oneshot: null },
      limits: INFO_LIMITS,
      tag: { namespace, hosts: [] },
      // Every registration shares one process; one a crash ends is read again on its own.
      isolation: 'plugin-info',
    })
    info = out.result
  } catch (err) {
    // A sandbox that cannot run at all (not installed beside the binary, closed) says nothing of
    // the plugin: its own error, not "Not a valid plugin".
    if (err instanceof AppError && !(err instanceof PluginRunError)) throw err
    return { ok: false, reason: `pluginInfo() failed: ${(err as Error).message}` }
  }
  const checked = checkManifest(info)
  if (checked.ok) {
    manifestBySource.set(sha256, checked.manifest)
    if (manifestBySource.size > MANIFESTS_KEPT)
      manifestBySource.delete(manifestBySource.keys().next().value!)
  }
  return checked
}

async function registerFile(
  db: Db,
  sandbox: SandboxHost<PluginRunTag>,
  file: PluginFile,
): Promise<void> {
  const skip = (reason: string) =>
    log.warn('plugin skipped', { namespace: file.namespace, path: file.path, reason })
  let source: string
  try {
    source = await Bun.file(file.path).text()
  } catch (err) {
    return skip(`unreadable: ${(err as Error).message}`)
  }
  const sha256 = new Bun.CryptoHasher('sha256').update(source).digest('hex')
  const stored = findPlugin(db, file.namespace)
  // An unchanged file keeps its registration: no sandbox run at every start.
  if (stored && stored.sha256 === sha256 && stored.source === file.path) return
  const read = await readManifest(sandbox, source, file.namespace)
  if (!read.ok) return skip(read.reason)
  const { manifest } = read
  if (manifest.type !== file.type)
    return skip(`declares type ${manifest.type} but lies in the ${file.type} folder`)
  // Uploads refuse this; a file put in the folder by hand is registered where it lies.
  if (manifest.namespace !== undefined && manifest.namespace !== file.namespace)
    log.warn('plugin namespace ignored: a namespace is where the file lies', {
      namespace: file.namespace,
      declared: manifest.namespace,
    })
  upsertPluginRegistration(db, {
    namespace: file.namespace,
    type: file.type,
    origin: file.origin,
    source: file.path,
    sha256,
    info: JSON.stringify(manifest),
  })
}

/**
 * A sideloaded (or built-in) plugin whose `login_from` names no installed login plugin stays
 * registered, listed as unresolved, and its runs fail until that login plugin is installed.
 */
function warnUnresolvedLogins(db: Db): void {
  const rows = new Map(listPluginRows(db).map((row) => [row.namespace, row]))
  for (const row of rows.values()) {
    const info = JSON.parse(row.info) as PluginManifest
    const problem = loginFromProblem({ type: row.type, info }, (ns) => rows.get(ns))
    if (problem)
      log.warn('plugin names no installed login plugin: its runs fail until one is installed', {
        namespace: row.namespace,
        reason: problem,
      })
  }
}

export function createPluginRegistry(options: {
  db: Db
  sandbox: SandboxHost<PluginRunTag>
  builtinDir: string
  sideloadDir: string
}): PluginRegistry {
  let current: Promise<void> = Promise.resolve()

  async function registerAll(): Promise<void> {
    const files = findPluginFiles(options.builtinDir, options.sideloadDir)
    await Promise.all(files.map((file) => registerFile(options.db, options.sandbox, file)))
    // Only a deleted file drops its row: one whose pluginInfo() fails now (or a sandbox that
    // cannot start) keeps the row, and with it the user's settings.
    const removed = deletePluginsOtherThan(
      options.db,
      files.map((file) => file.namespace),
    )
    if (removed.length > 0) log.info('plugins removed: their files are gone', { removed })
    warnUnresolvedLogins(options.db)
  }

  function refresh(): Promise<void> {
    // One registration at a time; each waits for the previous one.
    current = current.then(registerAll).catch((err: unknown) => {
      log.error('plugin registration failed', { error: (err as Error)?.message ?? String(err) })
    })
    return current
  }

  return {
    start() {
      void refresh()
    },
    ready: () => current,
    refresh,
  }
}
