// A string key whose plain code-unit order is naturalCompare's order at the collator's level, for
// printable ASCII text: sorting a million titles by such keys with the engine's comparator-free
// sort takes a fraction of the ~5 s that a million collator comparisons x 20 take (bench/README.md).
// The table is read off the collator itself when this module loads, and checked: where this
// runtime's collation does not fit the model (one weight per character, digit runs by value), no
// keys are made and callers fall back to naturalCompare.
import { naturalCompare } from './natural-sort.ts'

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' })

/** Longest digit run a key encodes (ICU splits longer numbers into pieces). */
const MAX_DIGITS = 200
const FIRST_PRINTABLE = 0x20
const LAST_PRINTABLE = 0x7e
/** Rank r is written as this code unit plus r: above the 0 that callers may append as a separator. */
const RANK_BASE = 0x21

function readKeyBytes(): Uint8Array | null {
  const chars: string[] = []
  for (let c = FIRST_PRINTABLE; c <= LAST_PRINTABLE; c++) chars.push(String.fromCharCode(c))
  chars.sort((a, b) => collator.compare(a, b))
  const table = new Uint8Array(LAST_PRINTABLE + 1)
  let rank = 0
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i]!
    const previous = chars[i - 1]
    const sameRank =
      previous !== undefined &&
      (collator.compare(previous, char) === 0 || (isDigit(previous) && isDigit(char)))
    if (previous !== undefined && !sameRank) rank++
    table[char.charCodeAt(0)] = RANK_BASE + rank
  }
  return fitsModel(table) ? table : null
}

function isDigit(char: string): boolean {
  return char >= '0' && char <= '9'
}

/** Keys of tricky strings must order as the collator does, else the model is off. */
function fitsModel(table: Uint8Array): boolean {
  const samples = [
    '',
    ' ',
    'a',
    'A',
    'a b',
    'ab',
    'a-b',
    'a_b',
    'a.b',
    'a1',
    'a01',
    'a2',
    'a10',
    'a9b',
    'a 10',
    '0',
    '00',
    '007',
    '7',
    '10',
    '9',
    'z',
    'Z',
    '[a] b',
    '(a) b',
    'a!',
    'a~',
    '~',
    '!',
    '$1',
    'a1b2',
    'a1b10',
    '1a',
    '01a',
    'x 2 y',
    'x 10 y',
    'x 2y',
    "it's",
    'its',
    'Vol.2',
    'Vol.10',
  ]
  const keyed = samples.map((text) => ({ text, key: keyOf(table, text)! }))
  const byCollator = [...samples].sort(naturalCompare)
  keyed.sort((a, b) =>
    a.key < b.key ? -1 : a.key > b.key ? 1 : a.text < b.text ? -1 : a.text > b.text ? 1 : 0,
  )
  return keyed.every(({ text }, i) => text === byCollator[i])
}

/**
 * Writes `text`'s key as bytes from `at` (room: 3 bytes per character), answering where it ends,
 * or -1 when the text has no key. Bytes, then one string made of them: a key grown character by
 * character is a rope that the sort must flatten (~4 s for a million titles against ~0.3 s).
 */
function writeKey(table: Uint8Array, text: string, out: Uint8Array, at: number): number {
  let i = 0
  while (i < text.length) {
    const code = text.charCodeAt(i)
    if (code < FIRST_PRINTABLE || code > LAST_PRINTABLE) return -1
    if (code < 0x30 || code > 0x39) {
      out[at++] = table[code]!
      i++
      continue
    }
    // A digit run compares by value: leading zeros dropped, then its length, then its digits.
    let end = i + 1
    while (end < text.length && text.charCodeAt(end) >= 0x30 && text.charCodeAt(end) <= 0x39) end++
    let first = i
    while (first < end - 1 && text.charCodeAt(first) === 0x30) first++
    if (end - first > MAX_DIGITS) return -1
    out[at++] = table[code]!
    out[at++] = RANK_BASE + end - first
    for (let k = first; k < end; k++) out[at++] = text.charCodeAt(k)
    i = end
  }
  return at
}

let scratch = Buffer.alloc(256)

function keyOf(table: Uint8Array, text: string): string | null {
  if (scratch.length < text.length * 3) scratch = Buffer.alloc(text.length * 3)
  const end = writeKey(table, text, scratch, 0)
  return end < 0 ? null : scratch.toString('latin1', 0, end)
}

/**
 * A key such that, for two strings that both have one, `keyA < keyB` exactly when
 * `naturalCompare(a, b) < 0` at the collator's level (equal keys: the collator finds the strings
 * equal, and naturalCompare then orders them by code units). Null for text outside printable
 * ASCII, or everywhere when this runtime's collation does not fit the model.
 */
export function naturalSortKey(text: string): string | null {
  return keyBytes ? keyOf(keyBytes, text) : null
}

/**
 * naturalSortKey as bytes written into `out` from `at` (room: 3 bytes per character of `text`),
 * answering where they end, or -1 for no key. Every key byte is above 0x20, so a caller may
 * write a 0 byte and more after a key (and read it all as one latin1 string).
 */
export function writeNaturalSortKey(text: string, out: Uint8Array, at: number): number {
  return keyBytes ? writeKey(keyBytes, text, out, at) : -1
}

/**
 * The key byte of each printable ASCII character (characters equal at the collator's level share
 * one; every digit gets the digits' byte, the run's value follows), or null when the model does
 * not hold here. Read last, once everything it uses is defined.
 */
const keyBytes = readKeyBytes()
