import { describe, expect, it } from 'bun:test'
import { naturalCompare } from '../../src/model/natural-sort.ts'
import { naturalSortKey } from '../../src/model/natural-sort-key.ts'
import { sortByTitle } from '../../src/search/title-order.ts'

/** A seeded generator (xorshift32), so a failure repeats. */
function generator(seed: number) {
  return () => {
    seed ^= seed << 13
    seed ^= seed >>> 17
    seed ^= seed << 5
    return (seed >>> 0) / 2 ** 32
  }
}

/** Strings from `alphabet` of 0..`longest` characters. */
function strings(count: number, alphabet: string, longest: number, seed = 7): string[] {
  const random = generator(seed)
  return Array.from({ length: count }, () => {
    let text = ''
    const length = Math.floor(random() * (longest + 1))
    for (let i = 0; i < length; i++) text += alphabet[Math.floor(random() * alphabet.length)]
    return text
  })
}

const byKey = (a: string, b: string) => {
  const [ka, kb] = [naturalSortKey(a)!, naturalSortKey(b)!]
  return ka < kb ? -1 : ka > kb ? 1 : a < b ? -1 : a > b ? 1 : 0
}

describe('natural sort key', () => {
  it('orders printable ASCII exactly as naturalCompare does', () => {
    const punctuation = ' aAbBzZ0123456789-_.,;:!?\'"()[]{}@*/\\&#%`^+<=>|~$'
    for (const seed of [1, 2, 3]) {
      const list = strings(5000, punctuation, 10, seed)
      expect([...list].sort(byKey)).toEqual([...list].sort(naturalCompare))
    }
  })

  it('orders digit runs by value, leading zeros aside, however long', () => {
    const list = strings(5000, '0123456789 x', 40, 11)
    expect([...list].sort(byKey)).toEqual([...list].sort(naturalCompare))
    expect(naturalSortKey('Vol 007')).toBe(naturalSortKey('vol 7'))
    expect(naturalSortKey('page 9')! < naturalSortKey('page 10')!).toBe(true)
  })

  it('has no key for text beyond printable ASCII', () => {
    expect(naturalSortKey('ブルー')).toBeNull()
    expect(naturalSortKey('café')).toBeNull()
    expect(naturalSortKey('tab\there')).toBeNull()
    expect(naturalSortKey('')).toBe('')
  })
})

describe('sortByTitle', () => {
  it('gives the order of a full collator sort, with duplicates and non-ASCII titles mixed in', () => {
    const random = generator(5)
    const pool = [
      ...strings(300, 'aAbB 12-', 6, 21),
      'Ärger 2',
      'ärger 10',
      '東方 3',
      'Été',
      'ete',
      'Zoë',
      'Title',
      'title',
      'TITLE',
    ]
    const titles = Array.from({ length: 4000 }, () => pool[Math.floor(random() * pool.length)]!)
    const ids = titles.map((_, slot) => `id-${(slot * 7919) % 4000}`)
    const compare = (a: number, b: number) =>
      naturalCompare(titles[a]!, titles[b]!) || (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : 0)
    const slots = titles.map((_, slot) => slot)
    expect(sortByTitle(slots, (slot) => titles[slot]!, compare)).toEqual([...slots].sort(compare))
  })
})
