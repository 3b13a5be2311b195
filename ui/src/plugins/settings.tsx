// A plugin's settings (enabled, one typed input per declared parameter) and options (timeout,
// bundle as archive, domain rules), each saved with its own button.
import { useEffect, useState } from 'preact/hooks'
import { api, messageOf } from '../api.ts'
import { notify } from '../components/toast.tsx'
import { ConfirmButton } from '../components/confirm.tsx'
import type { DomainRule, Plugin, PluginOptions, PluginSettings } from './types.ts'
import { ErrorText } from '../components/error-text.tsx'

const q = (plugin: Plugin) => ({ namespace: plugin.namespace })

export function SettingsForm({ plugin }: { plugin: Plugin }) {
  const [settings, setSettings] = useState<PluginSettings | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    api<PluginSettings>('/api/plugins/settings', { query: q(plugin) })
      .then(setSettings)
      .catch((e) => setError(messageOf(e)))
  }, [plugin.namespace])

  const save = async (e: Event) => {
    e.preventDefault()
    if (!settings) return
    setError(null)
    try {
      const body = await api<PluginSettings>('/api/plugins/settings', {
        method: 'PUT',
        query: q(plugin),
        json: { customargs: settings.customargs, enabled: settings.enabled },
      })
      setSettings(body)
      notify(`Saved the settings of ${plugin.name}.`)
    } catch (err) {
      setError(messageOf(err))
    }
  }

  if (!settings) return error ? <ErrorText text={error} /> : <p class="muted">Loading settings…</p>
  const setArg = (i: number, value: unknown) => {
    const customargs = [...settings.customargs]
    customargs[i] = value
    setSettings({ ...settings, customargs })
  }
  return (
    <form class="stack plugin-settings" onSubmit={save} aria-label={`Settings of ${plugin.name}`}>
      <h4>Settings</h4>
      <label>
        <input
          type="checkbox"
          checked={settings.enabled}
          onChange={(e) =>
            setSettings({ ...settings, enabled: (e.target as HTMLInputElement).checked })
          }
        />
        {plugin.type === 'metadata' ? 'Run automatically on new archives' : 'Enabled'}
      </label>
      {plugin.parameters.map((param, i) => {
        const label = param.desc || param.name || `Argument ${i + 1}`
        const value = settings.customargs[i]
        if (param.type === 'bool')
          return (
            <label key={i}>
              <input
                type="checkbox"
                checked={value === true || value === 1 || value === '1' || value === 'true'}
                onChange={(e) => setArg(i, (e.target as HTMLInputElement).checked)}
              />
              {label}
            </label>
          )
        if (param.secret === 'true')
          return (
            <SecretInput
              key={i}
              label={label}
              value={value}
              set={settings.secret_set?.[i]}
              onInput={(v) => setArg(i, v)}
            />
          )
        return (
          <label key={i} class="stack-label">
            {label}
            {param.type === 'int' ? (
              <input
                type="number"
                value={value === undefined || value === null ? '' : String(value)}
                onInput={(e) => {
                  const raw = (e.target as HTMLInputElement).value
                  setArg(i, raw === '' ? raw : Number(raw))
                }}
              />
            ) : (
              <input
                type="text"
                value={value === undefined || value === null ? '' : String(value)}
                onInput={(e) => setArg(i, (e.target as HTMLInputElement).value)}
              />
            )}
          </label>
        )
      })}
      <div class="row">
        <button type="submit" class="primary">
          Save settings
        </button>
      </div>
      <ErrorText text={error} />
    </form>
  )
}

/**
 * A write-only argument: the server answers null and whether one is set. Left empty it stays as
 * saved (null is sent); typing replaces it; Clear sends "" to remove it.
 */
function SecretInput(props: {
  label: string
  value: unknown
  set: boolean | undefined
  onInput: (value: string | null) => void
}) {
  const typed = typeof props.value === 'string' ? props.value : ''
  const state = props.value === '' ? 'cleared on save' : props.set ? 'set' : 'not set'
  return (
    <label class="stack-label">
      <span>
        {props.label} <span class="muted">({state})</span>
      </span>
      <span class="row">
        <input
          type="password"
          autocomplete="new-password"
          placeholder={props.set ? 'Type to replace' : 'Type to set'}
          value={typed}
          onInput={(e) => {
            const raw = (e.target as HTMLInputElement).value
            props.onInput(raw === '' ? null : raw)
          }}
        />
        {props.set && (
          <button type="button" onClick={() => props.onInput('')}>
            Clear
          </button>
        )}
      </span>
    </label>
  )
}

const num = (raw: string) => (raw.trim() === '' ? undefined : Number(raw))

export function OptionsForm({ plugin }: { plugin: Plugin }) {
  const [options, setOptions] = useState<PluginOptions | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    api<{ options: PluginOptions }>('/api/plugins/options', { query: q(plugin) })
      .then((body) => setOptions(body.options))
      .catch((e) => setError(messageOf(e)))
  }, [plugin.namespace])

  const send = async (method: 'PUT' | 'DELETE') => {
    if (!options) return
    setError(null)
    try {
      const rules = options.domain_rules.filter((r) => r.pattern.trim() !== '')
      const body = await api<{ options: PluginOptions }>('/api/plugins/options', {
        method,
        query: q(plugin),
        json: method === 'PUT' ? { ...options, domain_rules: rules } : undefined,
      })
      setOptions(body.options)
      notify(method === 'PUT' ? `Saved the options of ${plugin.name}.` : 'Options reset.')
    } catch (err) {
      setError(messageOf(err))
    }
  }

  if (!options) return error ? <ErrorText text={error} /> : <p class="muted">Loading options…</p>
  const setRule = (i: number, patch: Partial<DomainRule>) => {
    const rules = options.domain_rules.map((r, j) => (j === i ? clean({ ...r, ...patch }) : r))
    setOptions({ ...options, domain_rules: rules })
  }
  return (
    <form
      class="stack plugin-options"
      aria-label={`Options of ${plugin.name}`}
      onSubmit={(e) => {
        e.preventDefault()
        send('PUT')
      }}
    >
      <h4>Options</h4>
      <label class="stack-label">
        Time limit per run (ms, empty for the server's)
        <input
          type="number"
          min={100}
          max={600000}
          value={options.timeout_ms ?? ''}
          onInput={(e) =>
            setOptions({
              ...options,
              timeout_ms: num((e.target as HTMLInputElement).value) ?? null,
            })
          }
        />
      </label>
      {plugin.type === 'download' && (
        <label>
          <input
            type="checkbox"
            checked={options.bundle_as_archive}
            onChange={(e) =>
              setOptions({ ...options, bundle_as_archive: (e.target as HTMLInputElement).checked })
            }
          />
          Bundle several files into one archive
        </label>
      )}
      <fieldset class="stack domain-rules">
        <legend>Domain rules</legend>
        {options.domain_rules.map((rule, i) => (
          <div key={i} class="row">
            <input
              aria-label={`Rule ${i + 1} host pattern`}
              placeholder="*.example.com"
              value={rule.pattern}
              onInput={(e) => setRule(i, { pattern: (e.target as HTMLInputElement).value })}
            />
            <input
              type="number"
              min={1}
              aria-label={`Rule ${i + 1} max concurrency`}
              placeholder="max at once"
              value={rule.max_concurrency ?? ''}
              onInput={(e) =>
                setRule(i, { max_concurrency: num((e.target as HTMLInputElement).value) })
              }
            />
            <input
              type="number"
              min={1}
              aria-label={`Rule ${i + 1} bytes per second`}
              placeholder="bytes/s"
              value={rule.bytes_per_sec ?? ''}
              onInput={(e) =>
                setRule(i, { bytes_per_sec: num((e.target as HTMLInputElement).value) })
              }
            />
            <button
              type="button"
              aria-label={`Remove rule ${i + 1}`}
              onClick={() =>
                setOptions({
                  ...options,
                  domain_rules: options.domain_rules.filter((_, j) => j !== i),
                })
              }
            >
              Remove
            </button>
          </div>
        ))}
        <div class="row">
          <button
            type="button"
            onClick={() =>
              setOptions({ ...options, domain_rules: [...options.domain_rules, { pattern: '' }] })
            }
          >
            Add rule
          </button>
        </div>
      </fieldset>
      <div class="row">
        <button type="submit" class="primary">
          Save options
        </button>
        <ConfirmButton question="Reset this plugin's options?" onConfirm={() => send('DELETE')}>
          Reset options
        </ConfirmButton>
      </div>
      <ErrorText text={error} />
    </form>
  )
}

/** Drops empty numeric fields (the server refuses null for them). */
function clean(rule: DomainRule): DomainRule {
  const out: DomainRule = { pattern: rule.pattern }
  if (rule.max_concurrency !== undefined && !Number.isNaN(rule.max_concurrency))
    out.max_concurrency = rule.max_concurrency
  if (rule.bytes_per_sec !== undefined && !Number.isNaN(rule.bytes_per_sec))
    out.bytes_per_sec = rule.bytes_per_sec
  return out
}
