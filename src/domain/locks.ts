// In-memory write locks per archive or Tankoubon id: a second writer gets 423 instead of racing.
import { fail } from '../errors.ts'

export type Locks = {
  /** Runs fn while holding the lock on every id; throws 423 if one is already held. */
  withLock<T>(ids: string | string[], fn: () => Promise<T> | T): Promise<T>
  isLocked(id: string): boolean
}

export function createLocks(): Locks {
  const held = new Set<string>()
  return {
    isLocked: (id) => held.has(id),
    async withLock(ids, fn) {
      const list = Array.isArray(ids) ? ids : [ids]
      if (list.some((id) => held.has(id))) throw fail.locked('Locked: this item is being modified.')
      for (const id of list) held.add(id)
      try {
        return await fn()
      } finally {
        for (const id of list) held.delete(id)
      }
    },
  }
}
