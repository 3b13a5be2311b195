// The one error type of the server: domain code throws AppError with a code, http renders it as Env.
export const STATUS_OF = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  length_required: 411,
  payload_too_large: 413,
  unsupported: 415,
  checksum_mismatch: 417,
  unprocessable: 422,
  locked: 423,
  too_many_requests: 429,
  internal: 500,
  /** The language-model provider failed, timed out or answered something unusable. */
  bad_gateway: 502,
} as const

export type ErrorCode = keyof typeof STATUS_OF

export class AppError extends Error {
  /** Seconds until the same request may succeed (a 429 lock); rendered as `Retry-After`. */
  retryAfterSecs?: number
  /** How a 401 invites credentials (OPDS routes: Basic); rendered as `WWW-Authenticate`. */
  challenge?: string

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra?: Record<string, unknown>,
    options?: ErrorOptions,
  ) {
    super(message, options)
  }

  get status(): number {
    return STATUS_OF[this.code]
  }
}

type Thrower = (message: string, extra?: Record<string, unknown>) => AppError

/** `throw fail.locked('archive is locked')` reads as a sentence at the call site. */
export const fail = Object.fromEntries(
  (Object.keys(STATUS_OF) as ErrorCode[]).map((code) => [
    code,
    (message: string, extra?: Record<string, unknown>) => new AppError(code, message, extra),
  ]),
) as Record<ErrorCode, Thrower>
