// The cover of a Tankoubon: the thumbnail of one member page, chosen by global page (stored as
// thumbnail_page), by default page 1 of the first member that has pages.
import type { Deps } from '../../deps.ts'
import type { ThumbnailDeps } from '../archives/thumbnails.ts'
import { findArchive } from '../../db/repos/archives.repo.ts'
import { listTankMembers } from '../../db/repos/tankoubons.repo.ts'
import { fail } from '../../errors.ts'
import {
  findThumbnailFile,
  getThumbnail,
  makeThumbnail,
  type ThumbnailOutcome,
} from '../archives/thumbnails.ts'
import type { Scope } from '../search/guest-scope.ts'
import { loadMemberPages, resolveGlobalPage } from './tank-pages.ts'
import { resolveTankPage } from './tank-progress.ts'
import { requireTankoubon } from './tank-record.ts'
import { commit } from '../commit.ts'
import { patchTankoubon } from './tank-save.ts'

/** Page number in the archive's thumbnails: 0 = its cover, when the cover is that page. */
function thumbnailNumber(coverPage: number, localPage: number): number {
  return localPage === coverPage ? 0 : localPage
}

export async function getTankThumbnail(
  deps: Pick<Deps, 'archives' | 'config' | 'db' | 'jobs'>,
  rawId: string,
  noFallback: boolean,
  scope: Scope,
): Promise<ThumbnailOutcome> {
  const row = requireTankoubon(deps, rawId, scope)
  const members = loadMemberPages(deps.db, listTankMembers(deps.db, row.id))
  // A stored page past the end (members shrank) falls back to the default cover.
  const source =
    (row.thumbnailPage !== null ? resolveGlobalPage(members, row.thumbnailPage) : undefined) ??
    resolveGlobalPage(members, 1)
  const archive = source ? findArchive(deps.db, source.archiveId) : undefined
  if (!source || !archive) {
    if (noFallback)
      throw fail.bad_request('This tankoubon has no archive to take a thumbnail from.')
    return { kind: 'placeholder' }
  }
  const page = thumbnailNumber(archive.coverPage, source.localPage)
  return getThumbnail(deps, archive, { ...(page > 0 ? { page } : {}), noFallback })
}

/** Takes the cover from global page `page` (made now if missing); returns the cover's URL. */
export function setTankThumbnail(
  deps: ThumbnailDeps & Pick<Deps, 'locks'>,
  rawId: string,
  page: number,
): Promise<string> {
  const source = resolveTankPage(deps, rawId, page)
  const id = rawId
  return deps.locks.withLock(id, async () => {
    const archive = findArchive(deps.db, source.archiveId)
    if (!archive) throw fail.bad_request(`No archive with ID ${source.archiveId}.`)
    const number = thumbnailNumber(archive.coverPage, source.localPage)
    if (!findThumbnailFile(deps, archive.id, number)) await makeThumbnail(deps, archive, number)
    commit(deps, (w) => patchTankoubon(w, id, { thumbnailPage: page }))
    return `/api/tankoubons/${id}/thumbnail`
  })
}
