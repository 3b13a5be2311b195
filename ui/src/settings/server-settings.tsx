// The instance settings (`GET/PUT /api/settings`): one field per setting, typed by its current
// value; only changed settings are sent. The language-model key is write-only: the server says
// whether one is set, never what it is.
import { useEffect, useState } from 'preact/hooks'
import { api, messageOf } from '../api.ts'
import { notify } from '../components/toast.tsx'
import { loadSession } from '../session.ts'
import { ErrorText } from '../components/error-text.tsx'
import { useAction } from '../components/use-action.ts'

type Settings = Record<string, unknown>

/** Labels and hints; a setting missing here still gets a field under its own name. */
const LABELS: Record<string, string> = {
  name: 'Server name',
  motd: 'Message of the day',
  archives_per_page: 'Archives per page',
  nofun_mode: 'No-fun mode (API needs a login or token)',
  guest_mode: 'Guest mode (anonymous visitors see guest categories)',
  server_tracks_progress: 'Server tracks reading progress',
  authenticated_progress: 'Progress updates need a login',
  server_resizes_images: 'Server resizes large pages',
  tankoubons_as_archives: 'Tankoubons open as one long archive',
  excluded_namespaces: 'Namespaces hidden from tag statistics (comma-separated)',
  debug_mode: 'Debug mode',
  enable_cors: 'Enable CORS',
  cors_origins: 'CORS origins (comma-separated)',
  thumbnail_format: 'Thumbnail format',
  plugin_timeout_ms: 'Plugin timeout (ms)',
  plugin_memory_mb: 'Plugin memory (MB)',
  llm_base_url: 'Language model base URL',
  llm_model: 'Language model name',
}
/** Text settings that accept null (empty field = null: the server's environment default). */
const NULLABLE = new Set(['llm_base_url', 'llm_model'])
const CHOICES: Record<string, string[]> = { thumbnail_format: ['webp', 'jpeg'] }
const HIDDEN = new Set(['llm_api_key_set'])

const labelOf = (key: string) => LABELS[key] ?? key.replace(/_/g, ' ')
const listOf = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)

export function ServerSettings() {
  const [saved, setSaved] = useState<Settings | null>(null)
  const [draft, setDraft] = useState<Settings>({})
  const [apiKey, setApiKey] = useState('')
  const { busy, error, setError, run } = useAction()

  useEffect(() => {
    api<Settings>('/api/settings')
      .then((s) => {
        setSaved(s)
        setDraft(s)
      })
      .catch((e) => setError(messageOf(e)))
  }, [])

  if (!saved)
    return (
      <section class="card stack" aria-labelledby="settings-server">
        <h2 id="settings-server">Server</h2>
        {error ? <ErrorText text={error} /> : <p class="muted">Loading…</p>}
      </section>
    )

  const set = (key: string, value: unknown) => setDraft({ ...draft, [key]: value })

  const save = (patch: Settings) =>
    run(async () => {
      const next = await api<Settings>('/api/settings', { method: 'PUT', json: patch })
      setSaved(next)
      setDraft(next)
      setApiKey('')
      notify('Settings saved.')
      // The header shows the name, and the library reads the page size from /api/info.
      await loadSession().catch(() => {})
    })

  const submit = (event: Event) => {
    event.preventDefault()
    const patch: Settings = {}
    for (const [key, value] of Object.entries(draft))
      if (JSON.stringify(value) !== JSON.stringify(saved[key])) patch[key] = value
    if (apiKey) patch.llm_api_key = apiKey
    if (Object.keys(patch).length === 0) return notify('Nothing changed.')
    save(patch)
  }

  const keys = Object.keys(saved).filter((key) => !HIDDEN.has(key))
  const flags = keys.filter((key) => typeof saved[key] === 'boolean')
  const fields = keys.filter((key) => typeof saved[key] !== 'boolean')

  return (
    <section class="card" aria-labelledby="settings-server">
      <h2 id="settings-server">Server</h2>
      <form class="stack" onSubmit={submit}>
        <div class="settings-fields">
          {fields.map((key) => (
            <Field key={key} name={key} value={draft[key]} onChange={(v) => set(key, v)} />
          ))}
          <label class="stack-label">
            <span>Language model API key</span>
            <input
              type="password"
              autocomplete="off"
              placeholder={saved.llm_api_key_set ? 'set (type to replace)' : 'not set'}
              value={apiKey}
              onInput={(e) => setApiKey((e.target as HTMLInputElement).value)}
            />
          </label>
        </div>
        <fieldset class="settings-flags">
          <legend>Switches</legend>
          {flags.map((key) => (
            <label key={key}>
              <input
                type="checkbox"
                checked={draft[key] === true}
                onChange={(e) => set(key, (e.target as HTMLInputElement).checked)}
              />
              {labelOf(key)}
            </label>
          ))}
        </fieldset>
        <ErrorText text={error} />
        <div class="row">
          <button type="submit" class="primary" disabled={busy}>
            Save settings
          </button>
          {Boolean(saved.llm_api_key_set) && (
            <button type="button" disabled={busy} onClick={() => save({ llm_api_key: null })}>
              Remove the API key
            </button>
          )}
        </div>
      </form>
    </section>
  )
}

function Field(props: { name: string; value: unknown; onChange: (value: unknown) => void }) {
  const { name, value, onChange } = props
  const label = labelOf(name)
  const read = (e: Event) => (e.target as HTMLInputElement).value
  let input
  if (CHOICES[name])
    input = (
      <select value={String(value)} onChange={(e) => onChange(read(e))}>
        {CHOICES[name].map((choice) => (
          <option key={choice} value={choice}>
            {choice}
          </option>
        ))}
      </select>
    )
  else if (typeof value === 'number')
    input = (
      <input
        type="number"
        value={String(value)}
        onInput={(e) => {
          const n = Number(read(e))
          onChange(read(e) === '' || !Number.isFinite(n) ? read(e) : n)
        }}
      />
    )
  else if (Array.isArray(value))
    input = (
      <input type="text" value={value.join(', ')} onChange={(e) => onChange(listOf(read(e)))} />
    )
  else if (name === 'motd')
    input = <textarea value={String(value ?? '')} onInput={(e) => onChange(read(e))} />
  else
    input = (
      <input
        type="text"
        value={value === null || value === undefined ? '' : String(value)}
        placeholder={NULLABLE.has(name) ? 'server default' : undefined}
        onInput={(e) => onChange(NULLABLE.has(name) && read(e) === '' ? null : read(e))}
      />
    )
  return (
    <label class="stack-label">
      <span>{label}</span>
      {input}
    </label>
  )
}
