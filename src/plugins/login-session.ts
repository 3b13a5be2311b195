// A login plugin's session on an outgoing plugin fetch: its cookies (those whose domain matches
// the request's host) joined into the Cookie header, and its headers where the plugin set none,
// only for the hosts the login plugin declares: a plugin naming it cannot carry them elsewhere.
import { hostMatches } from '../net/address-guard.ts'
import type { PluginFetchInit } from './host.ts'
import type { LoginSession } from './manifest.ts'

/** `example.com` and `.example.com` match the host itself and its subdomains; no domain matches any. */
function cookieMatches(domain: string | undefined, host: string): boolean {
  const wanted = (domain ?? '').trim().toLowerCase().replace(/^\./, '')
  return !wanted || host === wanted || host.endsWith(`.${wanted}`)
}

export function withLoginSession(
  url: string,
  init: PluginFetchInit,
  session: LoginSession | undefined,
): PluginFetchInit {
  if (!session) return init
  let host: string
  try {
    host = new URL(url).hostname.toLowerCase()
  } catch {
    // The outbound client refuses the URL with its own reason.
    return init
  }
  if (!session.hosts.some((pattern) => hostMatches(pattern, host))) return init
  const headers = [...(init.headers ?? [])]
  const has = (name: string) => headers.findIndex(([key]) => key.toLowerCase() === name)
  for (const [name, value] of Object.entries(session.headers))
    if (has(name.toLowerCase()) < 0) headers.push([name, value])
  const cookies = session.cookies
    .filter((cookie) => cookieMatches(cookie.domain, host))
    .map((cookie) => `${cookie.name}=${cookie.value}`)
  if (cookies.length > 0) {
    const at = has('cookie')
    // The plugin's own cookies come first; the session's are added to them.
    if (at >= 0) headers[at] = [headers[at]![0], `${headers[at]![1]}; ${cookies.join('; ')}`]
    else headers.push(['Cookie', cookies.join('; ')])
  }
  return { ...init, headers }
}
