// Installed plugins as the API sees them: listings by type and priority, the user's arguments and
// Run Automatically toggle, per-plugin options (domain rules), and the priority order.
// Snake_case kept: PluginOptions keys are the stored `plugins.options` JSON, named as the API
// names them (as settings keys are).
import type { Deps } from '../../deps.ts'
import {
  findPlugin,
  listPluginRows,
  updatePluginRow,
  type PluginRow,
} from '../../db/repos/plugins.repo.ts'
import { tx } from '../../db/client.ts'
import { Value } from '@sinclair/typebox/value'
import { fail } from '../../errors.ts'
import { SETTING_SCHEMAS } from '../settings.ts'
import { parseDomainRules, type DomainRule } from '../../net/domain-rules.ts'
import {
  isSecretParameter,
  PLUGIN_TYPES,
  type PluginManifest,
  type PluginType,
} from '../../plugins/manifest.ts'

export type InstalledPlugin = {
  namespace: string
  type: PluginType
  origin: string
  sha256: string
  source: string
  info: PluginManifest
  priority: number
}

/**
 * `customargs` with each secret as null; `secretSet` (plugins with a secret parameter only): per
 * parameter, whether it is a secret one holding a value.
 */
export type PluginSettings = { customargs: unknown[]; enabled: boolean; secretSet?: boolean[] }

/** Stored per plugin; absent keys take these values. */
export type PluginOptions = {
  domain_rules: unknown[]
  bundle_as_archive: boolean
  /** Wall-clock budget of one run of this plugin; null: the server's `plugin_timeout_ms`. */
  timeout_ms: number | null
}
const DEFAULT_OPTIONS: PluginOptions = {
  domain_rules: [],
  bundle_as_archive: false,
  timeout_ms: null,
}

function toInstalled(row: PluginRow): InstalledPlugin {
  return {
    namespace: row.namespace,
    type: row.type as PluginType,
    origin: row.origin,
    sha256: row.sha256,
    source: row.source,
    info: JSON.parse(row.info) as PluginManifest,
    priority: row.priority,
  }
}

/** Listings wait for the registration that started with the server. */
export async function listPlugins(
  deps: Pick<Deps, 'db' | 'plugins'>,
  type: string,
): Promise<InstalledPlugin[]> {
  if (type !== 'all' && !PLUGIN_TYPES.includes(type as PluginType))
    throw fail.bad_request(`Unknown plugin type ${type}: use ${PLUGIN_TYPES.join(', ')} or all.`)
  await deps.plugins.registry.ready()
  return listPluginRows(deps.db, type === 'all' ? undefined : type).map(toInstalled)
}

/** The installed plugin of that namespace, once registration is done; undefined when none. */
export async function findInstalledPlugin(
  deps: Pick<Deps, 'db' | 'plugins'>,
  namespace: string | undefined,
): Promise<InstalledPlugin | undefined> {
  if (!namespace) return undefined
  await deps.plugins.registry.ready()
  const row = findPlugin(deps.db, namespace)
  return row ? toInstalled(row) : undefined
}

export async function requirePlugin(
  deps: Pick<Deps, 'db' | 'plugins'>,
  namespace: string | undefined,
): Promise<InstalledPlugin> {
  if (!namespace) throw fail.bad_request('Missing plugin namespace.')
  const plugin = await findInstalledPlugin(deps, namespace)
  if (!plugin) throw fail.bad_request(`Plugin ${namespace} not found on system.`)
  return plugin
}

/** Exactly one argument per declared parameter: a stale array is padded with defaults or cut. */
function reconcileArgs(plugin: InstalledPlugin, stored: unknown[]): unknown[] {
  const params = plugin.info.parameters ?? []
  return params.map((param, i) => (i < stored.length ? stored[i] : (param.default_value ?? '')))
}

/** The saved arguments, one per parameter, secrets included: for runs, never for answers. */
function storedArgs(deps: Pick<Deps, 'db'>, plugin: InstalledPlugin): unknown[] {
  const row = findPlugin(deps.db, plugin.namespace)
  const stored = row ? (JSON.parse(row.customargs) as unknown) : []
  return reconcileArgs(plugin, Array.isArray(stored) ? stored : [])
}

/** A secret counts as set when it holds something other than an empty string. */
const isSet = (value: unknown) => value !== undefined && value !== null && value !== ''

/**
 * The settings as answered: a secret parameter's value is null, and `secretSet` tells per
 * parameter whether a secret one holds a value (like the write-only `llm_api_key`).
 */
export async function getPluginSettings(
  deps: Pick<Deps, 'db' | 'plugins'>,
  namespace: string | undefined,
): Promise<PluginSettings> {
  const plugin = await requirePlugin(deps, namespace)
  const row = findPlugin(deps.db, plugin.namespace)!
  const params = plugin.info.parameters ?? []
  const args = storedArgs(deps, plugin)
  const secret = (i: number) => isSecretParameter(params[i]!)
  return {
    customargs: args.map((value, i) => (secret(i) ? null : value)),
    enabled: row.enabled,
    // Only with a secret parameter: other plugins answer LANraragi's two fields alone.
    ...(params.some(isSecretParameter)
      ? { secretSet: args.map((value, i) => secret(i) && isSet(value)) }
      : {}),
  }
}

/**
 * Saves a plugin's arguments and toggle. A secret parameter sent as null, or not sent (a shorter
 * array), keeps its saved value, so a client echoing the GET (which answers null there) never
 * wipes it; `""` clears it.
 */
export async function setPluginSettings(
  deps: Pick<Deps, 'db' | 'plugins'>,
  namespace: string | undefined,
  patch: { customargs?: unknown[]; enabled?: boolean },
): Promise<PluginSettings> {
  const plugin = await requirePlugin(deps, namespace)
  let customargs: unknown[] | undefined
  if (patch.customargs !== undefined) {
    const params = plugin.info.parameters ?? []
    const saved = storedArgs(deps, plugin)
    const sent = patch.customargs
    customargs = reconcileArgs(plugin, sent).map((value, i) =>
      isSecretParameter(params[i]!) && (i >= sent.length || sent[i] === null) ? saved[i] : value,
    )
  }
  updatePluginRow(deps.db, plugin.namespace, {
    ...(customargs === undefined ? {} : { customargs: JSON.stringify(customargs) }),
    ...(patch.enabled === undefined ? {} : { enabled: patch.enabled }),
  })
  return getPluginSettings(deps, plugin.namespace)
}

/** The arguments a run gets: each saved value under its parameter's name (or its position). */
export async function pluginArgs(
  deps: Pick<Deps, 'db'>,
  plugin: InstalledPlugin,
): Promise<Record<string, unknown>> {
  const customargs = storedArgs(deps, plugin)
  const params = plugin.info.parameters ?? []
  return Object.fromEntries(params.map((param, i) => [param.name ?? String(i), customargs[i]]))
}

function storedOptions(row: PluginRow): PluginOptions {
  return { ...DEFAULT_OPTIONS, ...(JSON.parse(row.options) as Partial<PluginOptions>) }
}

/** The wall-clock budget of one run: the plugin's own `timeout_ms`, else the server setting. */
export function pluginTimeoutMs(deps: Pick<Deps, 'db' | 'settings'>, namespace: string): number {
  const row = findPlugin(deps.db, namespace)
  return (row && storedOptions(row).timeout_ms) || deps.settings.get('plugin_timeout_ms')
}

export async function getPluginOptions(
  deps: Pick<Deps, 'db' | 'plugins'>,
  namespace: string | undefined,
): Promise<PluginOptions> {
  const plugin = await requirePlugin(deps, namespace)
  return storedOptions(findPlugin(deps.db, plugin.namespace)!)
}

/** A plugin's own budget takes the range of the server-wide plugin_timeout_ms setting. */
const TIMEOUT_SCHEMA = SETTING_SCHEMAS.plugin_timeout_ms
const MAX_DOMAIN_RULES = 1000

/**
 * A body of PUT /api/plugins/options checked as a partial PluginOptions: an unknown key is a 400
 * (a misspelt `domain_rulez` would otherwise save nothing and answer success), as is a wrong type.
 */
function optionsPatchOf(body: unknown): Partial<PluginOptions> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw fail.bad_request('The body must be an object of plugin options.')
  const patch = body as Record<string, unknown>
  for (const key of Object.keys(patch))
    if (!Object.hasOwn(DEFAULT_OPTIONS, key))
      throw fail.bad_request(
        `Unknown plugin option ${JSON.stringify(key.slice(0, 64))}: the options are ${Object.keys(DEFAULT_OPTIONS).join(', ')}.`,
      )
  const { domain_rules, bundle_as_archive, timeout_ms } = patch
  if (
    domain_rules !== undefined &&
    (!Array.isArray(domain_rules) || domain_rules.length > MAX_DOMAIN_RULES)
  )
    throw fail.bad_request(`Invalid domain_rules: a list of at most ${MAX_DOMAIN_RULES} rules.`)
  if (bundle_as_archive !== undefined && typeof bundle_as_archive !== 'boolean')
    throw fail.bad_request('Invalid bundle_as_archive: true or false.')
  if (timeout_ms !== undefined && timeout_ms !== null && !Value.Check(TIMEOUT_SCHEMA, timeout_ms))
    throw fail.bad_request(
      `Invalid timeout_ms: an integer from ${TIMEOUT_SCHEMA.minimum} to ${TIMEOUT_SCHEMA.maximum}, or null.`,
    )
  return patch as Partial<PluginOptions>
}

/** Partial: omitted fields keep their stored value. Domain rules are checked before anything is saved. */
export async function updatePluginOptions(
  deps: Pick<Deps, 'db' | 'outbound' | 'plugins'>,
  namespace: string | undefined,
  body: unknown,
): Promise<PluginOptions> {
  const plugin = await requirePlugin(deps, namespace)
  const patch = optionsPatchOf(body)
  if (patch.domain_rules !== undefined) parseDomainRules(patch.domain_rules)
  const next = { ...storedOptions(findPlugin(deps.db, plugin.namespace)!), ...patch }
  updatePluginRow(deps.db, plugin.namespace, { options: JSON.stringify(next) })
  applyDomainRules(deps)
  return next
}

export async function resetPluginOptions(
  deps: Pick<Deps, 'db' | 'outbound' | 'plugins'>,
  namespace: string | undefined,
): Promise<PluginOptions> {
  const plugin = await requirePlugin(deps, namespace)
  updatePluginRow(deps.db, plugin.namespace, { options: '{}' })
  applyDomainRules(deps)
  return { ...DEFAULT_OPTIONS }
}

/**
 * The outbound client holds one rule list: the rules of every plugin, by priority; a pattern two
 * plugins both name keeps the first plugin's rule.
 */
export function applyDomainRules(deps: Pick<Deps, 'db' | 'outbound'>): void {
  const rules = new Map<string, DomainRule>()
  for (const row of listPluginRows(deps.db))
    for (const rule of parseDomainRules(storedOptions(row).domain_rules))
      if (!rules.has(rule.pattern)) rules.set(rule.pattern, rule)
  deps.outbound.setRules([...rules.values()])
}

/** Each listed namespace of `type` gets its position as priority; others are skipped silently. */
export async function setPluginPriority(
  deps: Pick<Deps, 'db' | 'plugins'>,
  type: string,
  namespaces: string[],
): Promise<void> {
  await deps.plugins.registry.ready()
  tx(deps.db, () =>
    namespaces.forEach((namespace, position) => {
      const row = findPlugin(deps.db, namespace)
      if (row?.type === type) updatePluginRow(deps.db, namespace, { priority: position })
    }),
  )
}
