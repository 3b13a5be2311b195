// Log in with the admin password. On a first start the server printed a generated password once
// (docs/auth.md); the page says where to find it, and Settings changes it.
import { useState } from 'preact/hooks'
import { navigate, route } from '../router.ts'
import { afterLogin, loggedIn, loginStatus, logIn, serverInfo } from '../session.ts'
import { ErrorText } from '../components/error-text.tsx'
import { useAction } from '../components/use-action.ts'

export function LoginView(_: { parts: string[] }) {
  const [password, setPassword] = useState('')
  const { busy, error, run } = useAction()
  const onLoginPage = route.value.parts[0] === 'login'

  const submit = (event: Event) => {
    event.preventDefault()
    run(async () => {
      await logIn(password)
      setPassword('')
      // From the login page go back where the user was sent from (or the library); from a
      // guarded page, stay on it.
      if (onLoginPage) navigate(afterLogin(route.value.query), { replace: true })
    })
  }

  if (loggedIn.value && loginStatus.value?.password_enabled)
    return (
      <section class="login card">
        <p>You are logged in.</p>
        <a href="#/">Go to the library</a>
      </section>
    )

  return (
    <section class="login card">
      <h1>Log in to {serverInfo.value?.name || 'Tankobun'}</h1>
      {serverInfo.value?.motd && <p class="muted">{serverInfo.value.motd}</p>}
      <form class="stack" onSubmit={submit}>
        <label class="stack-label">
          <span>Password</span>
          <input
            type="password"
            autocomplete="current-password"
            value={password}
            onInput={(e) => setPassword((e.target as HTMLInputElement).value)}
            required
            autofocus
          />
        </label>
        <ErrorText text={error} />
        <button type="submit" class="primary" disabled={busy}>
          Log in
        </button>
      </form>
      <p class="muted">
        First start? Without <code>TANKOBUN_PASSWORD</code> the server printed a generated password
        once in its log; log in with it, then choose your own under Settings.
      </p>
    </section>
  )
}
