// Plugins (#/plugins): every installed plugin by type and priority, with its settings, options
// and a run panel; plus installing (or replacing) one from a .ts file and deleting an uploaded one.
import { api } from '../api.ts'
import { useApi } from '../components/use-api.ts'
import { PluginUpload } from '../plugins/upload.tsx'
import { TypeList } from '../plugins/type-list.tsx'
import { PLUGIN_TYPES, type Plugin } from '../plugins/types.ts'
import { ErrorText } from '../components/error-text.tsx'

export function PluginsView(_: { parts: string[] }) {
  const list = useApi(() => api<Plugin[]>('/api/plugins/all'), [])
  const plugins = list.data ?? []
  const types = [
    ...PLUGIN_TYPES,
    ...new Set(
      plugins.map((p) => p.type).filter((t) => !(PLUGIN_TYPES as readonly string[]).includes(t)),
    ),
  ]
  return (
    <section class="stack plugins-view">
      <h1>Plugins</h1>
      <PluginUpload onInstalled={list.reload} />
      <ErrorText text={list.error} />
      {list.loading && !list.data && <p class="muted">Loading plugins…</p>}
      {list.data &&
        types.map((type) => (
          <TypeList
            key={type}
            type={type}
            plugins={plugins.filter((p) => p.type === type)}
            onChanged={list.reload}
          />
        ))}
    </section>
  )
}
