// Mojibake repair: UTF-8 text that was once decoded as Windows-1252 (or Latin-1) and stored
// encoded again, so "é" reads "Ã©" and "日本" reads "æ—¥æœ¬". A string is repaired only when the
// round trip is clean: every character maps back to one byte, those bytes are valid UTF-8, and the
// result differs. Text that really is Latin-1 ("café") is not valid UTF-8 once mapped back, so it
// is left alone.

/** Windows-1252's characters for bytes 0x80-0x9F (the five bytes it leaves undefined map to C1). */
const CP1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152,
  0x8d, 0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122,
  0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
]

const BYTE_OF = new Map<number, number>()
for (let b = 0; b < 0x100; b++) BYTE_OF.set(b >= 0x80 && b < 0xa0 ? CP1252_HIGH[b - 0x80]! : b, b)
// Latin-1 decoders map 0x80-0x9F to the C1 controls: those are taken as their bytes too.
for (let b = 0x80; b < 0xa0; b++) if (!BYTE_OF.has(b)) BYTE_OF.set(b, b)

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true })

/** One undo of the mis-decoding, or undefined when the round trip is not clean. */
function undoOnce(text: string): string | undefined {
  const bytes = new Uint8Array(text.length)
  let high = false
  for (let i = 0; i < text.length; i++) {
    const byte = BYTE_OF.get(text.charCodeAt(i))
    if (byte === undefined) return undefined
    if (byte >= 0x80) high = true
    bytes[i] = byte
  }
  if (!high) return undefined
  try {
    return STRICT_UTF8.decode(bytes)
  } catch {
    return undefined
  }
}

/** The repaired text (text encoded wrongly twice is repaired twice), or `text` as it was. */
export function repairMojibake(text: string): string {
  let out = text
  for (let pass = 0; pass < 3; pass++) {
    const undone = undoOnce(out)
    if (undone === undefined || undone === out) break
    out = undone
  }
  return out
}

/**
 * A tag list repaired tag by tag: one genuine Latin-1 tag ("café") must not keep a damaged one
 * beside it ("CafÃ©") from its repair, as a repair of the whole string would.
 */
export function repairTagsWith(tags: string, repair: (text: string) => string): string {
  return tags
    .split(',')
    .map((tag) => repair(tag))
    .join(',')
}
