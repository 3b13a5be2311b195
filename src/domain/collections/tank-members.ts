// Tankoubon edits: metadata and whole member list (only the keys sent), append, remove.
// Each write is one immediate transaction, so concurrent appends never lose a member.
import type { Deps } from '../../deps.ts'
import { findArchive, findArchives } from '../../db/repos/archives.repo.ts'
import { findTankoubon, type TankoubonRow } from '../../db/repos/tankoubons.repo.ts'
import { fail } from '../../errors.ts'
import { normalizeTags } from '../../model/tags.ts'
import { isArchiveId, isTankoubonId, parseArchiveId } from '../../model/ids.ts'
import { assertUnlocked } from './tank-record.ts'
import { cleanTankoubonName } from './tankoubons.ts'
import { commit } from '../commit.ts'
import { appendMember, patchTankoubon, removeMember } from './tank-save.ts'

export type TankoubonUpdate = {
  archives?: string[]
  /** `append`: the tags join the Tankoubon's own instead of replacing them (LANraragi's key). */
  metadata?: { name?: string; summary?: string; tags?: string; append?: boolean }
}

function validateArchiveList(deps: Pick<Deps, 'db'>, ids: string[]): string[] {
  const seen = new Set<string>()
  for (const id of ids) {
    // LANraragi words a malformed id as any id it does not have.
    if (!isArchiveId(id))
      throw fail.bad_request(`${String(id).slice(0, 64)} does not exist in the database.`)
    if (seen.has(id)) throw fail.bad_request(`${id} is listed more than once.`)
    seen.add(id)
  }
  const known = new Set(findArchives(deps.db, ids).map((a) => a.id))
  const missing = ids.find((id) => !known.has(id))
  if (missing) throw fail.bad_request(`${missing} does not exist in the database.`)
  return ids
}

/** The Tankoubon a member edit names; LANraragi's edits word an unknown one so (its reads not). */
function requireEditedTank(deps: Pick<Deps, 'db'>, rawId: string): TankoubonRow {
  const row = isTankoubonId(rawId) ? findTankoubon(deps.db, rawId) : undefined
  if (!row) throw fail.bad_request(`${rawId.slice(0, 64)} doesn't exist in the database!`)
  return row
}

function metadataPatch(
  metadata: NonNullable<TankoubonUpdate['metadata']>,
  row: TankoubonRow,
): Partial<TankoubonRow> {
  const patch: Partial<TankoubonRow> = {}
  // A blank name keeps the old one, as in LANraragi.
  if (metadata.name !== undefined && metadata.name.trim() !== '') {
    patch.name = cleanTankoubonName(metadata.name)
  }
  if (metadata.summary !== undefined) patch.summary = metadata.summary
  if (metadata.tags !== undefined)
    patch.tags = normalizeTags(metadata.append ? `${row.tags}, ${metadata.tags}` : metadata.tags)
  return patch
}

/** Applies the keys sent; returns the success message naming the Tankoubon. */
export function updateTankoubon(
  deps: Pick<Deps, 'db' | 'events' | 'locks'>,
  rawId: string,
  update: TankoubonUpdate,
): string {
  const row = requireEditedTank(deps, rawId)
  const patch = update.metadata ? metadataPatch(update.metadata, row) : {}
  // A new member list moves every global page: the cover goes back to the first member's.
  if (update.archives) patch.thumbnailPage = null
  assertUnlocked(deps, [row.id])
  const updated = commit(deps, (w) => {
    const members = update.archives && validateArchiveList(deps, update.archives)
    return patchTankoubon(w, row.id, patch, members)
  })
  return `Updated tankoubon "${updated?.name ?? row.name}"!`
}

export function appendToTankoubon(
  deps: Pick<Deps, 'db' | 'events' | 'locks'>,
  rawId: string,
  rawArchive: string,
): string {
  const row = requireEditedTank(deps, rawId)
  const archiveId = parseArchiveId(rawArchive)
  assertUnlocked(deps, [row.id])
  const archive = commit(deps, (w) => {
    const archive = findArchive(deps.db, archiveId)
    if (!archive) throw fail.bad_request(`${archiveId} does not exist in the database.`)
    appendMember(w, row.id, archiveId)
    return archive
  })
  // An archive already in it stays where it is; LANraragi answers as for a first add.
  return `Added "${archive.title}" to tankoubon "${row.name}"!`
}

/**
 * Removing works for a member whose archive has vanished. A non-member is a 200 no-op answered
 * like a removal, as in LANraragi, unless the archive does not exist at all (400).
 */
export function removeFromTankoubon(
  deps: Pick<Deps, 'db' | 'events' | 'locks'>,
  rawId: string,
  rawArchive: string,
): string {
  const row = requireEditedTank(deps, rawId)
  const archiveId = parseArchiveId(rawArchive)
  assertUnlocked(deps, [row.id])
  // The member's pages leave the global page numbers: the cover goes back to the default.
  const removed = commit(deps, (w) => removeMember(w, row.id, archiveId, { thumbnailPage: null }))
  const title = findArchive(deps.db, archiveId)?.title
  if (!removed && title === undefined) {
    throw fail.bad_request(`${archiveId} does not exist in the database.`)
  }
  return title === undefined
    ? `Removed ${archiveId} from tankoubon ${row.id}!`
    : `Removed "${title}" from tankoubon "${row.name}"!`
}
