// The search store's id -> slot table (open addressing, tombstones) against a Map, through
// growth, removals, slot reuse and a clear.
import { describe, expect, it } from 'bun:test'
import { createIdTable } from '../../src/search/id-table.ts'

describe('search id table', () => {
  it('answers as a Map through adds, deletes, reuse and growth', () => {
    const ids: string[] = []
    const table = createIdTable((slot) => ids[slot]!)
    const expected = new Map<string, number>()
    const free: number[] = []
    let seed = 11
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed % n
    }
    for (let step = 0; step < 20_000; step++) {
      const live = [...expected.keys()]
      if (live.length > 0 && random(3) === 0) {
        const id = live[random(live.length)]!
        const slot = expected.get(id)!
        table.delete(id)
        expected.delete(id)
        ids[slot] = ''
        free.push(slot)
      } else {
        const id = step % 7 === 0 ? `TANK_${step}` : `${step.toString(16).padStart(40, 'a')}`
        const slot = free.pop() ?? ids.length
        ids[slot] = id
        table.add(id, slot)
        expected.set(id, slot)
      }
    }
    for (const [id, slot] of expected) expect(table.get(id)).toBe(slot)
    expect(table.get('missing')).toBeUndefined()
    expect(table.get(`${(3).toString(16).padStart(40, 'a')}`)).toBe(
      expected.get('3'.padStart(40, 'a')),
    )
    table.clear(expected.size)
    expect(table.get([...expected.keys()][0]!)).toBeUndefined()
  })
})
