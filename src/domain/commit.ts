// Writes of library rows: one transaction, and the events it made published once it committed.
// The writers (archives/save.ts, collections/tank-save.ts, collections/category-save.ts) take a
// Write, which only commit() hands out, so no write can skip its events.
import type { Deps } from '../deps.ts'
import type { Db } from '../db/client.ts'
import { findArchive } from '../db/repos/archives.repo.ts'
import { tx } from '../db/client.ts'
import { AppError } from '../errors.ts'
import type { DomainEvent } from '../events.ts'
import { nextTurn } from '../model/each-limited.ts'

/** An open write: the database inside the transaction, and the events to publish after it. */
export type Write = { readonly db: Db; readonly events: DomainEvent[] }

/**
 * Runs `write` in one immediate transaction, then publishes its events in order, before
 * returning (the next search of the same request sees the write). Nothing is published when the
 * transaction fails. An aggregate announced twice by one write (a Tankoubon whose members and name
 * both changed) is announced once; archive and download rows are always announced, the last one
 * last.
 */
export function commit<T>(deps: Pick<Deps, 'db' | 'events'>, write: (w: Write) => T): T {
  const { result, events } = writeOnce(deps, write)
  for (const event of events) deps.events.publish(event)
  return result
}

/** Events published between two turns of the event loop by commitInSlices. */
const EVENTS_PER_SLICE = 1_000

/**
 * As commit, for writes of a whole library (restore, legacy import): the events are published a
 * slice at a time, the event loop getting a turn between slices, so requests are answered while
 * the search index takes ~10,000 changed archives a second. Until it resolves, a search may
 * not yet see every row the write changed.
 */
export async function commitInSlices<T>(
  deps: Pick<Deps, 'db' | 'events'>,
  write: (w: Write) => T,
): Promise<T> {
  const { result, events } = writeOnce(deps, write)
  for (let at = 0; at < events.length; at++) {
    if (at > 0 && at % EVENTS_PER_SLICE === 0) await nextTurn()
    // The first slice goes out before any other write can land: its rows are as written.
    const event = at < EVENTS_PER_SLICE ? events[at]! : current(deps, events[at]!)
    if (event) deps.events.publish(event)
  }
  return result
}

/**
 * An event as it stands now: between two slices another write may have changed or deleted an
 * archive this one saved, and announced it already. Its row is read again (a deleted one is not
 * announced again), so the index never goes back to this write's copy.
 */
function current(deps: Pick<Deps, 'db'>, event: DomainEvent): DomainEvent | null {
  if (event.type !== 'archive.saved') return event
  const row = findArchive(deps.db, event.row.id)
  return row ? { ...event, row } : null
}

/** The transaction, and the events to publish after it (an aggregate's announced once). */
function writeOnce<T>(
  deps: Pick<Deps, 'db' | 'events'>,
  write: (w: Write) => T,
): { result: T; events: DomainEvent[] } {
  // Inside an outer transaction, subscribers would hear of rows that could still roll back.
  if (deps.db.$client.inTransaction)
    throw new AppError('internal', 'a library write was started inside another transaction')
  const made: DomainEvent[] = []
  const result = tx(deps.db, () => write({ db: deps.db, events: made }))
  const announced = new Set<string>()
  const events = made.filter((event) => {
    if (
      event.type === 'archive.saved' ||
      event.type === 'download.saved' ||
      event.type === 'job.progress'
    )
      return true
    const key = `${event.type}|${event.id}`
    if (announced.has(key)) return false
    announced.add(key)
    return true
  })
  return { result, events }
}
