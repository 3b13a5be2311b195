// Failures to read a catalogued archive or decode one of its pages, as a request reports them:
// 400 with a short reason (the spec gives these reads 200/400 and keeps 422 for uploads); the
// reader's full message, which may carry multi-line library text, goes to the log only.
import { AppError } from '../../errors.ts'
import { createLogger } from '../../log.ts'

const log = createLogger('archives')

/** Longest reason echoed to the client. */
const MAX_REASON_CHARS = 120

/** The reader and thumbnailer say 'unprocessable' for a bad file, 'not_found' for a vanished one. */
export function isReadFailure(error: unknown): error is AppError {
  return error instanceof AppError && (error.code === 'unprocessable' || error.code === 'not_found')
}

/**
 * Our messages read `<reason>: <detail>` where the detail is often a library's text
 * ("corrupt zip: <yauzl>", "undecodable image: <libvips>"): the reason alone is what we answer.
 */
function shortReason(error: AppError): string {
  const firstLine = error.message.split('\n', 1)[0] ?? ''
  const reason = firstLine.split(': ', 1)[0]!.trim()
  return reason.slice(0, MAX_REASON_CHARS) || 'unreadable'
}

/** Logs the detail at warn and returns the 400 to throw; other errors come back unchanged. */
export function asReadFailure(
  error: unknown,
  what: string,
  context: Record<string, unknown>,
): unknown {
  if (!isReadFailure(error)) return error
  log.warn(`${what} failed`, { ...context, error: error.message })
  return new AppError('bad_request', `${what} failed: ${shortReason(error)}.`, undefined, {
    cause: error,
  })
}
