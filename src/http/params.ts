// Parsing of loosely typed query values the way LANraragi clients send them, and reading its
// request params (query string or form body) in one place.
import { t } from 'elysia'
import { fail } from '../errors.ts'
import { clampWidth } from '../domain/archives/page-resize.ts'

/**
 * A body field LANraragi reads as a request param. Only a string counts: anything else (a JSON
 * number, a multipart file) is ignored, as if it were not sent (bodyParam).
 */
export const ParamText = t.Optional(t.Unknown())

/** A form (or JSON) body whose string fields stand for the query's (requestParam). */
export const ParamsBody = t.Optional(t.Object({}, { additionalProperties: true }))

/** 'true'/'1' -> true, 'false'/'0'/'' -> false, absent -> fallback; anything else is a 400. */
export function parseFlag(value: string | undefined, name: string, fallback = false): boolean {
  if (value === undefined) return fallback
  const v = value.trim().toLowerCase()
  if (v === 'true' || v === '1' || v === 'on' || v === 'yes') return true
  if (v === 'false' || v === '0' || v === '' || v === 'off' || v === 'no') return false
  throw fail.bad_request(`${name} must be true or false.`)
}

/** A whole number within bounds; absent -> fallback (or 400 when there is none). */
export function parseInteger(
  value: string | undefined,
  name: string,
  options: { min?: number; max?: number; fallback?: number } = {},
): number {
  if (value === undefined || value === '') {
    if (options.fallback !== undefined) return options.fallback
    throw fail.bad_request(`Missing ${name}.`)
  }
  if (!/^-?\d{1,15}$/.test(value.trim())) throw fail.bad_request(`${name} must be an integer.`)
  const n = Number(value.trim())
  if (options.min !== undefined && n < options.min)
    throw fail.bad_request(`${name} must be at least ${options.min}.`)
  if (options.max !== undefined && n > options.max)
    throw fail.bad_request(`${name} must be at most ${options.max}.`)
  return n
}

/** A string field of a form (or JSON) body; anything else counts as not sent. */
export function bodyParam(body: unknown, name: string): string | undefined {
  const value = body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : null
  return typeof value === 'string' ? value : undefined
}

/**
 * A LANraragi request param (its `req->param`): the query string's value, else a string field of
 * the body, a form as its web client and the Python client send them (or JSON).
 */
export function requestParam(
  query: Record<string, string | undefined>,
  body: unknown,
  name: string,
): string | undefined {
  return query[name] ?? bodyParam(body, name)
}

/**
 * `max_width`: a width in px, brought within 64..4096 (page-resize.ts); absent, empty or an
 * unfilled `{maxWidth}` of the OPDS-PSE template means no limit.
 */
export function parseMaxWidth(value: string | undefined): number | null {
  if (value === undefined || value === '' || value === '{maxWidth}') return null
  return clampWidth(parseInteger(value, 'max_width', { min: 1 }))
}
