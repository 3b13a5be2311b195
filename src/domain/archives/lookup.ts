// Finding archives for a request: id format, existence, and the guest-visitor scope.
import type { Deps } from '../../deps.ts'
import { findArchive, listArchivesAfter, type ArchiveRow } from '../../db/repos/archives.repo.ts'
import { parseArchiveId } from '../../model/ids.ts'
import { fail } from '../../errors.ts'
import { guestVisibleIds } from '../search/guest-scope.ts'

/** An archive's stored metadata, as the domain hands it out (http shapes it for the wire). */
export type { ArchiveRow }

/** Rows per batch of the full list: ~0.5 MB of JSON, so a million archives never sit in memory. */
const LIST_BATCH = 1000

/**
 * Every linked archive a caller may see (all, or a guest's scope), batch by batch in storage
 * order. The guest scope is taken once, when the listing starts.
 */
export function* visibleArchiveBatches(
  deps: Pick<Deps, 'db' | 'search' | 'searchState'>,
  guestScoped: boolean,
): Generator<ArchiveRow[]> {
  const visible = guestScoped ? guestVisibleIds(deps) : null
  let after = 0
  for (;;) {
    const { rows, lastRowid } = listArchivesAfter(deps.db, after, LIST_BATCH)
    if (lastRowid === null) return
    yield visible ? rows.filter((row) => visible.has(row.id)) : rows
    after = lastRowid
  }
}

/** LANraragi's answer to an id it does not have (its metadata read's words). */
const UNKNOWN_ID = "This ID doesn't exist on the server."

/**
 * 400 for a malformed or unknown id (the spec's status). A guest-scoped caller gets 404 for any
 * well-formed id it may not read, known or not: a 400 for unknown ids only would tell it which
 * ids exist outside its scope.
 */
export function requireArchive(
  deps: Pick<Deps, 'db' | 'search' | 'searchState'>,
  rawId: string | undefined,
  guestScoped = false,
): ArchiveRow {
  const id = parseArchiveId(rawId)
  const row = findArchive(deps.db, id)
  const missing = !row || row.unlinked
  if (guestScoped && (missing || !guestVisibleIds(deps).has(id))) throw fail.not_found(UNKNOWN_ID)
  if (missing) throw fail.bad_request(UNKNOWN_ID)
  return row
}
