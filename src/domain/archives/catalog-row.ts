// Turns one archive file into a catalog row: id, pages, title from the file name, date_added tag.
import type { Stats } from 'node:fs'
import type { Deps } from '../../deps.ts'
import type { ArchiveRow } from '../../db/repos/archives.repo.ts'
import type { Write } from '../commit.ts'
import { normalizeTags } from '../../model/tags.ts'
import { splitFileName, toContentPath } from './files.ts'
import { insertArchiveRow } from './save.ts'
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
