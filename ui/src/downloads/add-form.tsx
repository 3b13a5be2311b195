// Adding URLs to the queue: one per line, each with the chosen download plugin, or the first
// whose url_regex matches it (the plugins' priority order) when left on automatic.
import { useState } from 'preact/hooks'
import { api } from '../api.ts'
import { notify, notifyError } from '../components/toast.tsx'
import type { Category } from '../types.ts'
import type { DownloadItem, PluginSummary } from './types.ts'
import { CategorySelect } from '../components/category-select.tsx'

type AddAnswer = { added: DownloadItem[]; rejected: { url: string; reason: string }[] }

const REASONS: Record<string, string> = {
  invalid_url: 'not a valid URL',
  unsupported_scheme: 'only http and https URLs can be downloaded',
  url_too_long: 'the URL is too long',
  plugin_not_installed: 'that plugin is not installed',
  not_a_download_plugin: 'that plugin is not a download plugin',
  invalid_category: 'that category cannot take archives',
}

/** The first plugin whose url_regex matches; a regex that does not compile matches nothing. */
function pluginFor(url: string, plugins: PluginSummary[]): string | undefined {
  for (const plugin of plugins) {
    if (!plugin.url_regex) continue
    try {
      if (new RegExp(plugin.url_regex).test(url)) return plugin.namespace
    } catch {
      // a plugin's bad pattern is its problem, not the form's
    }
  }
  return plugins[0]?.namespace
}

export function AddForm(props: { plugins: PluginSummary[]; categories: Category[] }) {
  const [urls, setUrls] = useState('')
  const [plugin, setPlugin] = useState('')
  const [category, setCategory] = useState('')
  const [fetchMetadata, setFetchMetadata] = useState(false)
  const [rejected, setRejected] = useState<AddAnswer['rejected']>([])

  const submit = async () => {
    const lines = urls
      .split(/\s+/)
      .map((line) => line.trim())
      .filter(Boolean)
    if (lines.length === 0) return
    try {
      const answer = await api<AddAnswer>('/api/download_queue', {
        method: 'POST',
        json: {
          items: lines.map((url) => ({
            url,
            plugin_namespace: plugin || pluginFor(url, props.plugins) || '',
            ...(category ? { category } : {}),
            auto_fetch_metadata: fetchMetadata,
          })),
        },
      })
      setRejected(answer.rejected)
      if (answer.added.length > 0) notify(`Queued ${answer.added.length}`)
      // Keep the refused lines in the box so they can be corrected.
      setUrls(answer.rejected.map((r) => r.url).join('\n'))
    } catch (e) {
      notifyError(e)
    }
  }

  return (
    <form
      class="card stack dl-add"
      onSubmit={(e) => {
        e.preventDefault()
        void submit()
      }}
    >
      <label class="stack-label">
        URLs (one per line)
        <textarea
          rows={3}
          value={urls}
          onInput={(e) => setUrls((e.target as HTMLTextAreaElement).value)}
        />
      </label>
      <div class="row">
        <label class="stack-label">
          Download plugin
          <select value={plugin} onChange={(e) => setPlugin((e.target as HTMLSelectElement).value)}>
            <option value="">Automatic (by URL)</option>
            {props.plugins.map((p) => (
              <option key={p.namespace} value={p.namespace}>
                {p.name} ({p.namespace})
              </option>
            ))}
          </select>
        </label>
        <CategorySelect
          label="Category"
          categories={props.categories}
          value={category}
          onChange={setCategory}
        />
        <label>
          <input
            type="checkbox"
            checked={fetchMetadata}
            onChange={(e) => setFetchMetadata((e.target as HTMLInputElement).checked)}
          />{' '}
          Fetch metadata after download
        </label>
      </div>
      {props.plugins.length === 0 && <p class="muted">No download plugin is installed.</p>}
      {rejected.length > 0 && (
        <ul class="error" role="alert" aria-label="Refused URLs">
          {rejected.map((r) => (
            <li key={r.url}>
              {r.url}: {REASONS[r.reason] ?? r.reason}
            </li>
          ))}
        </ul>
      )}
      <div class="row">
        <button type="submit" class="primary" disabled={props.plugins.length === 0}>
          Add to queue
        </button>
      </div>
    </form>
  )
}
