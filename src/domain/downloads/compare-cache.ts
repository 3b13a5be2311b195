// Comparisons already made, per server (built by boot, carried in Deps): one per queue item, kept
// while both files are unchanged (size and mtime of each) and dropped when the item goes.
import type { EventBus } from '../../events.ts'
import type { ComparisonResult } from './compare.ts'

/** Items whose comparison is kept; the oldest goes first past it. */
const MAX_KEPT = 64

export type ComparisonEntry = {
  /** Identity of both files when the comparison started. */
  key: string
  /** In flight or settled; a failed run removes its entry. */
  result: Promise<ComparisonResult>
  settled?: ComparisonResult
}

export type ComparisonCache = {
  get(itemId: string): ComparisonEntry | undefined
  /** Keeps `result` under `key`; its failure drops it again. */
  set(itemId: string, key: string, result: Promise<ComparisonResult>): ComparisonEntry
  drop(itemId: string): void
}

export function createComparisonCache(): ComparisonCache {
  const entries = new Map<string, ComparisonEntry>()
  return {
    get: (itemId) => entries.get(itemId),
    set(itemId, key, result) {
      const entry: ComparisonEntry = { key, result }
      entries.delete(itemId)
      entries.set(itemId, entry)
      for (const oldest of entries.keys()) {
        if (entries.size <= MAX_KEPT) break
        entries.delete(oldest)
      }
      result.then(
        (settled) => {
          entry.settled = settled
        },
        () => {
          if (entries.get(itemId) === entry) entries.delete(itemId)
        },
      )
      return entry
    },
    drop: (itemId) => void entries.delete(itemId),
  }
}

/** A deleted queue item takes its comparison with it; returns the unsubscribe. */
export function dropComparisonsOfRemovedItems(bus: EventBus, cache: ComparisonCache): () => void {
  return bus.subscribe('download.removed', (event) => cache.drop(event.id))
}
