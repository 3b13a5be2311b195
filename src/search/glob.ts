// Wildcard matching for filter terms (`?` one character, `*` any run) without regular
// expressions. A backtracking regex such as /a.*a.*a.*c/ takes exponential time on a title of
// many a's (a 60-letter title and ten stars held the server for over a minute); matching the
// star-separated segments leftmost-first, as here, is at worst length x pattern and never
// backtracks across stars. `?` consumes one code point, as the regex's `u` flag did.

/** A piece between stars, `?` kept as the single-character wildcard. */
type Segment = {
  text: string
  wild: boolean
  /** `?`s before the first literal run, and that run: found with indexOf, then verified. */
  lead: number
  anchor: string
}

/** A pattern split at its stars: `segments[0]` is anchored at the start, the last at the end. */
export type Glob = {
  segments: Segment[]
  /** False when the pattern holds no star: the one segment must cover the whole value. */
  starred: boolean
}

const ANY_ONE = 63 // '?'

function toSegment(text: string): Segment {
  let lead = 0
  while (text.charCodeAt(lead) === ANY_ONE) lead++
  const next = text.indexOf('?', lead)
  const anchor = text.slice(lead, next === -1 ? undefined : next)
  return { text, wild: text.includes('?'), lead, anchor }
}

/** `text` uses `?` and `*` (the parser's `_` and `%` are mapped here); anchored at both ends. */
export function compileGlob(text: string): Glob {
  const normalized = text.replace(/_/g, '?').replace(/%/g, '*').replace(/\*+/g, '*')
  const segments = normalized.split('*').map(toSegment)
  return { segments, starred: segments.length > 1 }
}

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff

/** End of `segment` matched at `at`, or -1. Deterministic: `?` is always one code point. */
function matchAt(value: string, at: number, segment: string): number {
  let i = at
  const n = value.length
  for (let k = 0; k < segment.length; k++) {
    const p = segment.charCodeAt(k)
    if (i >= n) return -1
    if (p === ANY_ONE) {
      const code = value.charCodeAt(i)
      i += isHigh(code) && i + 1 < n && isLow(value.charCodeAt(i + 1)) ? 2 : 1
    } else if (value.charCodeAt(i) === p) i++
    else return -1
  }
  return i
}

/** Start of `segment` matched so that it ends at `end`, or -1 (the mirror of matchAt). */
function matchEndingAt(value: string, end: number, segment: string): number {
  let i = end
  for (let k = segment.length - 1; k >= 0; k--) {
    const p = segment.charCodeAt(k)
    if (i <= 0) return -1
    if (p === ANY_ONE) {
      const code = value.charCodeAt(i - 1)
      i -= isLow(code) && i >= 2 && isHigh(value.charCodeAt(i - 2)) ? 2 : 1
    } else if (value.charCodeAt(i - 1) === p) i--
    else return -1
  }
  return i
}

/** Start `lead` code points before `at`, or -1 when that passes `from`. */
function stepBack(value: string, at: number, lead: number, from: number): number {
  let i = at
  for (let k = 0; k < lead; k++) {
    if (i <= from) return -1
    i -= isLow(value.charCodeAt(i - 1)) && i - 2 >= from && isHigh(value.charCodeAt(i - 2)) ? 2 : 1
  }
  return i
}

/** Leftmost start >= `from` where `segment` matches; returns its end, or -1. */
function findFrom(value: string, from: number, segment: Segment): number {
  const { text, anchor } = segment
  if (!segment.wild) {
    const at = value.indexOf(text, from)
    return at === -1 ? -1 : at + text.length
  }
  if (anchor === '') {
    // Only `?`s: the first position with enough characters left.
    for (let at = from; at <= value.length; at++) {
      if (at > 0 && isLow(value.charCodeAt(at)) && isHigh(value.charCodeAt(at - 1))) continue
      const end = matchAt(value, at, text)
      if (end !== -1) return end
    }
    return -1
  }
  // Candidates come from a native search for the literal run; each is verified once.
  for (let hit = value.indexOf(anchor, from); hit !== -1; hit = value.indexOf(anchor, hit + 1)) {
    const start = stepBack(value, hit, segment.lead, from)
    if (start === -1) continue
    const end = matchAt(value, start, text)
    if (end !== -1) return end
  }
  return -1
}

/** Whether the whole of `value` matches. */
export function globMatches(glob: Glob, value: string): boolean {
  const { segments } = glob
  const first = segments[0]!.text
  if (!glob.starred) return matchAt(value, 0, first) === value.length
  let pos = matchAt(value, 0, first)
  if (pos === -1) return false
  // Middle segments leftmost-first: an earlier end never leaves less room for the rest.
  for (let s = 1; s < segments.length - 1; s++) {
    pos = findFrom(value, pos, segments[s]!)
    if (pos === -1) return false
  }
  const last = segments[segments.length - 1]!.text
  const start = matchEndingAt(value, value.length, last)
  return start >= pos
}
