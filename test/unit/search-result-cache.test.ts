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

  it('drops the least recently used entries when the bytes held pass the budget', () => {
    const cache = createResultCache<string>({ entries: 10, bytes: 100 })
    cache.set('a', 'A', 40)
    cache.set('b', 'B', 40)
    expect(cache.get('a')).toBe('A')
    cache.set('c', 'C', 40)
    expect(cache.get('b')).toBeUndefined()
    expect(cache.get('a')).toBe('A')
    expect(cache.bytes).toBe(80)
    cache.set('d', 'D', 500)
    expect(cache.get('d')).toBe('D')
    expect(cache.size).toBe(1)
    expect(cache.bytes).toBe(500)
    cache.clear()
    expect(cache.size).toBe(0)
    expect(cache.bytes).toBe(0)
  })
})
