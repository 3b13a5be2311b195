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

export function serverInfo(deps: Pick<Deps, 'db' | 'search' | 'settings' | 'startedAt'>) {
  const s = deps.settings.all()
  return {
    archives_per_page: s.archives_per_page,
    authenticated_progress: s.authenticated_progress,
    cache_last_cleared: cacheLastCleared(deps),
    debug_mode: s.debug_mode,
    excluded_namespaces: s.excluded_namespaces,
    has_password: passwordEnabled(deps.settings),
    motd: s.motd,
    name: s.name,
    nofun_mode: s.nofun_mode,
    restart_required: false,
    server_resizes_images: s.server_resizes_images,
    server_tracks_progress: s.server_tracks_progress,
    // The index keeps the count for free; counting rows in SQLite scans the table (~40 ms at 100k).
    total_archives: deps.search.ready ? deps.search.archiveCount() : countArchives(deps.db),
    total_pages_read: deps.settings.getInternal<number>('total_pages_read') ?? 0,
    version: API_VERSION,
    version_desc: `Tankobun ${pkg.version}: a LANraragi-compatible library server on Bun`,
    version_name: `Tankobun ${pkg.version}`,
  }
}
