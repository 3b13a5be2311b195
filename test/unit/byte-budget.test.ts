import { describe, expect, it } from 'bun:test'
import { createByteBudget } from '../../src/model/byte-budget.ts'

describe('createByteBudget', () => {
  it('holds at most its limit: later work waits its turn instead of failing', async () => {
    const budget = createByteBudget(100)
    let peak = 0
    const order: number[] = []
    const gates = Array.from({ length: 5 }, () => Promise.withResolvers<void>())
    const runs = gates.map((gate, i) =>
      budget.use(40, async () => {
        peak = Math.max(peak, budget.held())
        order.push(i)
        await gate.promise
        return i
      }),
    )
    await Bun.sleep(0)
    expect(order).toEqual([0, 1])
    for (const gate of gates) {
      gate.resolve()
      await Bun.sleep(0)
    }
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4])
    expect(order).toEqual([0, 1, 2, 3, 4])
    expect(peak).toBe(80)
    expect(budget.held()).toBe(0)
  })

  it('runs work larger than the whole budget alone, and gives bytes back when it fails', async () => {
    const budget = createByteBudget(10)
    await expect(budget.use(50, async () => Promise.reject(new Error('boom')))).rejects.toThrow()
    expect(budget.held()).toBe(0)
    expect(await budget.use(50, async () => budget.held())).toBe(50)
  })
})
