// The grouping steps on generated hashes: the cover index finds exactly the pairs an all-pairs
// comparison finds, pages decide between look-alikes, union-find joins chains.
import { describe, expect, it } from 'bun:test'
import {
  buildCoverIndex,
  FLAT_HASH,
  groupPairs,
  packHashes,
  pagesAgree,
  popcount32,
  samplePages,
} from '../../src/domain/duplicates/group.ts'

let state = 12345
function next32(): number {
  state ^= state << 13
  state ^= state >>> 17
  state ^= state << 5
  return state >>> 0
}
const hex32 = (x: number) => x.toString(16).padStart(8, '0')
const randomHash = () => hex32(next32()) + hex32(next32())

/** `hash` with `bits` distinct bits flipped, placed by the generator. */
function flip(hash: string, bits: number): string {
  const value = BigInt(`0x${hash}`)
  const chosen = new Set<number>()
  while (chosen.size < bits) chosen.add(next32() % 64)
  let mask = 0n
  for (const bit of chosen) mask |= 1n << BigInt(bit)
  return (value ^ mask).toString(16).padStart(16, '0')
}

function allPairs(hashes: string[], maxDistance: number): string[] {
  const { hi, lo } = packHashes(hashes)
  const pairs: string[] = []
  for (let i = 0; i < hashes.length; i++)
    for (let j = i + 1; j < hashes.length; j++)
      if (popcount32(hi[i]! ^ hi[j]!) + popcount32(lo[i]! ^ lo[j]!) <= maxDistance)
        pairs.push(`${i}-${j}`)
  return pairs.sort()
}

describe('buildCoverIndex', () => {
  // Random hashes, and near copies of some at every distance from 0 to 12 bits.
  const hashes = Array.from({ length: 1500 }, randomHash)
  for (let i = 0; i < 500; i++) hashes.push(flip(hashes[i]!, i % 13))

  for (const maxDistance of [0, 3, 4, 7, 8, 10, 11]) {
    it(`finds the same pairs as comparing all of them, within ${maxDistance} bits`, () => {
      const index = buildCoverIndex(packHashes(hashes), maxDistance)
      const found: string[] = []
      for (let i = 0; i < hashes.length; i++)
        for (const j of index.candidatesOf(i)) found.push(`${i}-${j}`)
      const expected = allPairs(hashes, maxDistance)
      expect(expected.length).toBeGreaterThan(0)
      expect(found.sort()).toEqual(expected)
    })
  }

  it('refuses a distance beyond its reach', () => {
    expect(() => buildCoverIndex(packHashes(hashes), 12)).toThrow(RangeError)
  })
})

describe('pagesAgree', () => {
  const a = [randomHash(), randomHash(), randomHash()]
  it('holds when most sampled pages are within the distance', () => {
    expect(pagesAgree(a, [flip(a[0]!, 3), flip(a[1]!, 10), randomHash()])).toBe(true)
    expect(pagesAgree(a, [flip(a[0]!, 3), randomHash(), randomHash()])).toBe(false)
  })

  it('counts neither undecodable pages nor two flat pages as agreement', () => {
    expect(pagesAgree([FLAT_HASH, FLAT_HASH, FLAT_HASH], [FLAT_HASH, FLAT_HASH, FLAT_HASH])).toBe(
      false,
    )
    expect(pagesAgree([a[0]!, null, FLAT_HASH], [flip(a[0]!, 1), a[1]!, FLAT_HASH])).toBe(true)
    expect(pagesAgree([null, null], [null, null])).toBe(false)
  })

  it('leaves two one-page books to their covers, and parts a one-page book from a longer one', () => {
    expect(pagesAgree([], [])).toBe(true)
    expect(pagesAgree([], a)).toBe(false)
  })
})

describe('groupPairs', () => {
  it('joins chains into one group and leaves unpaired items out', () => {
    const groups = groupPairs(8, [
      [5, 6],
      [0, 3],
      [3, 7],
    ])
    expect(groups).toEqual([
      [0, 3, 7],
      [5, 6],
    ])
  })
})

describe('samplePages', () => {
  it('spreads three pages over a book, never page 1', () => {
    expect(samplePages(100)).toEqual([30, 55, 80])
    expect(samplePages(8)).toEqual([2, 4, 6])
    expect(samplePages(3)).toEqual([2])
    expect(samplePages(1)).toEqual([])
  })
})
