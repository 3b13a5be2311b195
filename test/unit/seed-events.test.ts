// The seed helper writes through commit() and the writers: subscribers hear of seeded rows as of
// real writes (the search index, the wire cache, the ComicInfo reader, Run Automatically).
import { afterAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDb } from '../../src/db/client.ts'
import { createEventBus, type DomainEvent } from '../../src/events.ts'
import { seedArchive, seedCategory, seedTankoubon } from '../helpers/seed.ts'

const root = mkdtempSync(join(tmpdir(), 'tankobun-seed-'))
const db = openDb(join(root, 'db.sqlite'))
afterAll(() => {
  db.$client.close()
  rmSync(root, { recursive: true, force: true })
})

describe('test/helpers/seed.ts', () => {
  it('announces seeded archives, Tankoubons and categories on the bus', () => {
    const events = createEventBus()
    const heard: DomainEvent[] = []
    for (const type of ['archive.saved', 'tankoubon.changed', 'category.changed'] as const)
      events.subscribe(type, (event) => heard.push(event))
    const archive = seedArchive({ db, events }, { title: 'Seeded' })
    const tank = seedTankoubon({ db, events }, { members: [archive.id] })
    const category = seedCategory({ db, events }, { members: [archive.id] })
    expect(heard).toEqual([
      { type: 'archive.saved', row: archive, created: true },
      { type: 'tankoubon.changed', id: tank },
      { type: 'category.changed', id: category },
    ])
  })
})
