// The one way the UI talks to the server: the public HTTP API, with the browser session's cookies.
// Failures become ApiError carrying the Env envelope's message, so views show the server's words.
// An expired access cookie is refreshed once (POST /api/token/refresh) and the request retried.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

export type Query = Record<string, string | number | boolean | null | undefined>

/** `/api/x` plus the query's set values, URL-encoded. */
export function apiUrl(path: string, query: Query = {}): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== null) params.set(key, String(value))
  const qs = params.toString()
  return qs ? `${path}${path.includes('?') ? '&' : '?'}${qs}` : path
}

type Init = Omit<RequestInit, 'body'> & { query?: Query; json?: unknown; body?: BodyInit }

let refreshing: Promise<boolean> | null = null
/** One refresh at a time, whichever request noticed the expiry first. */
function refreshSession(): Promise<boolean> {
  refreshing ??= fetch('/api/token/refresh', { method: 'POST', credentials: 'same-origin' })
    .then((res) => res.ok)
    .catch(() => false)
    .finally(() => setTimeout(() => (refreshing = null), 0))
  return refreshing
}

/** Listeners told when the server says the session is gone (the app shows the login page). */
export const onUnauthorized = new Set<() => void>()

export async function request(path: string, init: Init = {}): Promise<Response> {
  const { query, json, ...rest } = init
  const headers = new Headers(rest.headers)
  let body = rest.body
  if (json !== undefined) {
    headers.set('content-type', 'application/json')
    body = JSON.stringify(json)
  }
  const send = () =>
    fetch(apiUrl(path, query), { ...rest, headers, body, credentials: 'same-origin' })
  let res = await send()
  if (res.status === 401 && path !== '/api/login' && path !== '/api/token/refresh') {
    if (await refreshSession()) res = await send()
    if (res.status === 401) for (const listener of onUnauthorized) listener()
  }
  if (!res.ok) throw new ApiError(res.status, await errorMessage(res))
  return res
}

async function errorMessage(res: Response): Promise<string> {
  const text = await res.text().catch(() => '')
  try {
    const body = JSON.parse(text) as { error?: unknown }
    if (typeof body.error === 'string' && body.error) return body.error
  } catch {
    // not JSON: fall through to the status line
  }
  return text.slice(0, 200) || `${res.status} ${res.statusText}`
}

/** A request whose answer is JSON (null for 204). */
export async function api<T = unknown>(path: string, init: Init = {}): Promise<T> {
  const res = await request(path, init)
  if (res.status === 204) return null as T
  const text = await res.text()
  const body = (text ? JSON.parse(text) : null) as unknown
  // A LANraragi-style refusal at 200 (a plugin run now that failed): `success: 0` says so.
  if (isRefusal(body)) throw new ApiError(res.status, body.error || 'The server refused this.')
  return body as T
}

function isRefusal(body: unknown): body is { success: 0; error?: string } {
  return typeof body === 'object' && body !== null && (body as { success?: unknown }).success === 0
}

/** A form-encoded body, as LANraragi's PUT routes take (categories, Tankoubons). */
export function form(
  fields: Record<string, string | number | boolean | undefined>,
): URLSearchParams {
  const body = new URLSearchParams()
  for (const [key, value] of Object.entries(fields))
    if (value !== undefined) body.set(key, String(value))
  return body
}

/** The message to show for any thrown value. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
