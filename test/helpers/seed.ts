// Seeds catalog rows through the real repos and the live search index (no archive file needed).
// For tests that need real files, write them with test/helpers/fixtures.ts and let the scan find them.
import { randomBytes } from 'node:crypto'
import type { Deps } from '../../src/deps.ts'
import { insertArchive, type ArchiveRow } from '../../src/db/repos/archives.repo.ts'
import { normalizeTags } from '../../src/model/tags.ts'
import { insertTankoubon, replaceTankMembers } from '../../src/db/repos/tankoubons.repo.ts'
import { addCategoryMember, insertCategory } from '../../src/db/repos/categories.repo.ts'

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

export function seedArchive(deps: Pick<Deps, 'db' | 'search'>, seed: SeedArchive = {}): ArchiveRow {
  const id = seed.id ?? randomArchiveId()
  const count = seed.pages?.length ?? seed.pagecount ?? 10
  const pages =
    seed.pages ?? Array.from({ length: count }, (_, i) => `p${String(i + 1).padStart(3, '0')}.jpg`)
  const title = seed.title ?? `Archive ${id.slice(0, 6)}`
  const row = insertArchive(
    deps.db,
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
  )
  deps.search.upsertArchive(row)
  return row
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

/** A Tankoubon with its members in order, written through the repo and refreshed in the index. */
export function seedTankoubon(deps: Pick<Deps, 'db' | 'search'>, seed: SeedTankoubon): string {
  const id = `TANK_${tenDigits()}`
  insertTankoubon(deps.db, {
    id,
    name: seed.name ?? `Tank ${id.slice(-4)}`,
    tags: normalizeTags(seed.tags ?? ''),
    summary: seed.summary ?? '',
    progress: seed.progress ?? 0,
    lastreadtime: seed.lastreadtime ?? 0,
    createdAt: Math.floor(Date.now() / 1000),
  })
  replaceTankMembers(deps.db, id, seed.members)
  deps.search.refreshTankoubon(id)
  return id
}

export type SeedCategory = {
  name?: string
  search?: string
  members?: string[]
  visibleToGuest?: boolean
}

/** A static (members) or dynamic (search) category; the search cache is cleared as writers do. */
export function seedCategory(deps: Pick<Deps, 'db' | 'search'>, seed: SeedCategory): string {
  const id = `SET_${tenDigits()}`
  insertCategory(deps.db, {
    id,
    name: seed.name ?? `Category ${id.slice(-4)}`,
    search: seed.search ?? '',
    visibleToGuest: seed.visibleToGuest ?? false,
    createdAt: Math.floor(Date.now() / 1000),
  })
  for (const member of seed.members ?? []) addCategoryMember(deps.db, id, member)
  deps.search.clearCache()
  return id
}
