// The operation envelope (Env): success bodies via ok(), every failure rendered by renderError.
import { AppError } from '../errors.ts'
import { createLogger, logContext } from '../log.ts'

const log = createLogger('http')

export type Env = { operation: string; success: 0 | 1; error?: string; successMessage?: string }

/** A success Env; the request context fills `operation` from the policy table. */
export function ok<T extends Record<string, unknown>>(extra?: T): { success: 1 } & T {
  return { success: 1, ...(extra as T) }
}

export function envJson(status: number, body: unknown, headers?: Record<string, string>): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  })
}

/** Maps any thrown value to an Env response; never leaks a stack or a path. */
export function renderError(operation: string, code: string | number, error: unknown): Response {
  if (error instanceof AppError) {
    const headers: Record<string, string> = {}
    if (error.retryAfterSecs !== undefined)
      headers['retry-after'] = String(Math.max(1, Math.ceil(error.retryAfterSecs)))
    if (error.challenge !== undefined) headers['www-authenticate'] = error.challenge
    const body = { operation, success: 0, error: error.message, ...error.extra }
    return envJson(error.status, body, headers)
  }
  switch (code) {
    case 'VALIDATION':
      return envJson(400, { operation, success: 0, error: validationMessage(error) })
    case 'PARSE':
      return envJson(400, { operation, success: 0, error: 'Malformed request body.' })
    case 'NOT_FOUND':
      return envJson(404, { operation, success: 0, error: 'No such endpoint.' })
    case 'INVALID_COOKIE_SIGNATURE':
      return envJson(400, { operation, success: 0, error: 'Invalid cookie.' })
  }
  // The request's own id (http/request-id.ts), which its log lines and X-Request-Id carry.
  const current = logContext()?.request_id
  const requestId = typeof current === 'string' ? current : crypto.randomUUID()
  // Named here too: the line must carry the id the body names even outside a request's context.
  log.error('unhandled error', {
    request_id: requestId,
    error: error instanceof Error ? error.message : String(error),
    stack: error instanceof Error ? error.stack : undefined,
  })
  return envJson(500, { operation, success: 0, error: `internal error (request ${requestId})` })
}

function validationMessage(error: unknown): string {
  const e = error as {
    customError?: unknown
    all?: { path?: string; message?: string }[]
  }
  // A schema's own `error` text: a route that keeps LANraragi's wording for a malformed body.
  if (typeof e?.customError === 'string') return e.customError
  const first = e?.all?.[0]
  if (first) {
    const where = first.path ? first.path.replace(/^\//, '') : 'request'
    return `Invalid ${where}: ${first.message ?? 'bad value'}`
  }
  return 'Invalid request.'
}
