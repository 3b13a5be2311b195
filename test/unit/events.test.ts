// The event bus (order, isolation of a failing subscriber, unsubscribe) and commit(), which
// publishes a write's events only once its transaction has committed.
import { afterAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createEventBus, type DomainEvent } from '../../src/events.ts'
import { openDb, tx } from '../../src/db/client.ts'
import { findArchive } from '../../src/db/repos/archives.repo.ts'
import { commit } from '../../src/domain/commit.ts'
import { insertArchiveRow, patchArchive } from '../../src/domain/archives/save.ts'
import { insertTankoubonRow, patchTankoubon } from '../../src/domain/collections/tank-save.ts'
import { AppError } from '../../src/errors.ts'

const saved = (id: string): DomainEvent => ({ type: 'tankoubon.changed', id })

function silentLog() {
  const lines: { msg: string; fields?: Record<string, unknown> }[] = []
  return {
    lines,
    error: (msg: string, fields?: Record<string, unknown>) => lines.push({ msg, fields }),
  }
}

describe('createEventBus', () => {
  it('calls subscribers in subscription order, events in publish order, synchronously', () => {
    const bus = createEventBus(silentLog())
    const seen: string[] = []
    bus.subscribe('tankoubon.changed', (e) => seen.push(`first ${e.id}`))
    bus.subscribe('tankoubon.changed', (e) => seen.push(`second ${e.id}`))
    bus.publish(saved('TANK_1'))
    bus.publish(saved('TANK_2'))
    expect(seen).toEqual(['first TANK_1', 'second TANK_1', 'first TANK_2', 'second TANK_2'])
  })

  it('hands each subscriber only the events of its type', () => {
    const bus = createEventBus(silentLog())
    const removed: string[] = []
    bus.subscribe('archive.removed', (e) => removed.push(e.id))
    bus.publish(saved('TANK_1'))
    bus.publish({ type: 'archive.removed', id: 'a'.repeat(40) })
    expect(removed).toEqual(['a'.repeat(40)])
  })

  it('logs a throwing subscriber and still runs the others; publish does not throw', () => {
    const log = silentLog()
    const bus = createEventBus(log)
    const seen: string[] = []
    bus.subscribe('category.changed', (e) => seen.push(`before ${e.id}`))
    bus.subscribe('category.changed', () => {
      throw new Error('index broke')
    })
    bus.subscribe('category.changed', (e) => seen.push(`after ${e.id}`))
    expect(() => bus.publish({ type: 'category.changed', id: 'SET_1' })).not.toThrow()
    expect(seen).toEqual(['before SET_1', 'after SET_1'])
    expect(log.lines).toEqual([
      {
        msg: 'event subscriber failed',
        fields: { event: 'category.changed', error: 'index broke' },
      },
    ])
  })

  it('stops calling a subscriber once unsubscribed, by the returned function or by name', () => {
    const bus = createEventBus(silentLog())
    const seen: string[] = []
    const one = (e: { id: string }) => seen.push(`one ${e.id}`)
    const two = (e: { id: string }) => seen.push(`two ${e.id}`)
    const stopOne = bus.subscribe('tankoubon.removed', one)
    bus.subscribe('tankoubon.removed', two)
    bus.publish({ type: 'tankoubon.removed', id: 'TANK_1' })
    stopOne()
    bus.publish({ type: 'tankoubon.removed', id: 'TANK_2' })
    bus.unsubscribe('tankoubon.removed', two)
    bus.publish({ type: 'tankoubon.removed', id: 'TANK_3' })
    expect(seen).toEqual(['one TANK_1', 'two TANK_1', 'two TANK_2'])
  })

  it('finishes a publish with the subscribers it started with when one unsubscribes another', () => {
    const bus = createEventBus(silentLog())
    const seen: string[] = []
    const later = () => seen.push('later')
    bus.subscribe('tankoubon.changed', () => {
      seen.push('first')
      bus.unsubscribe('tankoubon.changed', later)
    })
    bus.subscribe('tankoubon.changed', later)
    bus.publish(saved('TANK_1'))
    bus.publish(saved('TANK_1'))
    expect(seen).toEqual(['first', 'later', 'first'])
  })
})

describe('commit', () => {
  const root = mkdtempSync(join(tmpdir(), 'tankobun-events-'))
  const db = openDb(join(root, 'db.sqlite'))
  const events = createEventBus(silentLog())
  const deps = { db, events }
  afterAll(() => {
    db.$client.close()
    rmSync(root, { recursive: true, force: true })
  })

  const archive = (id: string) => ({
    id,
    path: `${id}.zip`,
    filename: id,
    extension: 'zip',
    title: `Title ${id.slice(0, 4)}`,
    createdAt: 0,
  })

  it('publishes after the transaction committed, in the order the writes happened', () => {
    const seen: string[] = []
    const stop = events.subscribe('archive.saved', (e) => {
      // The row is committed (no transaction open any more), in its final state.
      const stored = findArchive(db, e.row.id)?.title
      seen.push(`${e.row.title} (stored: ${stored}, in transaction: ${db.$client.inTransaction})`)
    })
    const id = '1'.repeat(40)
    commit(deps, (w) => {
      insertArchiveRow(w, archive(id), ['p1.jpg'])
      patchArchive(w, id, { title: 'Renamed' })
      expect(seen).toEqual([])
    })
    stop()
    expect(seen).toEqual([
      'Title 1111 (stored: Renamed, in transaction: false)',
      'Renamed (stored: Renamed, in transaction: false)',
    ])
  })

  it('publishes nothing when the transaction rolls back', () => {
    const seen: DomainEvent[] = []
    const stop = events.subscribe('archive.saved', (e) => seen.push(e))
    const id = '2'.repeat(40)
    expect(() =>
      commit(deps, (w) => {
        insertArchiveRow(w, archive(id), [])
        throw new Error('refused')
      }),
    ).toThrow('refused')
    stop()
    expect(seen).toEqual([])
    expect(findArchive(db, id)).toBeUndefined()
  })

  it('announces an aggregate changed twice in one write once', () => {
    const seen: string[] = []
    const stop = events.subscribe('tankoubon.changed', (e) => seen.push(e.id))
    commit(deps, (w) => {
      insertTankoubonRow(w, { id: 'TANK_0000000001', name: 'T', createdAt: 0 })
      patchTankoubon(w, 'TANK_0000000001', { name: 'U' }, [])
    })
    stop()
    expect(seen).toEqual(['TANK_0000000001'])
  })

  it('refuses to start inside another transaction, where a rollback could follow the events', () => {
    expect(() => tx(db, () => commit(deps, () => undefined))).toThrow(AppError)
  })
})
