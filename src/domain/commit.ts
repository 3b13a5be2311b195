// Writes of library rows: one transaction, and the events it made published once it committed.
// The writers (archives/save.ts, collections/tank-save.ts, collections/category-save.ts) take a
// Write, which only commit() hands out, so no write can skip its events.
import type { Deps } from '../deps.ts'
import type { Db } from '../db/client.ts'
import { tx } from '../db/client.ts'
import { AppError } from '../errors.ts'
import type { DomainEvent } from '../events.ts'

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
  // Inside an outer transaction, subscribers would hear of rows that could still roll back.
  if (deps.db.$client.inTransaction)
    throw new AppError('internal', 'a library write was started inside another transaction')
  const events: DomainEvent[] = []
  const result = tx(deps.db, () => write({ db: deps.db, events }))
  let announced: Set<string> | undefined
  for (const event of events) {
    if (
      event.type !== 'archive.saved' &&
      event.type !== 'download.saved' &&
      event.type !== 'job.progress'
    ) {
      const key = `${event.type}|${event.id}`
      announced ??= new Set()
      if (announced.has(key)) continue
      announced.add(key)
    }
    deps.events.publish(event)
  }
  return result
}
