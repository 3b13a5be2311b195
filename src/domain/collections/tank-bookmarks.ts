// Bookmarks of a Tankoubon in its global page numbering. The bookmarks themselves live on the
// member archives; a missing or unscanned member (or a bookmark past its pages) contributes none.
import type { Deps } from '../../deps.ts'
import { bookmarksByArchive } from '../../db/repos/bookmarks.repo.ts'
import { toBookmarkView, type BookmarkView } from './bookmarks.ts'
import { loadMemberPages } from './tank-pages.ts'
import { listTankMembers } from '../../db/repos/tankoubons.repo.ts'
import { inScope, type Scope } from '../search/guest-scope.ts'
import { requireTankoubon } from './tank-record.ts'

export type TankBookmarkView = BookmarkView & { archiveId: string; localPage: number }

export function tankBookmarks(
  deps: Pick<Deps, 'db'>,
  rawId: string,
  scope: Scope,
): TankBookmarkView[] {
  const row = requireTankoubon(deps, rawId, scope)
  // Numbering always counts every member, so a guest sees the same global pages as anyone.
  const members = loadMemberPages(deps.db, listTankMembers(deps.db, row.id))
  const byArchive = bookmarksByArchive(
    deps.db,
    members.filter((m) => inScope(scope, m.archiveId)).map((m) => m.archiveId),
  )
  const out: TankBookmarkView[] = []
  let offset = 0
  for (const member of members) {
    for (const bookmark of byArchive.get(member.archiveId) ?? []) {
      if (bookmark.page > member.pages.length) continue
      const view = toBookmarkView(bookmark, member.pages)
      const page = offset + bookmark.page
      out.push({ ...view, page, archiveId: member.archiveId, localPage: bookmark.page })
    }
    offset += member.pages.length
  }
  return out
}
