// Strict JSON bodies for routes whose body is optional. Elysia leaves a JSON body it cannot parse
// undefined when the schema allows no body, so a malformed update would pass as "change nothing";
// with this hook it is a 400 Env like any other malformed body.
import { AppError, fail } from '../errors.ts'

/**
 * Route `parse` hook: a JSON body must be an object (an empty one reads as `{}`); other media
 * types fall through to Elysia's own parsers.
 */
export async function parseJsonObject({
  request,
  contentType,
}: {
  request: Request
  contentType: string
}): Promise<Record<string, unknown> | undefined> {
  if (!contentType.toLowerCase().startsWith('application/json')) return undefined
  const text = await request.text()
  if (text.trim() === '') return {}
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (cause) {
    throw new AppError('bad_request', 'Malformed request body.', undefined, { cause })
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw fail.bad_request('The request body must be a JSON object.')
  }
  return value as Record<string, unknown>
}
