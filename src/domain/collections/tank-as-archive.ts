// A Tankoubon read through the archive routes, for LANraragi clients that do not know Tankoubons
// (docs/collections.md). With `tankoubons_as_archives` on, the reader's archive routes take a
// TANK_ id and answer it as one long archive in global page order (tank-pages.ts); off, they keep
// the spec's 400. Page URLs name a member and its entry (`path=<archive id>/<entry>`), so they
// stay relative URLs under the Tankoubon's id, as LANraragi clients use them.
import type { Deps } from '../../deps.ts'
import { findArchive, findArchives, type ArchiveRow } from '../../db/repos/archives.repo.ts'
import {
  findTankoubon,
  listTankMembers,
  type TankoubonRow,
} from '../../db/repos/tankoubons.repo.ts'
import { fail } from '../../errors.ts'
import { isTankoubonId } from '../../model/ids.ts'
import { PROGRESS_DISABLED, clearProgress, setNewFlag } from '../archives/edit.ts'
import { getThumbnail, type ThumbnailOutcome } from '../archives/thumbnails.ts'
import { commit } from '../commit.ts'
import { guestVisibleIds } from '../search/guest-scope.ts'
import { loadHits, type TankHit } from '../search/run-search.ts'
import { loadMemberPages, resolveGlobalPage, type MemberPages } from './tank-pages.ts'
import { updateTankProgress } from './tank-progress.ts'
import { assertUnlocked } from './tank-record.ts'
import { patchTankoubon } from './tank-save.ts'
import { getTankThumbnail } from './tank-thumbnail.ts'

/** Whether an archive route answers this id as a Tankoubon: the setting is on and it is a TANK_ id. */
export function readsTankAsArchive(deps: Pick<Deps, 'settings'>, rawId: string): boolean {
  return deps.settings.get('tankoubons_as_archives') && isTankoubonId(rawId)
}

/**
 * The archive routes' statuses: 400 for an unknown Tankoubon, and for a guest-scoped caller 404 for
 * any Tankoubon outside its scope, known or not (as requireArchive does for archives).
 */
function requireTank(
  deps: Pick<Deps, 'db' | 'search' | 'searchState'>,
  id: string,
  guestScoped: boolean,
): TankoubonRow {
  const row = findTankoubon(deps.db, id)
  if (guestScoped && (!row || !guestVisibleIds(deps).has(id)))
    throw fail.not_found(`No archive with ID ${id}.`)
  if (!row) throw fail.bad_request(`No archive with ID ${id}.`)
  return row
}

function membersOf(deps: Pick<Deps, 'db'>, tank: TankoubonRow): MemberPages[] {
  return loadMemberPages(deps.db, listTankMembers(deps.db, tank.id))
}

/** One chapter per member with pages, at its first global page, named by its title. */
function memberChapters(
  deps: Pick<Deps, 'db'>,
  members: MemberPages[],
): { name: string; page: number }[] {
  const titles = new Map(
    findArchives(
      deps.db,
      members.map((m) => m.archiveId),
    ).map((r) => [r.id, r.title]),
  )
  const toc: { name: string; page: number }[] = []
  let offset = 0
  for (const member of members) {
    if (member.pages.length > 0)
      toc.push({ name: titles.get(member.archiveId) ?? member.archiveId, page: offset + 1 })
    offset += member.pages.length
  }
  return toc
}

/** The Tankoubon as a search hit (the figures grouped searches answer) and its members as toc. */
export function tankArchiveMetadata(
  deps: Pick<Deps, 'db' | 'search' | 'searchState'>,
  id: string,
  guestScoped: boolean,
): { tank: TankHit; toc: { name: string; page: number }[] } {
  const row = requireTank(deps, id, guestScoped)
  const [hit] = loadHits(deps, [row.id])
  if (hit?.kind !== 'tank') throw fail.bad_request(`No archive with ID ${id}.`)
  return { tank: hit.tank, toc: memberChapters(deps, membersOf(deps, row)) }
}

/** Root-relative page URLs in global page order, each naming its member and entry. */
export function listTankFiles(
  deps: Pick<Deps, 'db' | 'jobs' | 'search' | 'searchState'>,
  id: string,
  force: boolean,
  guestScoped: boolean,
): { job: number; pages: string[] } {
  const members = membersOf(deps, requireTank(deps, id, guestScoped)).filter(
    (m) => m.pages.length > 0,
  )
  // One extract job per member (it warms the archive, or fills the page cache for RAR and 7z);
  // clients poll one job id, the first member's, which holds the pages they show first.
  const jobs = members.map((m) => deps.jobs.enqueue('extract', { id: m.archiveId, force }))
  const pages = members.flatMap((m) =>
    m.pages.map((entry) => {
      const path = encodeURIComponent(`${m.archiveId}/${entry}`).replaceAll('%2F', '/')
      return `/api/archives/${id}/page?path=${path}`
    }),
  )
  return { job: jobs[0] ?? 0, pages }
}

/**
 * The member archive and entry a page request under the Tankoubon names: `path` as the files list
 * gave it (`<archive id>/<entry>`, the member must hold the entry) or `index`, the 0-based global
 * page.
 */
export function tankPageEntry(
  deps: Pick<Deps, 'db' | 'search' | 'searchState'>,
  id: string,
  selector: { path: string } | { index: number },
  guestScoped: boolean,
): { row: ArchiveRow; entry: string } {
  const members = membersOf(deps, requireTank(deps, id, guestScoped))
  let archiveId: string
  let entry: string
  if ('path' in selector) {
    const slash = selector.path.indexOf('/')
    archiveId = selector.path.slice(0, slash)
    entry = selector.path.slice(slash + 1)
    const member = slash > 0 ? members.find((m) => m.archiveId === archiveId) : undefined
    if (!member?.pages.includes(entry))
      throw fail.bad_request(`${selector.path.slice(0, 200)} is not a page of this tankoubon.`)
  } else {
    const resolved = resolveGlobalPage(members, selector.index + 1)
    if (!resolved) throw fail.bad_request(`Page ${selector.index + 1} is past this tankoubon.`)
    archiveId = resolved.archiveId
    entry = resolved.filename
  }
  const row = findArchive(deps.db, archiveId)
  if (!row) throw fail.bad_request(`No archive with ID ${archiveId}.`)
  return { row, entry }
}

/** The Tankoubon's cover (page 0), or the page thumbnail of a global page of a member. */
export function getTankArchiveThumbnail(
  deps: Pick<Deps, 'archives' | 'config' | 'db' | 'jobs' | 'search' | 'searchState'>,
  id: string,
  options: { page: number; noFallback: boolean },
  guestScoped: boolean,
): Promise<ThumbnailOutcome> {
  const tank = requireTank(deps, id, guestScoped)
  const scope = guestScoped ? guestVisibleIds(deps) : null
  if (options.page === 0) return getTankThumbnail(deps, tank.id, options.noFallback, scope)
  const resolved = resolveGlobalPage(membersOf(deps, tank), options.page)
  const member = resolved ? findArchive(deps.db, resolved.archiveId) : undefined
  if (!resolved || !member) throw fail.bad_request(`Page ${options.page} is past this tankoubon.`)
  return getThumbnail(deps, member, { page: resolved.localPage, noFallback: options.noFallback })
}

/**
 * Progress on a global page, as PUT /api/tankoubons/{id}/progress/{page} sets it. Page 0 (with
 * LANraragi's `force`) forgets it: the Tankoubon's and every member's, since reading a member
 * counts as reading the Tankoubon.
 */
export async function setTankArchiveProgress(
  deps: Pick<Deps, 'db' | 'events' | 'locks' | 'search' | 'searchState' | 'settings'>,
  id: string,
  page: number,
): Promise<{ id: string; page: number; lastreadtime: number }> {
  const tank = requireTank(deps, id, false)
  if (page > 0) return updateTankProgress(deps, tank.id, page, null)
  if (!deps.settings.get('server_tracks_progress')) throw fail.bad_request(PROGRESS_DISABLED)
  assertUnlocked(deps, [tank.id])
  for (const member of findArchives(deps.db, listTankMembers(deps.db, tank.id)))
    if (!member.unlinked) await clearProgress(deps, member)
  commit(deps, (w) => patchTankoubon(w, tank.id, { progress: 0, lastreadtime: 0 }))
  return { id: tank.id, page: 0, lastreadtime: 0 }
}

/** Clears the New flag of every member still flagged (a reader opened the Tankoubon). */
export async function clearTankNewFlags(
  deps: Pick<Deps, 'db' | 'events' | 'locks' | 'search' | 'searchState'>,
  id: string,
): Promise<void> {
  const tank = requireTank(deps, id, false)
  for (const member of findArchives(deps.db, listTankMembers(deps.db, tank.id)))
    if (member.isnew) await setNewFlag(deps, member, false)
}
