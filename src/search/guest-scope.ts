// Archive and Tankoubon ids an anonymous guest-mode visitor may see: members of categories
// flagged visible_to_guest (a visible Tankoubon brings its member archives along).
import { eq, inArray } from 'drizzle-orm'
import type { Deps } from '../deps.ts'
import { categories, categoryMembers, tankoubonMembers } from '../db/schema/collections.ts'

export function guestVisibleIds(deps: Pick<Deps, 'db'>): Set<string> {
  const members = deps.db
    .select({ id: categoryMembers.memberId })
    .from(categoryMembers)
    .innerJoin(categories, eq(categories.id, categoryMembers.categoryId))
    .where(eq(categories.visibleToGuest, true))
    .all()
  const visible = new Set(members.map((m) => m.id))
  const tanks = [...visible].filter((id) => id.startsWith('TANK_'))
  if (tanks.length > 0) {
    for (const m of deps.db
      .select({ id: tankoubonMembers.archiveId })
      .from(tankoubonMembers)
      .where(inArray(tankoubonMembers.tankoubonId, tanks))
      .all())
      visible.add(m.id)
  }
  return visible
}
