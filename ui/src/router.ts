// Hash routes (`#/reader/<id>?page=3`): deep links work without the server knowing the UI's paths,
// so every non-API path stays the server's (a 404 stays a 404).
import { signal } from '@preact/signals'

/** `malformed`: a part of the path is not valid percent-encoding (the app shows Not found). */
export type Route = { path: string; parts: string[]; query: URLSearchParams; malformed: boolean }

function parse(hash: string): Route {
  const raw = hash.replace(/^#/, '') || '/'
  const [path = '/', qs = ''] = raw.split('?', 2)
  const query = new URLSearchParams(qs)
  try {
    const parts = path.split('/').filter(Boolean).map(decodeURIComponent)
    return { path, parts, query, malformed: false }
  } catch {
    // A hand-edited or truncated link (`#/archive/%E0%A4%A`): no view gets a half-decoded id.
    return { path, parts: [], query, malformed: true }
  }
}

export const route = signal<Route>(parse(location.hash))

addEventListener('hashchange', () => {
  route.value = parse(location.hash)
})

/** `#/a/b?x=1` for a path and query; parts are URL-encoded. */
export function href(parts: string[], query: Record<string, string | number | undefined> = {}) {
  const qs = new URLSearchParams()
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== '') qs.set(key, String(value))
  const path = '#/' + parts.map(encodeURIComponent).join('/')
  const q = qs.toString()
  return q ? `${path}?${q}` : path
}

export function navigate(to: string, options: { replace?: boolean } = {}) {
  if (options.replace) history.replaceState(null, '', to)
  else history.pushState(null, '', to)
  route.value = parse(location.hash)
}
