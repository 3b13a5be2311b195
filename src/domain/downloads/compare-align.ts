// The page comparison's arithmetic: Hamming distance of page hashes, an order-preserving alignment
// of two page sequences (inserted or removed pages on either side stay unmatched), the anchors an
// unmatched page would be placed by, which side of a pair is sharper, and the recommendation.

/** Bits (of 64) two dHashes may differ by and still be the same page (re-encoded, rescaled). */
export const SAME_PAGE_MAX_DISTANCE = 10
/** Cost of leaving a page unmatched: one gap costs as much as the worst allowed match. */
const GAP_COST = SAME_PAGE_MAX_DISTANCE
/** Sharpness figures within this fraction of each other are 'same'. */
const SAME_SHARPNESS_RATIO = 0.1
/**
 * Cells of the alignment table (one byte each): 4000 x 4000 pages. Past it the comparison is
 * refused rather than holding hundreds of MB.
 */
export const MAX_ALIGNMENT_CELLS = 16_000_000

export type Side = 'a' | 'b'
export type Better = Side | 'same'

/** An unmatched page and where it would go among the other side's pages. */
export type UnmatchedPage = {
  index: number
  filename: string
  afterFilename?: string
  beforeFilename?: string
}

export type Recommendation =
  'keep_a' | 'keep_b' | 'keep_b_with_insertions' | 'keep_a_with_insertions' | 'different'

export type AlignedPair = { a: number; b: number; distance: number }

function popcount32(value: number): number {
  let v = value - ((value >>> 1) & 0x55555555)
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333)
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24
}

/** Bits that differ between two 64-bit hashes written as 16 hex digits. */
export function hammingDistance(x: string, y: string): number {
  const high = parseInt(x.slice(0, 8), 16) ^ parseInt(y.slice(0, 8), 16)
  const low = parseInt(x.slice(8, 16), 16) ^ parseInt(y.slice(8, 16), 16)
  return popcount32(high >>> 0) + popcount32(low >>> 0)
}

/** A page that could not be decoded (no hash) matches nothing. */
function pageDistance(x: string | null, y: string | null): number {
  return x === null || y === null ? Infinity : hammingDistance(x, y)
}

const MATCH = 1
const SKIP_A = 2
const SKIP_B = 3

/**
 * Needleman-Wunsch over the two hash sequences: a pair costs its distance (allowed only up to
 * SAME_PAGE_MAX_DISTANCE), a page left unmatched costs GAP_COST. Pairs come out in page order.
 */
export function alignPages(
  a: readonly (string | null)[],
  b: readonly (string | null)[],
): AlignedPair[] {
  const n = a.length
  const m = b.length
  if ((n + 1) * (m + 1) > MAX_ALIGNMENT_CELLS) throw new RangeError('too many pages to align')
  const width = m + 1
  const moves = new Uint8Array((n + 1) * width)
  let previous = new Float64Array(width)
  let current = new Float64Array(width)
  for (let j = 1; j <= m; j++) {
    previous[j] = j * GAP_COST
    moves[j] = SKIP_B
  }
  for (let i = 1; i <= n; i++) {
    current[0] = i * GAP_COST
    moves[i * width] = SKIP_A
    for (let j = 1; j <= m; j++) {
      let best = previous[j]! + GAP_COST
      let move = SKIP_A
      const skipB = current[j - 1]! + GAP_COST
      if (skipB < best) {
        best = skipB
        move = SKIP_B
      }
      const distance = pageDistance(a[i - 1]!, b[j - 1]!)
      if (distance <= SAME_PAGE_MAX_DISTANCE && previous[j - 1]! + distance <= best) {
        best = previous[j - 1]! + distance
        move = MATCH
      }
      current[j] = best
      moves[i * width + j] = move
    }
    ;[previous, current] = [current, previous]
  }
  const pairs: AlignedPair[] = []
  let i = n
  let j = m
  while (i > 0 || j > 0) {
    const move = moves[i * width + j]
    if (move === MATCH) {
      pairs.push({ a: i - 1, b: j - 1, distance: pageDistance(a[i - 1]!, b[j - 1]!) })
      i--
      j--
    } else if (move === SKIP_A) i--
    else j--
  }
  return pairs.reverse()
}

/**
 * The pages of one side left out of every pair, each with the other side's pages it sits between
 * (the partners of its nearest paired neighbours), so it can be placed there.
 */
export function unmatchedPages(
  side: Side,
  pages: readonly string[],
  otherPages: readonly string[],
  pairs: readonly AlignedPair[],
): UnmatchedPage[] {
  const partner = new Map<number, number>()
  for (const pair of pairs) partner.set(pair[side], side === 'a' ? pair.b : pair.a)
  const out: UnmatchedPage[] = []
  let lastPartner: number | undefined
  for (let index = 0; index < pages.length; index++) {
    const own = partner.get(index)
    if (own !== undefined) {
      lastPartner = own
      continue
    }
    const page: UnmatchedPage = { index, filename: pages[index]! }
    if (lastPartner !== undefined) page.afterFilename = otherPages[lastPartner]!
    for (let next = index + 1; next < pages.length; next++) {
      const following = partner.get(next)
      if (following === undefined) continue
      page.beforeFilename = otherPages[following]!
      break
    }
    out.push(page)
  }
  return out
}

export function sharperSide(aSharpness: number, bSharpness: number): Better {
  const top = Math.max(aSharpness, bSharpness)
  if (top === 0 || Math.abs(aSharpness - bSharpness) / top < SAME_SHARPNESS_RATIO) return 'same'
  return aSharpness > bSharpness ? 'a' : 'b'
}

/**
 * What to do with the download (a) given the existing archive (b): keep the side that is sharper
 * on more pairs (b on a tie: nothing to download), carrying the other side's unique pages along
 * as insertions when it has any.
 */
export function recommend(input: {
  better: readonly Better[]
  unmatchedA: number
  unmatchedB: number
}): { recommendation: Recommendation; reason: string } {
  const pairs = input.better.length
  if (pairs === 0)
    return {
      recommendation: 'different',
      reason: 'No page of the download matches a page of the existing archive.',
    }
  const sharperA = input.better.filter((b) => b === 'a').length
  const sharperB = input.better.filter((b) => b === 'b').length
  const counts = `sharper on ${sharperA} of ${pairs} matched pages (existing: ${sharperB})`
  if (sharperA > sharperB) {
    if (input.unmatchedB > 0)
      return {
        recommendation: 'keep_a_with_insertions',
        reason: `The download is ${counts}; the existing archive has ${input.unmatchedB} pages the download lacks.`,
      }
    return { recommendation: 'keep_a', reason: `The download is ${counts}.` }
  }
  if (input.unmatchedA > 0)
    return {
      recommendation: 'keep_b_with_insertions',
      reason: `The download is ${counts} but has ${input.unmatchedA} pages the existing archive lacks.`,
    }
  return { recommendation: 'keep_b', reason: `The download is ${counts}.` }
}
