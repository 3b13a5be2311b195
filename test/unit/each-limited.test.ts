import { describe, expect, it } from 'bun:test'
import { eachLimited, mapLimited } from '../../src/model/each-limited.ts'

describe('eachLimited', () => {
  it('takes every item once, in order, with at most `limit` in flight', async () => {
    let inFlight = 0
    let most = 0
    const taken: number[] = []
    await eachLimited(
      Array.from({ length: 20 }, (_, i) => i * 10),
      3,
      async (item, index) => {
        expect(item).toBe(index * 10)
        taken.push(index)
        most = Math.max(most, ++inFlight)
        await Bun.sleep(1)
        inFlight--
      },
    )
    expect(taken).toEqual(Array.from({ length: 20 }, (_, i) => i))
    expect(most).toBe(3)
  })

  it('stops taking items once the signal is aborted', async () => {
    const control = new AbortController()
    const taken: number[] = []
    await eachLimited(
      Array.from({ length: 10 }, (_, i) => i),
      1,
      async (item) => {
        taken.push(item)
        if (item === 3) control.abort()
      },
      control.signal,
    )
    expect(taken).toEqual([0, 1, 2, 3])
  })

  it('gives the event loop turns over items that await nothing real', async () => {
    let turnAt = -1
    let done = 0
    setImmediate(() => (turnAt = done))
    await eachLimited(Array.from({ length: 5_000 }), 2, async () => void done++)
    expect(done).toBe(5_000)
    expect(turnAt).toBeGreaterThanOrEqual(0)
    expect(turnAt).toBeLessThan(5_000)
  })
})

describe('mapLimited', () => {
  it('answers in input order whatever order the work ends in', async () => {
    const out = await mapLimited([30, 10, 20], 3, async (ms, index) => {
      await Bun.sleep(ms)
      return index
    })
    expect(out).toEqual([0, 1, 2])
  })
})
