// Work over a list with a bounded number of items in flight: lanes that each take the next item.

/**
 * Items a lane goes through before it gives the event loop a turn. An item whose work awaits
 * nothing real (a thumbnail that exists) resolves in a microtask, and a lane of those would hold
 * the server's thread for the whole list: over a million archives, tens of seconds.
 */
const ITEMS_PER_TURN = 256

/** Resolves once the event loop has had a turn: timers, I/O and other requests run first. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

/**
 * `fn` over `items`, at most `limit` at once, taken in order (`index` is the item's position).
 * Stops taking items once `signal` is aborted.
 */
export async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  let next = 0
  const lane = async () => {
    for (let taken = 1; next < items.length && !signal?.aborted; taken++) {
      if (taken % ITEMS_PER_TURN === 0) await nextTurn()
      if (next >= items.length || signal?.aborted) return
      const at = next++
      await fn(items[at]!, at)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane))
}

/** `fn` over `items` with at most `limit` running, results in input order. */
export async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length)
  await eachLimited(items, limit, async (item, at) => {
    out[at] = await fn(item, at)
  })
  return out
}
