// Finding archives for a request: id format, existence, and the guest-visitor scope.
import type { Deps } from '../../deps.ts'
import { findArchive, listArchives, type ArchiveRow } from '../../db/repos/archives.repo.ts'
import { parseArchiveId } from '../../model/ids.ts'
import { fail } from '../../errors.ts'
import { guestVisibleIds } from '../search/guest-scope.ts'

/** An archive's stored metadata, as the domain hands it out (http shapes it for the wire). */
export type { ArchiveRow }

/** Every linked archive a caller may see: all of them, or a guest's scope. */
export function listVisibleArchives(deps: Deps, guestScoped: boolean): ArchiveRow[] {
  const rows = listArchives(deps.db)
  if (!guestScoped) return rows
  const visible = guestVisibleIds(deps)
  return rows.filter((row) => visible.has(row.id))
}

/**
 * 400 for a malformed or unknown id (the spec's status). A guest-scoped caller gets 404 for any
 * well-formed id it may not read, known or not: a 400 for unknown ids only would tell it which
 * ids exist outside its scope.
 */
export function requireArchive(
  deps: Deps,
  rawId: string | undefined,
  guestScoped = false,
): ArchiveRow {
  const id = parseArchiveId(rawId)
  const row = findArchive(deps.db, id)
  const missing = !row || row.unlinked
  if (guestScoped && (missing || !guestVisibleIds(deps).has(id)))
    throw fail.not_found(`No archive with ID ${id}.`)
  if (missing) throw fail.bad_request(`No archive with ID ${id}.`)
  return row
}
