// The kept search-hit JSON: bounded in characters, oldest out first, dropped by archive events.
import { describe, expect, it } from 'bun:test'
import { createEventBus } from '../../src/events.ts'
import {
  createWireCache,
  dropWireOnWrites,
  MAX_WIRE_CACHE_CHARS,
} from '../../src/http/wire-cache.ts'
import type { ArchiveRow } from '../../src/db/repos/archives.repo.ts'

const json = (id: string, chars: number) => `{"arcid":"${id}"}`.padEnd(chars, ' ')

describe('createWireCache', () => {
  it('stays within its bound, dropping the oldest fragments first', () => {
    const cache = createWireCache(1000)
    for (let i = 0; i < 50; i++) {
      cache.set(`a${i}`, json(`a${i}`, 100))
      expect(cache.chars).toBeLessThanOrEqual(1000)
    }
    expect(cache.size).toBe(10)
    expect(cache.chars).toBe(1000)
    expect(cache.get('a39')).toBeUndefined()
    expect(cache.get('a40')).toBe(json('a40', 100))
    expect(cache.get('a49')).toBe(json('a49', 100))
  })

  it('counts a replaced fragment once, and keeps none larger than the bound', () => {
    const cache = createWireCache(1000)
    cache.set('a', json('a', 300))
    cache.set('a', json('a', 200))
    expect({ size: cache.size, chars: cache.chars }).toEqual({ size: 1, chars: 200 })
    cache.set('b', json('b', 1001))
    expect(cache.get('b')).toBeUndefined()
    expect({ size: cache.size, chars: cache.chars }).toEqual({ size: 1, chars: 200 })
    cache.drop('a')
    cache.drop('a')
    expect({ size: cache.size, chars: cache.chars }).toEqual({ size: 0, chars: 0 })
  })
})

describe('dropWireOnWrites', () => {
  it('drops an archive on saved, hidden and removed; Tankoubon and category events keep it', () => {
    const bus = createEventBus()
    const cache = createWireCache()
    const stop = dropWireOnWrites(bus, cache)
    for (const id of ['a', 'b', 'c', 'd']) cache.set(id, json(id, 20))
    bus.publish({ type: 'archive.saved', row: { id: 'a' } as ArchiveRow })
    bus.publish({ type: 'archive.hidden', id: 'b' })
    bus.publish({ type: 'archive.removed', id: 'c' })
    bus.publish({ type: 'tankoubon.changed', id: 'd' })
    bus.publish({ type: 'category.changed', id: 'd' })
    expect(['a', 'b', 'c', 'd'].map((id) => cache.get(id) !== undefined)).toEqual([
      false,
      false,
      false,
      true,
    ])
    stop()
    bus.publish({ type: 'archive.removed', id: 'd' })
    expect(cache.get('d')).toBeDefined()
  })
})
