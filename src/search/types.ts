// The in-memory search index as the rest of the server sees it (implemented in src/search/).
import type { ArchiveRow } from '../db/repos/archives.repo.ts'

export type SearchIndex = {
  /** False until the first build finishes; search routes answer 204 meanwhile. */
  readonly ready: boolean
  /** Builds everything from the database (start, rebuild-index job). */
  build(): Promise<void>
  /** Called in the same request as every archive write, so the next search sees it. */
  upsertArchive(row: ArchiveRow): void
  removeArchive(id: string): void
  /** Re-reads one Tankoubon (name, tags, members) from the database. */
  refreshTankoubon(id: string): void
  removeTankoubon(id: string): void
  /** Drops cached results (DELETE /api/search/cache); never needed for correctness. */
  clearCache(): void
}
