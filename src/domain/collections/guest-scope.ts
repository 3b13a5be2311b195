// What an anonymous visitor may see in guest mode: members of static categories flagged
// visible_to_guest. A listed Tankoubon brings its members along; a Tankoubon holding a visible
// archive is visible too (showing only its visible members).
import type { Db } from '../../db/client.ts'
import { listCategoryRows, membersByCategory } from '../../db/repos/categories.repo.ts'
import { membersByTankoubon, tankoubonsHoldingAny } from '../../db/repos/tankoubons.repo.ts'
import { isTankoubonId } from '../ids.ts'

/** null = no restriction (a logged-in caller, or guest mode not in play). */
export type Scope = ReadonlySet<string> | null

export const inScope = (scope: Scope, id: string): boolean => scope === null || scope.has(id)

export function scopeFor(db: Db, guestScoped: boolean): Scope {
  return guestScoped ? guestVisibleIds(db) : null
}

/**
 * Archive and Tankoubon ids visible to guests through static categories. Dynamic categories
 * flagged visible_to_guest are evaluated by the search engine, which owns the filter syntax.
 */
export function guestVisibleIds(db: Db): Set<string> {
  const visible = listCategoryRows(db).filter((c) => c.visibleToGuest && c.search === '')
  const members = [...membersByCategory(db, visible.map((c) => c.id)).values()].flat()
  const ids = new Set(members)
  const listedTanks = members.filter(isTankoubonId)
  for (const tankMembers of membersByTankoubon(db, listedTanks).values())
    for (const id of tankMembers) ids.add(id)
  const archiveIds = [...ids].filter((id) => !isTankoubonId(id))
  for (const tankId of tankoubonsHoldingAny(db, archiveIds)) ids.add(tankId)
  return ids
}
