// JSON request bodies, read once for every route by the request context: capped in size (the
// Content-Length check in body-limit.ts) and in nesting depth before JSON.parse or validation sees
// them. A deep body is cheap to send and costly to parse, validate and describe in an error.
import { AppError, fail } from '../errors.ts'

/** No body of this API nests deeper than a few levels; this leaves room and stops stack-deep input. */
export const MAX_JSON_DEPTH = 32

export function isJsonContentType(contentType: string | null): boolean {
  if (!contentType) return false
  const type = contentType.split(';', 1)[0]!.trim().toLowerCase()
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'))
}

/**
 * The deepest nesting of objects and arrays in a JSON text, stopping as soon as it passes `limit`.
 * Brackets inside strings do not count; one pass, no allocation.
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c)
        i++ // backslash: skip the escaped character
      else if (c === 0x22) inString = false
    } else if (c === 0x22) {
      inString = true
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true
    } else if (c === 0x7d || c === 0x5d) {
      depth--
    }
  }
  return false
}

/**
 * The parsed JSON body (an empty body reads as `{}`). Malformed or too deep bodies are a 400 Env;
 * the size was bounded from the headers before this reads anything.
 */
export async function readJsonBody(request: Request): Promise<unknown> {
  const text = await request.text()
  if (text.trim() === '') return {}
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH))
    throw fail.bad_request(`The request body nests deeper than ${MAX_JSON_DEPTH} levels.`)
  try {
    // JSON.parse makes `__proto__` an own key, but the first copy of the body made with ordinary
    // assignment turns it into a prototype, and the key vanishes from validation: refuse it.
    return text.includes('__proto__') ? JSON.parse(text, refuseProtoKey) : JSON.parse(text)
  } catch (cause) {
    if (cause instanceof AppError) throw cause
    throw new AppError('bad_request', 'Malformed request body.', undefined, { cause })
  }
}

function refuseProtoKey(key: string, value: unknown): unknown {
  if (key === '__proto__') throw fail.bad_request('The request body has a key named __proto__.')
  return value
}

/** A body that must be a JSON object (routes whose schema takes an optional object body). */
export function requireJsonObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw fail.bad_request('The request body must be a JSON object.')
  return body as Record<string, unknown>
}
