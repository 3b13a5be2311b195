// The search index's loader: reads the documents it is built from out of the database, so the
// engine in src/search/ never touches tables. Boot hands it to createSearchIndex.
import type { Db } from '../../db/client.ts'
import { listIndexArchives } from '../../db/repos/archives.repo.ts'
import { findTankoubonsWithMembers } from '../../db/repos/tankoubons.repo.ts'
import type { IndexSource } from '../../search/types.ts'

export function createIndexSource(db: Db): IndexSource {
  return {
    listArchives: () => listIndexArchives(db),
    listTankoubons: (ids) =>
      findTankoubonsWithMembers(db, ids).map(({ row, members }) => ({
        id: row.id,
        name: row.name,
        tags: row.tags,
        progress: row.progress,
        lastreadtime: row.lastreadtime,
        members,
      })),
  }
}
