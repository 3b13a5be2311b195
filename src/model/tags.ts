// Tag strings: comma-separated, each possibly namespace:value. One canonical form is stored.

/** Perl's `\R`: the line breaks LANraragi deletes from tags (and edited titles) before storing. */
export const LINE_BREAKS = /\r\n|[\n\v\f\r\u0085\u2028\u2029]/g

/**
 * The tags in order, each in Unicode NFC (as LANraragi stores text) without line breaks, trimmed
 * and with inner spaces collapsed; empty ones and repeats (ignoring case) dropped.
 */
export function splitTags(tags: string): string[] {
  const seen = new Set<string>()
  const out: string[] = []
  for (const raw of tags.normalize('NFC').split(',')) {
    const tag = raw.replace(LINE_BREAKS, '').trim().replace(/\s+/g, ' ')
    if (!tag) continue
    const key = tag.toLowerCase()
    if (seen.has(key)) continue
    seen.add(key)
    out.push(tag)
  }
  return out
}

export function joinTags(tags: string[]): string {
  return tags.join(', ')
}

export function normalizeTags(tags: string): string {
  return joinTags(splitTags(tags))
}

/** The tags of `offered` that `have` lacks (compared without case), each once, in order. */
export function tagsMissingFrom(have: string, offered: string): string[] {
  const known = new Set(splitTags(have).map((tag) => tag.toLowerCase()))
  return splitTags(offered).filter((tag) => !known.has(tag.toLowerCase()))
}

/** Namespace of a tag ('artist' of 'artist:foo'), or '' for a plain tag. */
export function tagNamespace(tag: string): string {
  const colon = tag.indexOf(':')
  return colon > 0 ? tag.slice(0, colon).trim().toLowerCase() : ''
}

/** Value of the last tag in a namespace, e.g. date_added. */
export function lastTagValue(tags: string, namespace: string): string | undefined {
  let found: string | undefined
  for (const tag of splitTags(tags))
    if (tagNamespace(tag) === namespace) found = tag.slice(tag.indexOf(':') + 1).trim()
  return found
}
