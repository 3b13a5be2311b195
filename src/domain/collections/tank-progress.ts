// Reading progress of a Tankoubon: a global page, stored on the Tankoubon and, resolved to
// (member, local page), on the member archive through the archive's own progress write.
import type { Deps } from '../../deps.ts'
import { findArchive } from '../../db/repos/archives.repo.ts'
import { listTankMembers } from '../../db/repos/tankoubons.repo.ts'
import { fail } from '../../errors.ts'
import { PROGRESS_DISABLED, setProgress } from '../archives/edit.ts'
import type { Scope } from '../search/guest-scope.ts'
import { loadMemberPages, resolveGlobalPage, totalPages, type ResolvedPage } from './tank-pages.ts'
import { assertUnlocked, requireTankoubon } from './tank-record.ts'
import { commit } from '../commit.ts'
import { patchTankoubon } from './tank-save.ts'

/** Resolves a global page of a Tankoubon, or answers 400 when it is out of range. */
export function resolveTankPage(
  deps: Pick<Deps, 'db'>,
  rawId: string,
  page: number,
  scope: Scope = null,
): ResolvedPage {
  const row = requireTankoubon(deps, rawId, scope)
  const members = loadMemberPages(deps.db, listTankMembers(deps.db, row.id))
  const resolved = resolveGlobalPage(members, page)
  if (!resolved) {
    const total = totalPages(members)
    throw fail.bad_request(`Page ${page} is out of range for this tankoubon (${total} pages).`)
  }
  return resolved
}

export async function updateTankProgress(
  deps: Pick<Deps, 'db' | 'events' | 'locks' | 'settings'>,
  rawId: string,
  page: number,
  scope: Scope,
): Promise<{ id: string; page: number; lastreadtime: number }> {
  if (!deps.settings.get('server_tracks_progress')) {
    throw fail.bad_request(PROGRESS_DISABLED)
  }
  const resolved = resolveTankPage(deps, rawId, page, scope)
  const id = rawId
  assertUnlocked(deps, [id])
  const member = findArchive(deps.db, resolved.archiveId)
  if (!member) throw fail.bad_request(`No archive with ID ${resolved.archiveId}.`)
  // The member first: a locked member answers 423 before the Tankoubon changes.
  const updated = await setProgress(deps, member, resolved.localPage)
  const { lastreadtime } = updated
  commit(deps, (w) => patchTankoubon(w, id, { progress: page, lastreadtime }))
  return { id, page, lastreadtime }
}
