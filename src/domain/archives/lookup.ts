// Finding an archive for a request: id format, existence, and the guest-visitor scope.
import type { Deps } from '../../deps.ts'
import { findArchive, type ArchiveRow } from '../../db/repos/archives.repo.ts'
import { parseArchiveId } from '../ids.ts'
import { fail } from '../../errors.ts'
import { guestVisibleIds } from '../../search/guest-scope.ts'

/** 400 for a malformed or unknown id (the spec's status); 404 when outside the guest scope. */
export function requireArchive(
  deps: Deps,
  rawId: string | undefined,
  guestScoped = false,
): ArchiveRow {
  const id = parseArchiveId(rawId)
  const row = findArchive(deps.db, id)
  if (!row || row.unlinked) throw fail.bad_request(`No archive with ID ${id}.`)
  if (guestScoped && !guestVisibleIds(deps).has(id))
    throw fail.not_found(`No archive with ID ${id}.`)
  return row
}
