// Wire shapes of plugins: PluginInfo, the settings and options bodies, the priority list and the
// query of a run.
import { t } from 'elysia'
import { MAX_EXPORT_NAMESPACES } from '../../domain/plugins/export.ts'
import type { InstalledPlugin } from '../../domain/plugins/settings.ts'

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
  /** Partial: only the keys sent change. `domain_rules` is checked by the net module's parser. */
  optionsBody: t.Object(
    {
      domain_rules: t.Optional(t.Array(t.Unknown(), { maxItems: 1000 })),
      bundle_as_archive: t.Optional(t.Boolean()),
      // The same range as the server-wide plugin_timeout_ms setting.
      timeout_ms: t.Optional(t.Union([t.Null(), t.Integer({ minimum: 100, maximum: 600_000 })])),
    },
    { additionalProperties: false },
  ),
  priorityBody: t.Object({
    type: t.String(),
    namespaces: t.Array(t.String(), { maxItems: 10_000 }),
  }),
  exportBatchBody: t.Object({
    namespaces: t.Array(t.String(), { maxItems: MAX_EXPORT_NAMESPACES }),
  }),
  useQuery: t.Object({
    plugin: t.Optional(t.String()),
    id: t.Optional(t.String()),
    arg: t.Optional(t.String()),
  }),
  queueQuery: t.Object({
    plugin: t.Optional(t.String()),
    id: t.Optional(t.String()),
    arg: t.Optional(t.String()),
    priority: t.Optional(t.String()),
  }),
}

/** PluginInfo; `registry` stays null until registry-managed plugins exist. */
export function toWirePlugin(plugin: InstalledPlugin) {
  const { info } = plugin
  return {
    name: info.name,
    namespace: plugin.namespace,
    author: info.author ?? '',
    description: info.description ?? '',
    version: info.version,
    type: plugin.type,
    icon: info.icon ?? '',
    origin: plugin.origin,
    registry: null,
    sha256: plugin.sha256,
    login_from: info.login_from ?? null,
    oneshot_arg: info.oneshot_arg ?? null,
    url_regex: info.url_regex ?? null,
    parameters: info.parameters ?? [],
    priority: plugin.priority,
  }
}
