// Duplicate grouping on generated hashes: N random 64-bit cover hashes with three sampled page
// hashes each, plus planted near copies (cover with 0-8 bits flipped, pages with 0-6) and planted
// look-alikes (a near cover, other pages), grouped by the scan's own code (src/domain/duplicates/
// group.ts): cover index, candidate pairs, page agreement, union-find. Prints the time of each step
// and whether every planted copy, and no look-alike, was found.
// Run: bun bench/duplicates.ts [hashes=100000] [planted=1000]
import {
  buildCoverIndex,
  groupPairs,
  packHashes,
  pagesAgree,
} from '../src/domain/duplicates/group.ts'

const numbers = process.argv.filter((a) => /^\d+$/.test(a)).map(Number)
const HASHES = numbers[0] ?? 100_000
const PLANTED = numbers[1] ?? 1_000

let state = 0x9e3779b9
function next32(): number {
  state ^= state << 13
  state ^= state >>> 17
  state ^= state << 5
  return state >>> 0
}
const hex32 = (x: number) => x.toString(16).padStart(8, '0')
const randomHash = () => hex32(next32()) + hex32(next32())

/** `hash` with `bits` distinct random bits flipped. */
function flip(hash: string, bits: number): string {
  let hi = parseInt(hash.slice(0, 8), 16) >>> 0
  let lo = parseInt(hash.slice(8), 16) >>> 0
  const chosen = new Set<number>()
  while (chosen.size < bits) chosen.add(next32() % 64)
  for (const bit of chosen)
    if (bit < 32) hi = (hi ^ (1 << bit)) >>> 0
    else lo = (lo ^ (1 << (bit - 32))) >>> 0
  return hex32(hi) + hex32(lo)
}

type Item = { cover: string; pages: string[] }
const items: Item[] = []
for (let i = 0; i < HASHES; i++)
  items.push({ cover: randomHash(), pages: [randomHash(), randomHash(), randomHash()] })
// Copies of the first PLANTED items, look-alikes (near cover, other book) of the next PLANTED.
const copies: [number, number][] = []
const lookAlikes: [number, number][] = []
for (let p = 0; p < PLANTED; p++) {
  const original = items[p]!
  copies.push([p, items.length])
  items.push({
    cover: flip(original.cover, p % 9),
    pages: original.pages.map((h) => flip(h, (p + 3) % 7)),
  })
  const other = items[PLANTED + p]!
  lookAlikes.push([PLANTED + p, items.length])
  items.push({ cover: flip(other.cover, p % 5), pages: [randomHash(), randomHash(), randomHash()] })
}

const t0 = performance.now()
const packed = packHashes(items.map((item) => item.cover))
const t1 = performance.now()
const index = buildCoverIndex(packed)
const t2 = performance.now()
const candidates: [number, number][] = []
for (let i = 0; i < items.length; i++)
  for (const j of index.candidatesOf(i)) candidates.push([i, j])
const t3 = performance.now()
const confirmed = candidates.filter(([i, j]) => pagesAgree(items[i]!.pages, items[j]!.pages))
const groups = groupPairs(items.length, confirmed)
const t4 = performance.now()

const groupOf = new Map<number, number>()
groups.forEach((group, g) => group.forEach((item) => groupOf.set(item, g)))
const together = ([a, b]: [number, number]) => groupOf.has(a) && groupOf.get(a) === groupOf.get(b)
const found = copies.filter(together).length
const merged = lookAlikes.filter(together).length

const ms = (x: number) => `${x.toFixed(0)} ms`
console.log(`hashes: ${items.length} (${HASHES} random, ${PLANTED} copies, ${PLANTED} look-alikes)`)
console.log(`parse ${ms(t1 - t0)}, index ${ms(t2 - t1)}, candidates ${ms(t3 - t2)}`)
console.log(`pages checked and grouped ${ms(t4 - t3)}; total ${ms(t4 - t0)}`)
console.log(`candidate pairs ${candidates.length}, confirmed ${confirmed.length}`)
console.log(
  `groups ${groups.length}; copies found ${found}/${PLANTED}; look-alikes merged ${merged}`,
)
