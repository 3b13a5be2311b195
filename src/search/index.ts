// Placeholder-free minimal index: holds archive rows in memory and reports readiness.
// The search step (issue 3) replaces this with the full engine behind the same SearchIndex type.
import type { Db } from '../db/client.ts'
import type { SettingsStore } from '../domain/settings.ts'
import { listArchives, type ArchiveRow } from '../db/repos/archives.repo.ts'
import type { SearchIndex } from './types.ts'

export function createSearchIndex(db: Db, _settings: SettingsStore): SearchIndex {
  const docs = new Map<string, ArchiveRow>()
  let ready = false
  return {
    get ready() {
      return ready
    },
    async build() {
      docs.clear()
      for (const row of listArchives(db)) docs.set(row.id, row)
      ready = true
    },
    upsertArchive: (row) => void docs.set(row.id, row),
    removeArchive: (id) => void docs.delete(id),
    refreshTankoubon: () => {},
    removeTankoubon: () => {},
    clearCache: () => {},
  }
}
