// Merging metadata into an archive through its writer: a metadata plugin's answer (a run, a job,
// a download) or the ComicInfo.xml read at catalogue. New tags are appended, title and summary
// replaced when given, and the archive's caps (model/metadata-limits.ts) are kept.
import type { Deps } from '../../deps.ts'
import { findArchive, type ArchiveRow } from '../../db/repos/archives.repo.ts'
import { AppError, fail } from '../../errors.ts'
import { joinTags, splitTags, tagsMissingFrom } from '../../model/tags.ts'
import { tagsOverCap, textOverCap } from '../../model/metadata-limits.ts'
import { patchArchive, type ArchivePatch } from './save.ts'
import { commit } from '../commit.ts'

/** What a metadata run changed: the tags it added (not those the archive had), title, summary. */
export type AppliedMetadata = { tags_added: string[]; title?: string; summary?: string }

/** A metadata answer that would take the archive past its caps (model/metadata-limits.ts). */
class TooMuchMetadata extends AppError {
  constructor(message: string) {
    super('bad_request', message)
  }
}

/** How long a run waits for an archive another writer holds (an edit takes milliseconds). */
const LOCK_WAIT_MS = 5_000
const LOCK_RETRY_MS = 100

async function withArchiveLock<T>(deps: Pick<Deps, 'locks'>, id: string, fn: () => T): Promise<T> {
  const until = Date.now() + LOCK_WAIT_MS
  for (;;) {
    try {
      return await deps.locks.withLock(id, fn)
    } catch (err) {
      if (!(err instanceof AppError && err.code === 'locked') || Date.now() > until) throw err
      await Bun.sleep(LOCK_RETRY_MS)
    }
  }
}

/**
 * Merges a metadata plugin's answer into the archive through its writer: new tags appended (a tag
 * it already has, in any case, is skipped), title and summary only when the plugin gave a
 * non-empty one that differs. Nothing is written when nothing changes.
 */
export function applyMetadata(
  deps: Pick<Deps, 'db' | 'events' | 'locks'>,
  id: string,
  data: Record<string, unknown>,
): Promise<AppliedMetadata> {
  return withArchiveLock(deps, id, () => {
    const row = findArchive(deps.db, id)
    if (!row || row.unlinked) throw fail.bad_request(`No archive with ID ${id}.`)
    const change = metadataPatch(row, data)
    if ('refused' in change) throw new TooMuchMetadata(change.refused)
    const { patch, applied } = change
    if (Object.keys(patch).length > 0) commit(deps, (w) => patchArchive(w, id, patch))
    return applied
  })
}

/** What a metadata answer changes on the row (see applyMetadata); an empty patch changes nothing. */
function metadataPatch(
  row: ArchiveRow,
  data: Record<string, unknown>,
): { patch: ArchivePatch; applied: AppliedMetadata } | { refused: string } {
  const current = splitTags(row.tags)
  const added = tagsMissingFrom(row.tags, typeof data.new_tags === 'string' ? data.new_tags : '')
  // The answer itself fit (domain/plugins/run.ts); with the archive's own tags it may not.
  const tooMany = added.length > 0 ? tagsOverCap([...current, ...added]) : null
  if (tooMany)
    return {
      refused: `Adding ${added.length} tags would give the archive too much metadata: ${tooMany}.`,
    }
  const title = typeof data.title === 'string' ? data.title.trim() : ''
  const summary = typeof data.summary === 'string' ? data.summary : ''
  // Every writer of an answer comes through here (ComicInfo.xml at catalogue too, not a run).
  const tooLong = textOverCap({ title, summary })
  if (tooLong) return { refused: `Too much metadata: ${tooLong}.` }
  const patch: ArchivePatch = {}
  const applied: AppliedMetadata = { tags_added: added }
  if (added.length > 0) patch.tags = joinTags([...current, ...added])
  if (title && title !== row.title) patch.title = applied.title = title
  if (summary.trim() && summary !== row.summary) patch.summary = applied.summary = summary
  return { patch, applied }
}

/**
 * applyMetadata over many archives: the ones no other writer holds in one transaction (a scan's
 * batch is one write, not hundreds), the held ones one by one once their writer is done. Archives
 * gone meanwhile are skipped.
 */
export async function applyMetadataMany(
  deps: Pick<Deps, 'db' | 'events' | 'locks'>,
  answers: Map<string, Record<string, unknown>>,
): Promise<{ applied: Map<string, AppliedMetadata>; refused: Map<string, string> }> {
  const applied = new Map<string, AppliedMetadata>()
  const refused = new Map<string, string>()
  const held: string[] = []
  commit(deps, (w) => {
    for (const [id, data] of answers) {
      if (deps.locks.isLocked(id)) {
        held.push(id)
        continue
      }
      const row = findArchive(deps.db, id)
      if (!row || row.unlinked) continue
      const change = metadataPatch(row, data)
      if ('refused' in change) {
        refused.set(id, change.refused)
        continue
      }
      if (Object.keys(change.patch).length > 0) patchArchive(w, id, change.patch)
      applied.set(id, change.applied)
    }
  })
  for (const id of held) {
    try {
      applied.set(id, await applyMetadata(deps, id, answers.get(id)!))
    } catch (err) {
      // Gone, or still held past the wait: its next edit or run will do. Too much is said.
      if (err instanceof AppError && err.message.startsWith('Adding ')) refused.set(id, err.message)
    }
  }
  return { applied, refused }
}
