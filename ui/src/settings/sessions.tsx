// Live browser sessions (login families): where and when each was used; any can be signed out.
// Signing out this one also clears its cookies, so the app goes back to the login page.
import { useState } from 'preact/hooks'
import { api } from '../api.ts'
import { notifyError } from '../components/toast.tsx'
import { useApi } from '../components/use-api.ts'
import { loadSession } from '../session.ts'
import { when } from './time.ts'
import { ErrorText } from '../components/error-text.tsx'

export type SessionInfo = {
  family_id: string
  created_at: number
  last_seen_at: number
  ip: string | null
  user_agent: string | null
  current: boolean
}

export function SessionsPanel({ version }: { version: number }) {
  const sessions = useApi(() => api<SessionInfo[]>('/api/sessions'), [version])
  const [busy, setBusy] = useState<string | null>(null)
  const signOut = async (session: SessionInfo) => {
    setBusy(session.family_id)
    try {
      await api(`/api/sessions/${encodeURIComponent(session.family_id)}`, { method: 'DELETE' })
      if (session.current) await loadSession()
      else sessions.reload()
    } catch (e) {
      notifyError(e)
    } finally {
      setBusy(null)
    }
  }
  const list = [...(sessions.data ?? [])].sort(
    (a, b) => Number(b.current) - Number(a.current) || b.last_seen_at - a.last_seen_at,
  )
  return (
    <section class="card stack" aria-labelledby="settings-sessions">
      <h2 id="settings-sessions">Sessions</h2>
      <ErrorText text={sessions.error} />
      {sessions.data && list.length === 0 && <p class="muted">No browser sessions.</p>}
      {list.length > 0 && (
        <ul class="settings-sessions" aria-label="Sessions">
          {list.map((session) => (
            <li key={session.family_id} class="row">
              <div class="stack settings-session-text">
                <span>
                  {session.user_agent || 'Unknown browser'}
                  {session.current && <strong class="settings-current"> This session</strong>}
                </span>
                <span class="muted">
                  {session.ip ?? 'unknown address'} · signed in {when(session.created_at)} · last
                  seen {when(session.last_seen_at)}
                </span>
              </div>
              <button
                type="button"
                class="danger"
                disabled={busy === session.family_id}
                onClick={() => signOut(session)}
              >
                {session.current ? 'Sign out here' : 'Sign out'}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
