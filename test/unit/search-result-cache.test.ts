import { describe, expect, it } from 'bun:test'
import { createResultCache } from '../../src/search/result-cache.ts'

describe('search result cache', () => {
  it('drops the least recently used entry past the entry limit', () => {
    const cache = createResultCache<string>({ entries: 2, bytes: 1000 })
    cache.set('a', 'A', 1)
    cache.set('b', 'B', 1)
    expect(cache.get('a')).toBe('A')
    cache.set('c', 'C', 1)
    expect(cache.get('b')).toBeUndefined()
    expect(cache.get('a')).toBe('A')
    expect(cache.get('c')).toBe('C')
  })

  it('drops older entries when the bytes held pass the budget, keeping the one that grew', () => {
    const cache = createResultCache<string>({ entries: 10, bytes: 100 })
    cache.set('a', 'A', 40)
    cache.set('b', 'B', 40)
    cache.grew('b', 'B', 200)
    expect(cache.get('a')).toBeUndefined()
    expect(cache.get('b')).toBe('B')
    expect(cache.bytes).toBe(240)
    cache.set('c', 'C', 10)
    expect(cache.get('b')).toBeUndefined()
    expect(cache.bytes).toBe(10)
  })

  it('ignores growth of a value no longer kept under its key', () => {
    const cache = createResultCache<string>({ entries: 10, bytes: 100 })
    cache.set('a', 'old', 10)
    cache.set('a', 'new', 20)
    cache.grew('a', 'old', 50)
    expect(cache.bytes).toBe(20)
    cache.clear()
    expect(cache.size).toBe(0)
    expect(cache.bytes).toBe(0)
  })
})
