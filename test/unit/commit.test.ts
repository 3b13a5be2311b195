// commit() publishes a write's events before it returns; commitInSlices gives the event loop
// turns between slices of them (restore, legacy import), in the same order, deduplicated alike.
import { afterEach, beforeEach, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDb, type Db } from '../../src/db/client.ts'
import { commit, commitInSlices, type Write } from '../../src/domain/commit.ts'
import { createEventBus, type DomainEvent, type EventBus } from '../../src/events.ts'
import {
  deleteArchiveRows,
  insertArchiveRow,
  patchArchive,
} from '../../src/domain/archives/save.ts'

let root: string
let deps: { db: Db; events: EventBus }

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'tankobun-commit-'))
  deps = { db: openDb(join(root, 'db.sqlite')), events: createEventBus() }
})
afterEach(() => {
  deps.db.$client.close()
  rmSync(root, { recursive: true, force: true })
})

/** A write announcing `count` category changes (no rows: only the events matter here). */
const announcing = (count: number) => (w: Write) => {
  for (let i = 0; i < count; i++) w.events.push({ type: 'category.changed', id: `SET_${i}` })
  w.events.push({ type: 'category.changed', id: 'SET_0' })
  return count
}

/** Counts published events, and how many had been published when a turn of the loop came. */
function watch() {
  const seen: string[] = []
  deps.events.subscribe('category.changed', (event: DomainEvent) => {
    if (event.type === 'category.changed') seen.push(event.id)
  })
  let atTurn = -1
  setImmediate(() => (atTurn = seen.length))
  return { seen, atTurn: () => atTurn }
}

describe('commitInSlices', () => {
  it('publishes a slice, gives the event loop a turn, then the rest, in order and once each', async () => {
    const watched = watch()
    expect(await commitInSlices(deps, announcing(2_500))).toBe(2_500)
    expect(watched.atTurn()).toBe(1_000)
    expect(watched.seen).toHaveLength(2_500)
    expect(watched.seen.slice(0, 3)).toEqual(['SET_0', 'SET_1', 'SET_2'])
  })

  it('is what commit does all at once', async () => {
    const watched = watch()
    expect(commit(deps, announcing(2_500))).toBe(2_500)
    await new Promise((resolve) => setImmediate(resolve))
    expect(watched.atTurn()).toBe(2_500)
    expect(watched.seen).toHaveLength(2_500)
  })

  it('announces an archive as it stands when its slice comes, not as the write left it', async () => {
    const id = (n: number) => n.toString(16).padStart(40, '0')
    const seen = new Map<string, string>()
    deps.events.subscribe('archive.saved', (event) => seen.set(event.row.id, event.row.title))
    // Another write lands at the first turn: one archive of the later slices edited, one deleted.
    setImmediate(() =>
      commit(deps, (w) => {
        patchArchive(w, id(1_100), { title: 'edited since' })
        deleteArchiveRows(w, [id(1_200)])
      }),
    )
    await commitInSlices(deps, (w) => {
      for (let n = 0; n < 1_500; n++) {
        const path = `p/${n}.cbz`
        insertArchiveRow(
          w,
          { id: id(n), path, filename: `${n}`, extension: 'cbz', title: `t${n}`, createdAt: 1 },
          [],
        )
      }
    })
    expect(seen.get(id(5))).toBe('t5')
    expect(seen.get(id(1_100))).toBe('edited since')
    expect(seen.has(id(1_200))).toBe(false)
    expect(seen.size).toBe(1_499)
  })

  it('publishes nothing when the write fails', async () => {
    const watched = watch()
    const failing = (w: Write) => {
      announcing(10)(w)
      throw new Error('rolled back')
    }
    await expect(commitInSlices(deps, failing)).rejects.toThrow('rolled back')
    expect(watched.seen).toEqual([])
  })
})
