// Wire shape of archive metadata (LANraragi's field names), converted once here.
import type { ArchiveRow } from '../../domain/archives/lookup.ts'

export type WireArchive = {
  arcid: string
  title: string
  filename: string
  tags: string
  isnew: string
  extension: string
  progress: number
  pagecount: number
  lastreadtime: number
  size: number
  summary: string
  toc?: { name: string; page: number }[]
}

/** The stored toc (JSON page -> title) as the spec's ordered array. */
export function tocEntries(toc: string): { name: string; page: number }[] {
  const map = JSON.parse(toc) as Record<string, string>
  return Object.entries(map)
    .map(([page, name]) => ({ name, page: Number(page) }))
    .sort((a, b) => a.page - b.page)
}

/** isnew goes out as "true"/"false" like LANraragi, which clients compare as strings. */
export function toWireArchive(
  row: ArchiveRow,
  options: { toc?: boolean } = { toc: true },
): WireArchive {
  const wire: WireArchive = {
    arcid: row.id,
    title: row.title,
    filename: row.filename,
    tags: row.tags,
    isnew: row.isnew ? 'true' : 'false',
    extension: row.extension,
    progress: row.progress,
    pagecount: row.pagecount,
    lastreadtime: row.lastreadtime,
    size: row.size,
    summary: row.summary,
  }
  if (options.toc !== false) wire.toc = tocEntries(row.toc)
  return wire
}
