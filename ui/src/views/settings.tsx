// Settings (admin): the server's settings, the password, API tokens and browser sessions. Each
// section is a module in ui/src/settings/ with its own loading and errors.
import { useState } from 'preact/hooks'
import { PasswordForm } from '../settings/password.tsx'
import { ServerSettings } from '../settings/server-settings.tsx'
import { SessionsPanel } from '../settings/sessions.tsx'
import { TokensPanel } from '../settings/tokens.tsx'

export function SettingsView(_: { parts: string[] }) {
  // A password change signs other sessions out: the sessions list is reloaded after it.
  const [sessionsVersion, setSessionsVersion] = useState(0)
  return (
    <section class="settings stack">
      <h1>Settings</h1>
      <ServerSettings />
      <PasswordForm onChanged={() => setSessionsVersion((v) => v + 1)} />
      <TokensPanel />
      <SessionsPanel version={sessionsVersion} />
    </section>
  )
}
