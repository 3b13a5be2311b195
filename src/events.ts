// The in-process event bus: writers announce committed changes, readers of the library (the search
// index, later SSE) subscribe. Synchronous, so every subscriber has run before the writer's request
// answers; a subscriber that throws is logged and skipped, never failing the writer or the others.
import type { ArchiveRow } from './db/repos/archives.repo.ts'
import type { DownloadItemRow } from './db/repos/downloads.repo.ts'
import { createLogger, type Logger } from './log.ts'

export type DomainEvent =
  /**
   * An archive row was inserted or changed (a hidden row shown again included). `created`: the
   * row was just inserted (a newly catalogued archive), not an existing one changed or shown again.
   */
  | { type: 'archive.saved'; row: ArchiveRow; created?: true }
  /** The row stays, out of listings and search: its file is gone, moved away or unreadable. */
  | { type: 'archive.hidden'; id: string }
  | { type: 'archive.removed'; id: string }
  /** Name, tags, progress, cover or member list of a Tankoubon changed, or it was created. */
  | { type: 'tankoubon.changed'; id: string }
  | { type: 'tankoubon.removed'; id: string }
  /** Created, edited, deleted, or its member list changed. */
  | { type: 'category.changed'; id: string }
  /** A download queue item was added (`created`) or its stored state changed. */
  | { type: 'download.saved'; row: DownloadItemRow; created?: true }
  | { type: 'download.removed'; id: string }
  /** A split of archive `id` (job `job`) wrote a page, or is about to start an output. */
  | {
      type: 'split.progress'
      id: string
      job: number
      outputIndex: number
      outputs: number
      pagesDone: number
      pages: number
    }
  /** The split catalogued every output (and deleted the original when asked). */
  | { type: 'split.done'; id: string; job: number; archives: string[] }
  /** The split failed: its outputs were removed, the original is untouched. */
  | { type: 'split.failed'; id: string; job: number; error: string }
  | {
      type: 'job.progress'
      id: number
      name: string
      state: 'queued' | 'active' | 'finished' | 'failed'
      progress: number
      notes?: Record<string, unknown>
      /** Transfer fields of downloads, once known. */
      downloadedBytes?: number
      totalBytes?: number
    }

export type EventType = DomainEvent['type']
export type EventOf<T extends EventType> = Extract<DomainEvent, { type: T }>
export type Subscriber<T extends EventType> = (event: EventOf<T>) => void

export type EventBus = {
  /** Calls the type's subscribers in the order they subscribed, before returning. */
  publish(event: DomainEvent): void
  /** Returns the matching unsubscribe. */
  subscribe<T extends EventType>(type: T, subscriber: Subscriber<T>): () => void
  unsubscribe<T extends EventType>(type: T, subscriber: Subscriber<T>): void
}

export function createEventBus(log: Pick<Logger, 'error'> = createLogger('events')): EventBus {
  // Lists are replaced, never mutated: a publish in progress keeps the list it started with.
  // Each list holds only subscribers of its own type, so a list's entries take any event published
  // under that type.
  const subscribers = new Map<EventType, readonly ((event: DomainEvent) => void)[]>()

  const unsubscribe = <T extends EventType>(type: T, subscriber: Subscriber<T>) => {
    const list = subscribers.get(type) ?? []
    const at = list.indexOf(subscriber as (event: DomainEvent) => void)
    if (at >= 0) subscribers.set(type, list.toSpliced(at, 1))
  }

  return {
    publish(event) {
      const list = subscribers.get(event.type)
      if (!list) return
      for (const subscriber of list) {
        try {
          subscriber(event)
        } catch (error) {
          log.error('event subscriber failed', {
            event: event.type,
            error: error instanceof Error ? error.message : String(error),
          })
        }
      }
    },
    subscribe(type, subscriber) {
      const entry = subscriber as (event: DomainEvent) => void
      subscribers.set(type, [...(subscribers.get(type) ?? []), entry])
      return () => unsubscribe(type, subscriber)
    },
    unsubscribe,
  }
}
