// Login throttling: after MAX_LOGIN_FAILURES attempts without a success, an address is locked out
// for LOGIN_LOCK_MS. In memory only: a restart forgives, which is fine for a single-user server.
export const MAX_LOGIN_FAILURES = 5
export const LOGIN_LOCK_MS = 10 * 60 * 1000
/** Bounds memory under a spray of addresses: stale entries are swept past this size. */
const SWEEP_ABOVE_ENTRIES = 10_000

type Entry = { attempts: number; firstAt: number; lockedUntil: number }

export type LoginThrottle = {
  /**
   * Counts an attempt before the password is checked (so parallel guesses are counted too).
   * Returns the milliseconds left on a lockout, or 0 when the attempt may proceed.
   */
  begin(address: string | null): number
  /** A correct password clears the address's record. */
  succeed(address: string | null): void
}

export function createLoginThrottle(now: () => number = Date.now): LoginThrottle {
  const entries = new Map<string, Entry>()
  const keyOf = (address: string | null) => address ?? 'unknown'

  function sweep(at: number): void {
    for (const [key, entry] of entries) {
      if (entry.lockedUntil <= at && at - entry.firstAt > LOGIN_LOCK_MS) entries.delete(key)
    }
  }

  return {
    begin(address) {
      const at = now()
      const key = keyOf(address)
      let entry = entries.get(key)
      if (entry && entry.lockedUntil <= at && at - entry.firstAt > LOGIN_LOCK_MS) {
        entries.delete(key)
        entry = undefined
      }
      if (!entry) {
        if (entries.size >= SWEEP_ABOVE_ENTRIES) sweep(at)
        entries.set(key, { attempts: 1, firstAt: at, lockedUntil: 0 })
        return 0
      }
      if (entry.lockedUntil > at) return entry.lockedUntil - at
      if (entry.attempts >= MAX_LOGIN_FAILURES) {
        entry.lockedUntil = at + LOGIN_LOCK_MS
        return LOGIN_LOCK_MS
      }
      entry.attempts++
      return 0
    },
    succeed(address) {
      entries.delete(keyOf(address))
    },
  }
}
