// Reading one Tankoubon with its members, and the write guard shared by every Tankoubon write.
import type { Deps } from '../../deps.ts'
import {
  findTankoubon,
  listTankMembers,
  type TankoubonRow,
} from '../../db/repos/tankoubons.repo.ts'
import { fail } from '../../errors.ts'
import { parseTankoubonId } from '../../model/ids.ts'
import { inScope, type Scope } from '../search/guest-scope.ts'

export type Tankoubon = {
  id: string
  name: string
  summary: string
  tags: string
  /** Global page last read (0 = never). */
  progress: number
  lastreadtime: number
  /** Global page of the cover; null = page 1 of the first member. */
  thumbnailPage: number | null
  /** Member archive ids in reading order (vanished members included, as stored). */
  archives: string[]
}

export function toTankoubon(row: TankoubonRow, archives: string[]): Tankoubon {
  return {
    id: row.id,
    name: row.name,
    summary: row.summary,
    tags: row.tags,
    progress: row.progress,
    lastreadtime: row.lastreadtime,
    thumbnailPage: row.thumbnailPage,
    archives,
  }
}

/** The Tankoubon or a 400 (unknown, malformed, or hidden from a guest). */
export function requireTankoubon(
  deps: Pick<Deps, 'db'>,
  rawId: string,
  scope: Scope = null,
): TankoubonRow {
  const id = parseTankoubonId(rawId)
  const row = findTankoubon(deps.db, id)
  if (!row || !inScope(scope, id)) throw fail.bad_request('The given tankoubon does not exist.')
  return row
}

/** Members as a guest may see them: all of them unless scoped. */
export function visibleMembers(deps: Pick<Deps, 'db'>, id: string, scope: Scope): string[] {
  const members = listTankMembers(deps.db, id)
  return scope === null ? members : members.filter((m) => scope.has(m))
}

/**
 * 423 when another writer holds one of the ids. Synchronous writes hold no lock across an await,
 * so checking is as strong as locking for them, and concurrent appends never 423 each other.
 */
export function assertUnlocked(deps: Pick<Deps, 'locks'>, ids: string[]): void {
  if (ids.some((id) => deps.locks.isLocked(id))) {
    throw fail.locked('Locked: this item is being modified.')
  }
}
