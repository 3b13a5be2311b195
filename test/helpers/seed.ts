// Seeds catalog rows through commit() and the aggregate writers (no archive file needed), so every
// subscriber hears of them as of a real write: the search index, the wire cache, the ComicInfo
// reader and Run Automatically. For tests that need real files, write them with
// test/helpers/fixtures.ts and let the scan find them.
import { randomBytes } from 'node:crypto'
import type { Deps } from '../../src/deps.ts'
import type { ArchiveRow } from '../../src/db/repos/archives.repo.ts'
import { commit } from '../../src/domain/commit.ts'
import { insertArchiveRow } from '../../src/domain/archives/save.ts'
import { insertTankoubonRow, patchTankoubon } from '../../src/domain/collections/tank-save.ts'
import { addMember, insertCategoryRow } from '../../src/domain/collections/category-save.ts'
import { normalizeTags } from '../../src/model/tags.ts'

/** What the writers need: the database and the bus their events go out on. */
export type SeedDeps = Pick<Deps, 'db' | 'events'>

export type SeedArchive = {
  id?: string
  title?: string
  tags?: string
  summary?: string
  /** Page entry names; default p001.jpg.. for `pagecount` pages (default 10). */
  pages?: string[]
  pagecount?: number
  progress?: number
  isnew?: boolean
  lastreadtime?: number
  size?: number
  extension?: string
}

export function randomArchiveId(): string {
  return randomBytes(20).toString('hex')
}

export function seedArchive(deps: SeedDeps, seed: SeedArchive = {}): ArchiveRow {
  const id = seed.id ?? randomArchiveId()
  const count = seed.pages?.length ?? seed.pagecount ?? 10
  const pages =
    seed.pages ?? Array.from({ length: count }, (_, i) => `p${String(i + 1).padStart(3, '0')}.jpg`)
  const title = seed.title ?? `Archive ${id.slice(0, 6)}`
  return commit(deps, (w) =>
    insertArchiveRow(
      w,
      {
        id,
        path: `seeded/${id}.zip`,
        filename: title,
        extension: seed.extension ?? 'zip',
        title,
        tags: normalizeTags(seed.tags ?? ''),
        summary: seed.summary ?? '',
        isnew: seed.isnew ?? true,
        progress: seed.progress ?? 0,
        pagecount: pages.length,
        lastreadtime: seed.lastreadtime ?? 0,
        size: seed.size ?? 1000,
        mtimeMs: 0,
        createdAt: Math.floor(Date.now() / 1000),
      },
      pages,
    ),
  )
}

let seedCounter = 0
/** Unique within the process, ten digits: for TANK_ and SET_ ids. */
function tenDigits(): string {
  seedCounter = (seedCounter + 1) % 1000
  const random = String(Math.floor(Math.random() * 1e7)).padStart(7, '0')
  return random + String(seedCounter).padStart(3, '0')
}

export type SeedTankoubon = {
  name?: string
  tags?: string
  summary?: string
  members: string[]
  progress?: number
  lastreadtime?: number
}

/** A Tankoubon with its members in order, in one write. */
export function seedTankoubon(deps: SeedDeps, seed: SeedTankoubon): string {
  const id = `TANK_${tenDigits()}`
  commit(deps, (w) => {
    insertTankoubonRow(w, {
      id,
      name: seed.name ?? `Tank ${id.slice(-4)}`,
      tags: normalizeTags(seed.tags ?? ''),
      summary: seed.summary ?? '',
      progress: seed.progress ?? 0,
      lastreadtime: seed.lastreadtime ?? 0,
      createdAt: Math.floor(Date.now() / 1000),
    })
    patchTankoubon(w, id, {}, seed.members)
  })
  return id
}

export type SeedCategory = {
  name?: string
  search?: string
  members?: string[]
  visibleToGuest?: boolean
}

/** A static (members) or dynamic (search) category, in one write. */
export function seedCategory(deps: SeedDeps, seed: SeedCategory): string {
  const id = `SET_${tenDigits()}`
  commit(deps, (w) => {
    insertCategoryRow(w, {
      id,
      name: seed.name ?? `Category ${id.slice(-4)}`,
      search: seed.search ?? '',
      visibleToGuest: seed.visibleToGuest ?? false,
      createdAt: Math.floor(Date.now() / 1000),
    })
    for (const member of seed.members ?? []) addMember(w, id, member)
  })
  return id
}
