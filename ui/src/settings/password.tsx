// Changing the admin password. The server revokes every other session when it changes (this
// one stays), which the form says before it is sent.
import { useState } from 'preact/hooks'
import { api } from '../api.ts'
import { notify } from '../components/toast.tsx'
import { ErrorText } from '../components/error-text.tsx'
import { useAction } from '../components/use-action.ts'

export function PasswordForm({ onChanged }: { onChanged: () => void }) {
  const [password, setPassword] = useState('')
  const [confirm, setConfirm] = useState('')
  const { busy, error, setError, run } = useAction()

  const submit = (event: Event) => {
    event.preventDefault()
    if (password !== confirm) return setError('The two passwords differ.')
    run(async () => {
      await api('/api/settings/password', { method: 'PUT', json: { password } })
      setPassword('')
      setConfirm('')
      notify('Password changed. Other sessions were signed out.')
      onChanged()
    })
  }

  return (
    <section class="card" aria-labelledby="settings-password">
      <h2 id="settings-password">Password</h2>
      <form class="stack" onSubmit={submit}>
        <p class="muted">
          Changing it signs out every other browser session. API tokens keep working; revoke them
          below if they leaked.
        </p>
        <div class="settings-fields">
          <label class="stack-label">
            <span>New password</span>
            <input
              type="password"
              autocomplete="new-password"
              required
              value={password}
              onInput={(e) => setPassword((e.target as HTMLInputElement).value)}
            />
          </label>
          <label class="stack-label">
            <span>Repeat the new password</span>
            <input
              type="password"
              autocomplete="new-password"
              required
              value={confirm}
              onInput={(e) => setConfirm((e.target as HTMLInputElement).value)}
            />
          </label>
        </div>
        <ErrorText text={error} />
        <div class="row">
          <button type="submit" class="primary" disabled={busy}>
            Change password
          </button>
        </div>
      </form>
    </section>
  )
}
