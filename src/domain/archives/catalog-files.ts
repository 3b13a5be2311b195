// The catalogue's files by path, as a rescan compares them with the content folder. Kept as
// columns rather than row objects, with a found mark per row rather than a Set of the paths
// found: at a million archives the rows, their Map and the Set held ~1.4 GB at the rescan's peak.
import type { Db } from '../../db/client.ts'
import {
  listArchiveFileStamps,
  listArchiveFileStampsUnder,
  type ArchiveFileStamp,
} from '../../db/repos/archives.repo.ts'

export type CatalogFiles = {
  /** The row catalogued at `path` (linked or not) when the rescan began. */
  get(path: string): ArchiveFileStamp | undefined
  /**
   * Marks the file at `path` as found. True when nothing needs reading: a shown row has it with
   * this size and mtime.
   */
  found(path: string, size: number, mtimeMs: number): boolean
  /** The rows whose file no `found` call named. */
  notFound(): Generator<{ id: string; path: string }>
}

/** The catalogue's files, all or (`under`) those at or under some content-relative paths. */
export function readCatalogFiles(db: Db, under?: readonly string[]): CatalogFiles {
  const rowAt = new Map<string, number>()
  const ids: string[] = []
  const paths: string[] = []
  const sizes: number[] = []
  const mtimes: number[] = []
  const unlinked: boolean[] = []
  const rows = under
    ? under.flatMap((path) => listArchiveFileStampsUnder(db, path))
    : listArchiveFileStamps(db)
  for (const row of rows) {
    if (rowAt.has(row.path)) continue // paths that overlap name a row twice
    rowAt.set(row.path, ids.length)
    ids.push(row.id)
    paths.push(row.path)
    sizes.push(row.size)
    mtimes.push(row.mtimeMs)
    unlinked.push(row.unlinked)
  }
  const wasFound = new Uint8Array(ids.length)
  const stampOf = (i: number): ArchiveFileStamp => ({
    id: ids[i]!,
    path: paths[i]!,
    size: sizes[i]!,
    mtimeMs: mtimes[i]!,
    unlinked: unlinked[i]!,
  })
  return {
    get(path) {
      const i = rowAt.get(path)
      return i === undefined ? undefined : stampOf(i)
    },
    found(path, size, mtimeMs) {
      const i = rowAt.get(path)
      if (i === undefined) return false
      wasFound[i] = 1
      return !unlinked[i] && sizes[i] === size && mtimes[i] === mtimeMs
    },
    *notFound() {
      for (let i = 0; i < ids.length; i++) if (!wasFound[i]) yield { id: ids[i]!, path: paths[i]! }
    },
  }
}
