// Everything a route, job or domain function may use, built once by main.ts (or a test).
import type { Config } from './config.ts'
import type { Db } from './db/client.ts'
import type { SettingsStore } from './domain/settings.ts'
import type { JobQueue } from './jobs/queue.ts'
import type { SearchIndex } from './search/types.ts'
import type { ArchiveReader, Thumbnailer } from './archive/types.ts'
import type { Locks } from './domain/locks.ts'
import type { SessionKeys } from './domain/auth/sessions.ts'
import type { Catalog } from './domain/archives/catalog.ts'

export type Deps = {
  config: Config
  db: Db
  settings: SettingsStore
  jobs: JobQueue
  search: SearchIndex
  reader: ArchiveReader
  thumbnailer: Thumbnailer
  locks: Locks
  sessionKeys: SessionKeys
  /** Content-folder sync (scan, watcher); set by boot once jobs are registered. */
  catalog: Catalog
  /** Server start, for /api/info and cache bookkeeping. */
  startedAt: number
}
