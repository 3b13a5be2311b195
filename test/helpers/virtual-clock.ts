// A clock for code that paces itself by waiting (the byte buckets of src/net/domain-rules.ts): time
// stands still until every waiter has gone to sleep, then jumps to the earliest wake-up. A test
// reads how long the work took on this clock, never on the wall clock, and does not wait for it.
import type { PaceClock } from '../../src/net/domain-rules.ts'

export type VirtualClock = PaceClock & {
  /** Every wait asked for, in milliseconds, in order. */
  readonly waits: number[]
}

export function createVirtualClock(): VirtualClock {
  let now = 0
  const sleepers: { at: number; wake: () => void }[] = []
  const waits: number[] = []
  let ticking = false
  // A macrotask runs once the microtasks of every awake waiter have run: all who will sleep now
  // have asked by then, so the earliest of them is the next moment anything happens.
  const tick = () => {
    ticking = false
    sleepers.sort((a, b) => a.at - b.at)
    const next = sleepers.shift()
    if (!next) return
    now = Math.max(now, next.at)
    next.wake()
    if (sleepers.length > 0) schedule()
  }
  const schedule = () => {
    if (ticking) return
    ticking = true
    setTimeout(tick, 0)
  }
  return {
    waits,
    now: () => now,
    sleep(ms, signal) {
      return new Promise((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason)
        waits.push(ms)
        const sleeper = {
          at: now + ms,
          wake: () => {
            signal?.removeEventListener('abort', onAbort)
            resolve()
          },
        }
        const onAbort = () => {
          sleepers.splice(sleepers.indexOf(sleeper), 1)
          reject(signal!.reason)
        }
        signal?.addEventListener('abort', onAbort, { once: true })
        sleepers.push(sleeper)
        schedule()
      })
    },
  }
}
