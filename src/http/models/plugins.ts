// Wire shapes of plugins: PluginInfo, the settings and options bodies, the priority list and the
// query of a run, and the answers of the settings and an upload.
import { t } from 'elysia'
import { MAX_EXPORT_NAMESPACES } from '../../domain/plugins/export.ts'
import type { ListedPlugin } from '../../domain/plugins/listing.ts'
import type { InstalledAnswer } from '../../domain/plugins/upload.ts'
import type { PluginSettings } from '../../domain/plugins/settings.ts'
import { pluginIcon } from '../../plugins/icons.ts'
import type { PluginParameter } from '../../plugins/manifest.ts'
import { ParamText, bodyParam } from '../params.ts'

export const PluginModel = {
  typeParams: t.Object({ type: t.String() }),
  namespaceQuery: t.Object({ namespace: t.Optional(t.String()) }),
  settingsBody: t.Object(
    {
      customargs: t.Optional(t.Array(t.Unknown(), { maxItems: 100 })),
      enabled: t.Optional(t.Boolean()),
    },
    { additionalProperties: false },
  ),
  /** Partial: only the keys sent change; keys and types are checked by updatePluginOptions. */
  optionsBody: t.Record(t.String(), t.Unknown()),
  priorityBody: t.Object({
    type: t.String(),
    namespaces: t.Array(t.String(), { maxItems: 10_000 }),
  }),
  exportBatchBody: t.Object({
    namespaces: t.Array(t.String(), { maxItems: MAX_EXPORT_NAMESPACES }),
  }),
  /** A run's params: in the query string or a form (or JSON) body; see runParams. */
  runQuery: t.Object({
    plugin: t.Optional(t.String()),
    id: t.Optional(t.String()),
    arg: t.Optional(t.String()),
    priority: t.Optional(t.String()),
  }),
  runBody: t.Optional(
    t.Object(
      { plugin: ParamText, id: ParamText, arg: ParamText, priority: ParamText },
      { additionalProperties: true },
    ),
  ),
}

export type RunQuery = typeof PluginModel.runQuery.static
export type RunBody = typeof PluginModel.runBody.static

/**
 * LANraragi reads a run's `plugin`, `id`, `arg` and `priority` as request params: its web client
 * puts them in the query string, other clients (the lanraragi Python client) in a form body. As
 * Mojolicious does, a field in both takes the body's value.
 */
export function runParams(body: RunBody | null, query: RunQuery): RunQuery {
  return {
    plugin: bodyParam(body, 'plugin') ?? query.plugin,
    id: bodyParam(body, 'id') ?? query.id,
    arg: bodyParam(body, 'arg') ?? query.arg,
    priority: bodyParam(body, 'priority') ?? query.priority,
  }
}

/**
 * A parameter as LANraragi lists it: every field a string (its plugins declare strings, and its
 * clients read a parameter as a map of strings), so a `default_value` that is not one is sent as
 * its JSON text (`false` -> "false"), and a secret parameter has `secret: "true"`. The settings
 * keep the typed value.
 */
function toWireParameter(param: PluginParameter) {
  const { default_value, secret, ...rest } = param
  return {
    ...rest,
    desc: param.desc ?? '',
    ...(default_value === undefined
      ? {}
      : {
          default_value:
            typeof default_value === 'string' ? default_value : JSON.stringify(default_value),
        }),
    ...(secret ? { secret: 'true' } : {}),
  }
}

/**
 * PluginInfo; `registry` stays null until registry-managed plugins exist. Beside LANraragi's
 * fields: `hosts` (the only hosts its fetch reaches; a login plugin's session goes only there),
 * `login_from_installed` and `used_by` (which plugins ride a login plugin's session).
 */
export function toWirePlugin(plugin: ListedPlugin) {
  const { info } = plugin
  return {
    name: info.name,
    namespace: plugin.namespace,
    author: info.author ?? '',
    description: info.description ?? '',
    version: info.version,
    type: plugin.type,
    icon: pluginIcon(info.icon, plugin.type),
    origin: plugin.origin,
    registry: null,
    sha256: plugin.sha256,
    login_from: info.login_from ?? null,
    login_from_installed: plugin.loginInstalled,
    used_by: plugin.usedBy,
    hosts: info.hosts ?? [],
    oneshot_arg: info.oneshot_arg ?? null,
    url_regex: info.url_regex ?? null,
    parameters: (info.parameters ?? []).map(toWireParameter),
    priority: plugin.priority,
  }
}

/** POST /api/plugins/upload: what was installed, and the version it replaced (or null). */
export const toWireInstalled = (i: InstalledAnswer) => ({
  namespace: i.namespace,
  version: i.version,
  previous_version: i.previousVersion,
})

/** GET/PUT /api/plugins/settings: LANraragi's two fields, then `secret_set` when there are secrets. */
export const toWirePluginSettings = (s: PluginSettings) => ({
  customargs: s.customargs,
  enabled: s.enabled,
  ...(s.secretSet === undefined ? {} : { secret_set: s.secretSet }),
})
