// GET /api/info: instance settings and counters in LANraragi's shape.
import type { Deps } from '../deps.ts'
import { countArchives } from '../db/repos/archives.repo.ts'
import { passwordEnabled } from './auth/password.ts'
import pkg from '../../package.json' with { type: 'json' }

/** The LANraragi API level Tankobun speaks; clients enable features from 0.9.0 on. */
export const API_VERSION = '0.9.40'

/**
 * When cached search results last went stale (Unix seconds), as LANraragi's search cache time:
 * the last index write, purge or build, or a temp folder clean; server start before any of them.
 */
function cacheLastCleared(deps: Pick<Deps, 'search' | 'settings' | 'startedAt'>): number {
  const indexChanged = deps.search.changedAt || deps.startedAt
  const tempCleaned = (deps.settings.getInternal<number>('cache_last_cleared') ?? 0) * 1000
  return Math.floor(Math.max(indexChanged, tempCleaned) / 1000)
}

/** The instance's settings and counters (answered by GET /api/info in LANraragi's names). */
export type ServerInfo = {
  archivesPerPage: number
  authenticatedProgress: boolean
  /** Unix seconds. */
  cacheLastCleared: number
  debugMode: boolean
  excludedNamespaces: string[]
  hasPassword: boolean
  motd: string
  name: string
  nofunMode: boolean
  restartRequired: boolean
  serverResizesImages: boolean
  serverTracksProgress: boolean
  totalArchives: number
  totalPagesRead: number
  version: string
  versionDesc: string
  versionName: string
}

export function serverInfo(
  deps: Pick<Deps, 'db' | 'search' | 'settings' | 'startedAt'>,
): ServerInfo {
  const s = deps.settings.all()
  return {
    archivesPerPage: s.archives_per_page,
    authenticatedProgress: s.authenticated_progress,
    cacheLastCleared: cacheLastCleared(deps),
    debugMode: s.debug_mode,
    excludedNamespaces: s.excluded_namespaces,
    hasPassword: passwordEnabled(deps.settings),
    motd: s.motd,
    name: s.name,
    nofunMode: s.nofun_mode,
    restartRequired: false,
    serverResizesImages: s.server_resizes_images,
    serverTracksProgress: s.server_tracks_progress,
    // The index keeps the count for free; counting rows in SQLite scans the table (~40 ms at 100k).
    totalArchives: deps.search.ready ? deps.search.archiveCount() : countArchives(deps.db),
    totalPagesRead: deps.settings.getInternal<number>('total_pages_read') ?? 0,
    version: API_VERSION,
    versionDesc: `Tankobun ${pkg.version}: a LANraragi-compatible library server on Bun`,
    versionName: `Tankobun ${pkg.version}`,
  }
}
