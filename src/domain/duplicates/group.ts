// Grouping 64-bit perceptual hashes without comparing all pairs: multi-index hashing over the
// covers (four 16-bit blocks; two hashes within distance 8 have a block within distance 2, and
// the other three within 1 bit are enough to probe, by pigeonhole), each candidate checked on the full 64 bits, then on the sampled pages, and the pairs
// that hold joined into groups by union-find. Pure functions: the scan job and bench/duplicates.ts
// call the same code.

/**
 * Covers within this many differing bits of 64 are candidates (at most 11: the index's reach;
 * each bit more costs time, bench/duplicates.ts). Thumbnails of a page and of its resized,
 * re-encoded copy differ by 0-7 bits in the tests' pages; pages of different books by 17 or more.
 */
export const COVER_MAX_DISTANCE = 8
/** A sampled page pair agrees within this many bits (checked pair by pair, no index needed). */
export const PAGE_MAX_DISTANCE = 10
/**
 * A uniform image (blank page, solid cover) has no brighter neighbour anywhere: its dHash is all
 * zero, shared by every other flat image, so it says nothing about which book it is.
 */
export const FLAT_HASH = '0000000000000000'

const BLOCKS = 4
const BLOCK_BITS = 16
const BUCKETS = 1 << BLOCK_BITS

/** Hashes as two 32-bit halves (popcount on 32-bit halves, no BigInt in the inner loop). */
export type PackedHashes = { hi: Uint32Array; lo: Uint32Array }

export function packHashes(hexes: readonly string[]): PackedHashes {
  const hi = new Uint32Array(hexes.length)
  const lo = new Uint32Array(hexes.length)
  hexes.forEach((hex, i) => {
    hi[i] = parseInt(hex.slice(0, 8), 16) >>> 0
    lo[i] = parseInt(hex.slice(8, 16), 16) >>> 0
  })
  return { hi, lo }
}

export function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333)
  x = (x + (x >>> 4)) & 0x0f0f0f0f
  return Math.imul(x, 0x01010101) >>> 24
}

/** Differing bits between two 16-hex hashes. */
export function hashDistance(a: string, b: string): number {
  const x = packHashes([a, b])
  return popcount32(x.hi[0]! ^ x.hi[1]!) + popcount32(x.lo[0]! ^ x.lo[1]!)
}

function blockOf(hashes: PackedHashes, i: number, block: number): number {
  const half = block < 2 ? hashes.hi[i]! : hashes.lo[i]!
  return block % 2 === 0 ? half >>> 16 : half & 0xffff
}

export type CoverIndex = {
  /** Items after `i` whose cover is within the distance of item i's. */
  candidatesOf(i: number): number[]
}

/** The block values within `radius` bits of a block's own, as masks to XOR it with. */
function probeMasks(radius: number): number[] {
  if (radius < 0) return []
  const masks = [0]
  for (let a = 0; a < BLOCK_BITS && radius >= 1; a++) {
    masks.push(1 << a)
    for (let b = a + 1; b < BLOCK_BITS && radius >= 2; b++) masks.push((1 << a) | (1 << b))
  }
  return masks
}

/**
 * One table per 16-bit block, laid out as counting-sort buckets (offsets + items), so 100,000
 * hashes take ~2 MB and no per-bucket arrays. A query probes, in each table, its own block value
 * and those a few bits from it: at distance 8, 137 values in the first table and 17 in the others.
 */
export function buildCoverIndex(
  hashes: PackedHashes,
  maxDistance = COVER_MAX_DISTANCE,
): CoverIndex {
  const radius = Math.floor(maxDistance / BLOCKS)
  if (radius > 2) throw new RangeError(`the cover index reaches distance 11, not ${maxDistance}`)
  // Pigeonhole, tightened: if the first `wide` blocks each differ by more than `radius` bits and
  // the others by `radius` or more, the hashes differ by more than maxDistance. So the first
  // `wide` blocks are probed within `radius` bits, the others within `radius - 1`.
  const wide = maxDistance - BLOCKS * radius + 1
  const probesOf = [Int32Array.from(probeMasks(radius)), Int32Array.from(probeMasks(radius - 1))]
  const count = hashes.hi.length
  // Signed copies: a Uint32Array element above 2^31 reads as a double, slowing the inner loop.
  const hi = Int32Array.from(hashes.hi)
  const lo = Int32Array.from(hashes.lo)
  const keys = new Int32Array(count * BLOCKS)
  for (let i = 0; i < count; i++)
    for (let block = 0; block < BLOCKS; block++)
      keys[i * BLOCKS + block] = blockOf(hashes, i, block)
  // All four tables in one pair of arrays: table b's offsets at b * (BUCKETS + 1), items at b * count.
  const starts = new Int32Array(BLOCKS * (BUCKETS + 1))
  const lists = new Int32Array(BLOCKS * count)
  for (let block = 0; block < BLOCKS; block++) {
    const base = block * (BUCKETS + 1)
    for (let i = 0; i < count; i++) starts[base + keys[i * BLOCKS + block]! + 1]!++
    for (let b = 0; b < BUCKETS; b++) starts[base + b + 1]! += starts[base + b]!
    const fill = starts.slice(base, base + BUCKETS)
    for (let i = 0; i < count; i++) lists[block * count + fill[keys[i * BLOCKS + block]!]!++] = i
  }
  // The last query that saw each item: an item shared by several probed buckets is checked once.
  const seen = new Int32Array(count).fill(-1)
  return {
    candidatesOf(i) {
      const found: number[] = []
      const qHi = hi[i]!
      const qLo = lo[i]!
      for (let block = 0; block < BLOCKS; block++) {
        const key = keys[i * BLOCKS + block]!
        const base = block * (BUCKETS + 1)
        const listBase = block * count
        const probes = probesOf[block < wide ? 0 : 1]!
        for (let p = 0; p < probes.length; p++) {
          const bucket = base + (key ^ probes[p]!)
          const end = listBase + starts[bucket + 1]!
          for (let at = listBase + starts[bucket]!; at < end; at++) {
            const j = lists[at]!
            if (j <= i || seen[j] === i) continue
            seen[j] = i
            if (popcount32(qHi ^ hi[j]!) + popcount32(qLo ^ lo[j]!) <= maxDistance) found.push(j)
          }
        }
      }
      return found
    },
  }
}

/**
 * Whether two archives' sampled pages say they are the same book: most of the page pairs that
 * carry information (both hashed, not both flat) agree. Two archives without samples (one page
 * each) are decided by their covers; one with samples and one without are not the same book.
 */
export function pagesAgree(
  a: readonly (string | null)[],
  b: readonly (string | null)[],
  maxDistance = PAGE_MAX_DISTANCE,
): boolean {
  if (a.length === 0 && b.length === 0) return true
  let usable = 0
  let agreeing = 0
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i]
    const y = b[i]
    if (!x || !y || (x === FLAT_HASH && y === FLAT_HASH)) continue
    usable++
    if (hashDistance(x, y) <= maxDistance) agreeing++
  }
  return usable > 0 && agreeing * 2 > usable
}

/** Groups of two or more items joined by the pairs (union-find with path halving). */
export function groupPairs(count: number, pairs: Iterable<readonly [number, number]>): number[][] {
  const parent = new Int32Array(count).map((_, i) => i)
  const root = (x: number): number => {
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]!]!
      x = parent[x]!
    }
    return x
  }
  const touched = new Set<number>()
  for (const [a, b] of pairs) {
    touched.add(a).add(b)
    const ra = root(a)
    const rb = root(b)
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb)
  }
  const groups = new Map<number, number[]>()
  for (const item of [...touched].sort((x, y) => x - y)) {
    const r = root(item)
    const group = groups.get(r)
    if (group) group.push(item)
    else groups.set(r, [item])
  }
  return [...groups.values()].filter((group) => group.length >= 2)
}

/** Fractions of the book the sampled pages are taken at (after the cover). */
const SAMPLE_AT = [0.3, 0.55, 0.8]

/**
 * The 1-based pages sampled from a book of `pagecount` pages: three spread over it, never page 1
 * (the usual cover, compared apart); fewer in a short book, none in a one-page book. The same page
 * count gives the same pages, so a re-encoded copy is sampled where its original was.
 */
export function samplePages(pagecount: number): number[] {
  const pages = new Set<number>()
  for (const at of SAMPLE_AT) {
    const page = Math.min(pagecount, Math.max(1, Math.round(pagecount * at)))
    if (page !== 1) pages.add(page)
  }
  return [...pages].sort((x, y) => x - y)
}
