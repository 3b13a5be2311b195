// Keeps the search index current from the library's events: the one place writes reach the index.
// Writers publish after their commit and before their request answers, so the next search sees
// the write.
import type { EventBus } from '../../events.ts'
import type { SearchIndex } from '../../search/types.ts'

/** Subscribes `index` to `bus`; returns the unsubscribe. */
export function syncIndexWithEvents(
  bus: EventBus,
  index: Pick<
    SearchIndex,
    'upsertArchive' | 'removeArchive' | 'refreshTankoubon' | 'removeTankoubon' | 'clearCache'
  >,
): () => void {
  const stops = [
    bus.subscribe('archive.saved', (event) => index.upsertArchive(event.row)),
    bus.subscribe('archive.hidden', (event) => index.removeArchive(event.id)),
    bus.subscribe('archive.removed', (event) => index.removeArchive(event.id)),
    bus.subscribe('tankoubon.changed', (event) => index.refreshTankoubon(event.id)),
    bus.subscribe('tankoubon.removed', (event) => index.removeTankoubon(event.id)),
    // Cached results of searches restricted to a category were computed from its old members.
    bus.subscribe('category.changed', () => index.clearCache()),
  ]
  return () => {
    for (const stop of stops) stop()
  }
}
