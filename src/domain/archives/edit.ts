// Metadata writes of one archive: title/tags/summary, the New flag, toc entries, reading progress.
// Each write holds the archive's lock (423 for a concurrent writer) and goes through save.ts.
import type { Deps } from '../../deps.ts'
import type { ArchiveRow } from '../../db/repos/archives.repo.ts'
import { fail } from '../../errors.ts'
import { normalizeTags, splitTags } from '../../model/tags.ts'
import { rawTagsOverCap, tagsOverCap, textOverCap } from '../../model/metadata-limits.ts'
import { commit } from '../commit.ts'
import { clearNewFlags, patchArchive, type ArchivePatch } from './save.ts'
import { editedTitle, storedText } from './metadata-text.ts'

function write(deps: Pick<Deps, 'db' | 'events'>, id: string, patch: ArchivePatch): ArchiveRow {
  const row = commit(deps, (w) => patchArchive(w, id, patch))
  if (!row) throw fail.bad_request(`No archive with ID ${id}.`)
  return row
}

export function updateMetadata(
  deps: Pick<Deps, 'db' | 'events' | 'locks'>,
  row: ArchiveRow,
  fields: { title?: string; tags?: string; summary?: string },
): Promise<ArchiveRow> {
  return deps.locks.withLock(row.id, () => {
    const patch: ArchivePatch = {}
    if (fields.title !== undefined) {
      const title = editedTitle(fields.title)
      if (!title) throw fail.bad_request('Title cannot be empty.')
      patch.title = title
    }
    if (fields.tags !== undefined) {
      const tooMany = rawTagsOverCap(fields.tags) ?? tagsOverCap(splitTags(fields.tags))
      if (tooMany) throw fail.bad_request(`Too much metadata: ${tooMany}.`)
      patch.tags = normalizeTags(fields.tags)
    }
    if (fields.summary !== undefined) patch.summary = storedText(fields.summary)
    const tooLong = textOverCap(patch)
    if (tooLong) throw fail.bad_request(`Too much metadata: ${tooLong}.`)
    if (Object.keys(patch).length === 0)
      throw fail.bad_request('No metadata parameters (Please supply title, tags or summary)')
    return write(deps, row.id, patch)
  })
}

export function setNewFlag(
  deps: Pick<Deps, 'db' | 'events' | 'locks'>,
  row: ArchiveRow,
  isnew: boolean,
): Promise<ArchiveRow> {
  return deps.locks.withLock(row.id, () => write(deps, row.id, { isnew }))
}

/** Answers how many shown archives lost the flag (hidden rows lose it too, uncounted). */
export function clearAllNewFlags(deps: Pick<Deps, 'db' | 'events'>): number {
  return commit(deps, (w) => clearNewFlags(w)).filter((row) => !row.unlinked).length
}

/** Longest chapter title, in characters (code points): a title is a line in a reader's menu. */
export const MAX_TOC_TITLE_CHARS = 256

export function addTocEntry(
  deps: Pick<Deps, 'db' | 'events' | 'locks'>,
  row: ArchiveRow,
  page: number,
  title: string,
): Promise<ArchiveRow> {
  if ([...title].length > MAX_TOC_TITLE_CHARS)
    throw fail.bad_request(`Chapter title longer than ${MAX_TOC_TITLE_CHARS} characters.`)
  return deps.locks.withLock(row.id, () => {
    if (page > row.pagecount) throw fail.bad_request(`Page ${page} does not exist in this archive.`)
    const toc = JSON.parse(row.toc) as Record<string, string>
    toc[String(page)] = title
    return write(deps, row.id, { toc: JSON.stringify(toc) })
  })
}

/** Idempotent like LANraragi: removing a page that has no entry succeeds and changes nothing. */
export function removeTocEntry(
  deps: Pick<Deps, 'db' | 'events' | 'locks'>,
  row: ArchiveRow,
  page: number,
): Promise<ArchiveRow> {
  return deps.locks.withLock(row.id, () => {
    const toc = JSON.parse(row.toc) as Record<string, string>
    if (!(String(page) in toc)) return row
    delete toc[String(page)]
    return write(deps, row.id, { toc: JSON.stringify(toc) })
  })
}

/** LANraragi's refusals of a progress update, word for word (its API documentation lists them). */
export const PROGRESS_DISABLED = 'Server-side Progress Tracking is disabled on this instance.'
/** Any page it will not store: not a number, below 1 (without force) or past the page count. */
export const INVALID_PROGRESS = 'Invalid progress value.'

/** Forgets where the archive was read to: progress and lastreadtime back to 0 (never read). */
export function clearProgress(
  deps: Pick<Deps, 'db' | 'events' | 'locks' | 'settings'>,
  row: ArchiveRow,
): Promise<ArchiveRow> {
  if (!deps.settings.get('server_tracks_progress')) throw fail.bad_request(PROGRESS_DISABLED)
  return deps.locks.withLock(row.id, () => write(deps, row.id, { progress: 0, lastreadtime: 0 }))
}

/** Sets progress and lastreadtime (server time); counts the page towards total_pages_read. */
export function setProgress(
  deps: Pick<Deps, 'db' | 'events' | 'locks' | 'settings'>,
  row: ArchiveRow,
  page: number,
): Promise<ArchiveRow> {
  if (!deps.settings.get('server_tracks_progress')) throw fail.bad_request(PROGRESS_DISABLED)
  if (page > row.pagecount) throw fail.bad_request(INVALID_PROGRESS)
  return deps.locks.withLock(row.id, () => {
    const updated = write(deps, row.id, {
      progress: page,
      lastreadtime: Math.floor(Date.now() / 1000),
    })
    deps.settings.setInternal(
      'total_pages_read',
      (deps.settings.getInternal<number>('total_pages_read') ?? 0) + 1,
    )
    return updated
  })
}
