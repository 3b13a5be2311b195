// The few XML helpers the OPDS feeds need: escaping and elements from text.

/**
 * Characters XML 1.0 does not allow (titles and tags may hold them from a file name). With the
 * `u` flag a valid surrogate pair is one code point, so only lone surrogates match the last range.
 */
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\uD800-\uDFFF]/gu

/** Escapes text for an element body or a double-quoted attribute; drops disallowed characters. */
export function xmlEscape(text: string): string {
  return text
    .replace(INVALID_XML, '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;')
}

/** `<name attr="...">text</name>` (or `<name attr="..."/>`), attributes and text escaped. */
export function element(
  name: string,
  attrs: Record<string, string | number | undefined>,
  text?: string,
): string {
  let out = `<${name}`
  for (const [key, value] of Object.entries(attrs))
    if (value !== undefined) out += ` ${key}="${xmlEscape(String(value))}"`
  return text === undefined ? `${out}/>` : `${out}>${xmlEscape(text)}</${name}>`
}
