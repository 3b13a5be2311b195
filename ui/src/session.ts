// Who the UI is talking to and as whom: server info (name, motd, settings shown to clients) and
// the login state. Views read these signals; login and logout update them.
import { computed, signal } from '@preact/signals'
import { api, onUnauthorized } from './api.ts'
import { href, navigate, route } from './router.ts'
import type { LoginStatus, ServerInfo } from './types.ts'

export const serverInfo = signal<ServerInfo | null>(null)
export const loginStatus = signal<LoginStatus | null>(null)
/** True once the caller may use admin pages (logged in, or no password set). */
export const loggedIn = computed(() => loginStatus.value?.logged_in === true)

export async function loadSession(): Promise<void> {
  const [info, status] = await Promise.all([
    api<ServerInfo>('/api/info'),
    api<LoginStatus>('/api/login/status'),
  ])
  serverInfo.value = info
  loginStatus.value = status
}

export async function logIn(password: string): Promise<void> {
  await api('/api/login', { method: 'POST', json: { password } })
  await loadSession()
}

export async function logOut(): Promise<void> {
  await api('/api/logout', { method: 'POST' })
  await loadSession()
}

onUnauthorized.add(() => {
  if (loginStatus.value) loginStatus.value = { ...loginStatus.value, logged_in: false }
})

/**
 * The login page in place of the current one (no history entry, so Back does not land on a page
 * that would send here again); after logging in the user comes back to `next`.
 */
export function goToLogin(): void {
  if (route.value.parts[0] === 'login') return
  navigate(href(['login'], { next: location.hash || '#/' }), { replace: true })
}

/** Where the login page sends the user: `next` when it is one of the UI's own routes. */
export function afterLogin(query: URLSearchParams): string {
  const next = query.get('next') ?? ''
  return next.startsWith('#/') && !next.startsWith('#/login') ? next : '#/'
}
