// Conditional GETs: If-None-Match against a strong validator, the way browsers and readers send it.

/**
 * True when an If-None-Match header names this entity tag: `*`, a list of tags, or the weak
 * form `W/"..."` (RFC 9110 compares If-None-Match weakly).
 */
export function etagMatches(header: string | null, etag: string): boolean {
  if (!header) return false
  if (header.trim() === '*') return true
  const opaque = etag.replace(/^W\//, '')
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === opaque)
}
