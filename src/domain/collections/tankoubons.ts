// Tankoubons: listing, reading (plain and with full member metadata), create/rename, delete.
// Member edits live in tank-members.ts, progress in tank-progress.ts.
import type { Deps } from '../../deps.ts'
import { findArchives, type ArchiveRow } from '../../db/repos/archives.repo.ts'
import {
  findTankoubon,
  listTankoubonRows,
  membersByTankoubon,
  tankoubonsHolding,
} from '../../db/repos/tankoubons.repo.ts'
import { fail } from '../../errors.ts'
import { nextTimestampId, parseArchiveId, parseTankoubonId } from '../../model/ids.ts'
import { inScope, type Scope } from '../search/guest-scope.ts'
import {
  assertUnlocked,
  requireTankoubon,
  toTankoubon,
  visibleMembers,
  type Tankoubon,
} from './tank-record.ts'
import { commit } from '../commit.ts'
import { deleteTankoubonAndMembers, insertTankoubonRow, patchTankoubon } from './tank-save.ts'

export type TankoubonPage<T> = { total: number; filtered: number; result: T }
export type FullTankoubon = Tankoubon & { fullData: ArchiveRow[] }

/** Longest name the API takes, in UTF-16 units (restore refuses longer ones too). */
export const MAX_TANKOUBON_NAME_LENGTH = 255

/** One page (0-based, archives_per_page long) of `items`; page -1 = everything. */
function pageOf<T>(items: T[], page: number, size: number): T[] {
  return page < 0 ? items : items.slice(page * size, (page + 1) * size)
}

export function listTankoubons(
  deps: Pick<Deps, 'db' | 'settings'>,
  page: number,
  scope: Scope,
): TankoubonPage<Tankoubon[]> {
  const rows = listTankoubonRows(deps.db).filter((row) => inScope(scope, row.id))
  const shown = pageOf(rows, page, deps.settings.get('archives_per_page'))
  const members = membersByTankoubon(
    deps.db,
    shown.map((r) => r.id),
  )
  const visible = (ids: string[]) => (scope === null ? ids : ids.filter((id) => scope.has(id)))
  // filtered = total: the list has no filter, LANraragi reports the full count in both.
  return {
    total: rows.length,
    filtered: rows.length,
    result: shown.map((row) => toTankoubon(row, visible(members.get(row.id) ?? []))),
  }
}

export function getTankoubon(deps: Pick<Deps, 'db'>, rawId: string, scope: Scope): Tankoubon {
  const row = requireTankoubon(deps, rawId, scope)
  return toTankoubon(row, visibleMembers(deps, row.id, scope))
}

/** Members of one page with their metadata; a vanished or unlinked member is silently omitted. */
export function getFullTankoubon(
  deps: Pick<Deps, 'db' | 'settings'>,
  rawId: string,
  page: number,
  scope: Scope,
): TankoubonPage<FullTankoubon> {
  const row = requireTankoubon(deps, rawId, scope)
  const members = visibleMembers(deps, row.id, scope)
  const shown = pageOf(members, page, deps.settings.get('archives_per_page'))
  const byId = new Map(findArchives(deps.db, shown).map((a) => [a.id, a]))
  const fullData = shown.flatMap((id) => {
    const archive = byId.get(id)
    return archive && !archive.unlinked ? [archive] : []
  })
  return {
    total: members.length,
    filtered: shown.length,
    result: { ...toTankoubon(row, shown), fullData },
  }
}

/** A trimmed, non-empty name of bounded length, or a 400. */
export function cleanTankoubonName(name: string | undefined): string {
  const clean = (name ?? '').trim()
  if (clean === '') throw fail.bad_request('Tankoubon name not specified.')
  if (clean.length > MAX_TANKOUBON_NAME_LENGTH) {
    throw fail.bad_request(`Tankoubon name is longer than ${MAX_TANKOUBON_NAME_LENGTH} characters.`)
  }
  return clean
}

/** Creates a Tankoubon, or renames `tankId` when given. Returns the id. */
export function createOrRenameTankoubon(
  deps: Pick<Deps, 'db' | 'events' | 'locks'>,
  input: { name?: string; tankId?: string },
): string {
  const name = cleanTankoubonName(input.name)
  if (input.tankId) {
    const row = requireTankoubon(deps, input.tankId)
    assertUnlocked(deps, [row.id])
    commit(deps, (w) => patchTankoubon(w, row.id, { name }))
    return row.id
  }
  // One immediate transaction: concurrent creations cannot pick the same TANK_ id.
  return commit(deps, (w) => {
    const id = nextTimestampId(
      'TANK_',
      (candidate) => findTankoubon(deps.db, candidate) !== undefined,
    )
    insertTankoubonRow(w, { id, name, createdAt: Math.floor(Date.now() / 1000) })
    return id
  })
}

/** Deletes the Tankoubon and its category memberships; the member archives are kept. */
export function deleteTankoubon(deps: Pick<Deps, 'db' | 'events' | 'locks'>, rawId: string): void {
  const id = parseTankoubonId(rawId)
  assertUnlocked(deps, [id])
  const deleted = commit(deps, (w) => deleteTankoubonAndMembers(w, id))
  if (!deleted) throw fail.bad_request('The given tankoubon does not exist.')
}

/** Ids of the Tankoubons holding an archive (guests: only those they may see). */
export function tankoubonsOfArchive(deps: Pick<Deps, 'db'>, rawId: string, scope: Scope): string[] {
  const id = parseArchiveId(rawId)
  if (!inScope(scope, id)) throw fail.not_found('No archive with this ID.')
  return tankoubonsHolding(deps.db, id).filter((tankId) => inScope(scope, tankId))
}
