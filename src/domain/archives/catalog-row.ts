// Turns one archive file into a catalog row: id, pages, title from the file name, date_added tag;
// or brings back the row of a file placed again after its copy was lost.
import type { Stats } from 'node:fs'
import type { Deps } from '../../deps.ts'
import type { ArchiveRow } from '../../db/repos/archives.repo.ts'
import type { Write } from '../commit.ts'
import { lastTagValue, normalizeTags } from '../../model/tags.ts'
import { splitFileName, toContentPath } from './files.ts'
import { insertArchiveRow, patchArchive, type ArchivePatch } from './save.ts'
import { storedText } from './metadata-text.ts'

export type ImportOverrides = { title?: string; tags?: string; summary?: string }

export type ReadArchive = { id: string; pages: string[] }

/** Inserts a row for a file already read (id + pages), inside the caller's write. */
export function insertCatalogRow(
  deps: Pick<Deps, 'config'>,
  w: Write,
  absPath: string,
  stat: Pick<Stats, 'size' | 'mtimeMs'>,
  read: ReadArchive,
  overrides: ImportOverrides = {},
): ArchiveRow {
  const { filename, extension } = splitFileName(absPath)
  const now = Math.floor(Date.now() / 1000)
  const tags = normalizeTags([overrides.tags ?? '', `date_added:${now}`].join(','))
  return insertArchiveRow(
    w,
    {
      id: read.id,
      path: toContentPath(deps.config.contentDir, absPath),
      filename,
      extension,
      title: storedText(overrides.title?.trim() || filename),
      tags,
      summary: storedText(overrides.summary ?? ''),
      isnew: true,
      pagecount: read.pages.length,
      size: stat.size,
      mtimeMs: Math.floor(stat.mtimeMs),
      createdAt: now,
    },
    read.pages,
  )
}

/**
 * The same file placed again (an upload) for a row whose file is gone: path, name, stamps and
 * pages follow the new file, the row keeps its metadata (tags, progress, collections) and shows
 * again, as when a scan finds the file back; the sent title, tags (its date_added kept) and
 * summary replace the row's.
 */
export function relinkCatalogRow(
  deps: Pick<Deps, 'config'>,
  w: Write,
  absPath: string,
  stat: Pick<Stats, 'size' | 'mtimeMs'>,
  read: ReadArchive,
  overrides: ImportOverrides,
  existing: ArchiveRow,
): ArchiveRow | undefined {
  const patch: ArchivePatch = {
    path: toContentPath(deps.config.contentDir, absPath),
    ...splitFileName(absPath),
    size: stat.size,
    mtimeMs: Math.floor(stat.mtimeMs),
    pagecount: read.pages.length,
    progress: Math.min(existing.progress, read.pages.length),
    hasPatch: false,
    unlinked: false,
    unreadable: null,
  }
  if (overrides.title?.trim()) patch.title = storedText(overrides.title.trim())
  if (overrides.summary !== undefined) patch.summary = storedText(overrides.summary)
  if (overrides.tags !== undefined) {
    const dateAdded = lastTagValue(existing.tags, 'date_added')
    patch.tags = normalizeTags(
      [overrides.tags, dateAdded ? `date_added:${dateAdded}` : ''].join(','),
    )
  }
  return patchArchive(w, existing.id, patch, read.pages)
}
