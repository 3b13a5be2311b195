// API tokens for scripts and reader apps: create (the secret is shown once, with a copy button),
// rename, revoke. Revoking asks for a second click in place, not a browser dialog.
import { useState } from 'preact/hooks'
import { api } from '../api.ts'
import { notify, notifyError } from '../components/toast.tsx'
import { useApi } from '../components/use-api.ts'
import { when } from './time.ts'
import { ErrorText } from '../components/error-text.tsx'
import { useAction } from '../components/use-action.ts'

export type ApiToken = {
  id: string
  name: string
  role: 'admin' | 'guest'
  created_at: number
  expires_at?: number
  last_used_at?: number
  last_used_ip?: string
}

const DAY = 24 * 60 * 60
const EXPIRIES: [string, number | undefined][] = [
  ['Never', undefined],
  ['1 day', DAY],
  ['30 days', 30 * DAY],
  ['1 year', 365 * DAY],
]

export function TokensPanel() {
  const tokens = useApi(() => api<ApiToken[]>('/api/tokens'), [])
  const [secret, setSecret] = useState<{ name: string; token: string } | null>(null)
  return (
    <section class="card stack" aria-labelledby="settings-tokens">
      <h2 id="settings-tokens">API tokens</h2>
      <CreateToken
        onCreated={(name, token) => {
          setSecret({ name, token })
          tokens.reload()
        }}
      />
      {secret && <NewSecret {...secret} onDone={() => setSecret(null)} />}
      <ErrorText text={tokens.error} />
      {tokens.data && tokens.data.length === 0 && <p class="muted">No tokens yet.</p>}
      {tokens.data && tokens.data.length > 0 && (
        <div class="settings-table">
          <table aria-label="API tokens">
            <thead>
              <tr>
                <th>Name</th>
                <th>Role</th>
                <th>Created</th>
                <th>Last used</th>
                <th>Expires</th>
                <th>
                  <span class="lib-sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {tokens.data.map((token) => (
                <TokenRow key={token.id} token={token} onChange={tokens.reload} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}

/**
 * What each role may do (docs/auth.md, Roles and refusals), shown under the form: a reading app
 * given a guest token reads everything but cannot save progress, which users found out too late.
 */
const ROLE_HELP: Record<'admin' | 'guest', string> = {
  guest:
    'Guest: reads the library (search, covers, pages, downloads, categories, OPDS) but changes ' +
    'nothing: no reading progress, bookmarks or New flags are saved. For someone you lend the ' +
    'library to, or a script that only reads.',
  admin:
    'Admin: everything a reading app does, reading progress and bookmarks included, and every ' +
    'change (uploads, tags, deletions, plugins, settings). Only tokens, sessions, bulk deletes, ' +
    'imports and dropping the database stay with the logged-in browser. Use it for your own ' +
    'reading apps.',
}

function CreateToken({ onCreated }: { onCreated: (name: string, token: string) => void }) {
  const [name, setName] = useState('')
  const [role, setRole] = useState<'admin' | 'guest'>('guest')
  const [expiry, setExpiry] = useState(0)
  const { busy, error, run } = useAction()
  const submit = (event: Event) => {
    event.preventDefault()
    run(async () => {
      const answer = await api<{ data: ApiToken & { token: string } }>('/api/tokens', {
        method: 'POST',
        json: { name: name.trim(), role, expires_in_secs: EXPIRIES[expiry]?.[1] },
      })
      setName('')
      onCreated(answer.data.name, answer.data.token)
    })
  }
  return (
    <form class="stack" onSubmit={submit} aria-label="New token">
      <div class="row">
        <label>
          <span>Token name</span>
          <input
            type="text"
            required
            maxLength={100}
            value={name}
            onInput={(e) => setName((e.target as HTMLInputElement).value)}
          />
        </label>
        <label>
          <span>Role</span>
          <select
            value={role}
            aria-describedby="token-role-help"
            onChange={(e) => setRole((e.target as HTMLSelectElement).value as 'admin' | 'guest')}
          >
            <option value="guest">guest (read-only)</option>
            <option value="admin">admin</option>
          </select>
        </label>
        <label>
          <span>Expires</span>
          <select
            value={String(expiry)}
            onChange={(e) => setExpiry(Number((e.target as HTMLSelectElement).value))}
          >
            {EXPIRIES.map(([label], i) => (
              <option key={label} value={String(i)}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" class="primary" disabled={busy || !name.trim()}>
          Create token
        </button>
      </div>
      <p id="token-role-help" class="muted settings-role-help" aria-live="polite">
        {ROLE_HELP[role]}
      </p>
      <ErrorText text={error} />
    </form>
  )
}

/** The secret, once: the server keeps only its hash. */
function NewSecret({ name, token, onDone }: { name: string; token: string; onDone: () => void }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(token)
      notify('Token copied.')
    } catch {
      // No clipboard (plain HTTP, or denied): select it for a manual copy instead.
      const field = document.getElementById('settings-secret') as HTMLInputElement | null
      field?.select()
      notifyError('Copying was refused: the token is selected, copy it by hand.')
    }
  }
  return (
    <div class="settings-secret card" role="region" aria-label="New token secret">
      <p>
        The secret of <strong>{name}</strong>. It is shown only now: copy it before you leave.
      </p>
      <div class="row">
        <input
          id="settings-secret"
          type="text"
          readOnly
          aria-label="Token secret"
          value={token}
          onFocus={(e) => (e.target as HTMLInputElement).select()}
        />
        <button type="button" onClick={copy}>
          Copy
        </button>
        <button type="button" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  )
}

function TokenRow({ token, onChange }: { token: ApiToken; onChange: () => void }) {
  const [renaming, setRenaming] = useState<string | null>(null)
  const [confirming, setConfirming] = useState(false)
  const [busy, setBusy] = useState(false)
  const act = async (work: () => Promise<unknown>) => {
    setBusy(true)
    try {
      await work()
      onChange()
    } catch (e) {
      notifyError(e)
    } finally {
      setBusy(false)
    }
  }
  const path = `/api/tokens/${encodeURIComponent(token.id)}`
  const rename = (event: Event) => {
    event.preventDefault()
    act(async () => {
      await api(path, { method: 'PATCH', json: { name: (renaming ?? '').trim() } })
      setRenaming(null)
    })
  }
  return (
    <tr>
      <td>
        {renaming === null ? (
          token.name
        ) : (
          <form class="row" onSubmit={rename}>
            <input
              type="text"
              aria-label={`New name for ${token.name}`}
              required
              maxLength={100}
              value={renaming}
              onInput={(e) => setRenaming((e.target as HTMLInputElement).value)}
            />
            <button type="submit" disabled={busy}>
              Save
            </button>
            <button type="button" onClick={() => setRenaming(null)}>
              Cancel
            </button>
          </form>
        )}
      </td>
      <td>{token.role}</td>
      <td>{when(token.created_at)}</td>
      <td>
        {when(token.last_used_at)}
        {token.last_used_ip && <span class="muted"> ({token.last_used_ip})</span>}
      </td>
      <td>{token.expires_at ? when(token.expires_at) : 'never'}</td>
      <td class="settings-actions">
        {confirming ? (
          <>
            <button
              type="button"
              class="danger"
              disabled={busy}
              onClick={() =>
                act(async () => {
                  await api(path, { method: 'DELETE' })
                  notify(`Token ${token.name} revoked.`)
                })
              }
            >
              Revoke {token.name} now
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Keep
            </button>
          </>
        ) : (
          <>
            {renaming === null && (
              <button
                type="button"
                aria-label={`Rename ${token.name}`}
                onClick={() => setRenaming(token.name)}
              >
                Rename
              </button>
            )}
            <button
              type="button"
              class="danger"
              aria-label={`Revoke ${token.name}`}
              onClick={() => setConfirming(true)}
            >
              Revoke
            </button>
          </>
        )}
      </td>
    </tr>
  )
}
