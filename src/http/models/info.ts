// Wire shape of GET /api/info: LANraragi's server info, converted once from the domain's ServerInfo.
import { Type } from '@sinclair/typebox'
import { t } from 'elysia'
import type { ServerInfo } from '../../domain/info.ts'

/** LANraragi's field names, in the order the answer has always had them. */
export const toWireInfo = (i: ServerInfo) => ({
  archives_per_page: i.archivesPerPage,
  authenticated_progress: i.authenticatedProgress,
  cache_last_cleared: i.cacheLastCleared,
  debug_mode: i.debugMode,
  excluded_namespaces: i.excludedNamespaces,
  has_password: i.hasPassword,
  motd: i.motd,
  name: i.name,
  nofun_mode: i.nofunMode,
  restart_required: i.restartRequired,
  server_resizes_images: i.serverResizesImages,
  server_tracks_progress: i.serverTracksProgress,
  total_archives: i.totalArchives,
  total_pages_read: i.totalPagesRead,
  version: i.version,
  version_desc: i.versionDesc,
  version_name: i.versionName,
})

/** The answer's schema (LANraragi's contract): every field is always there. */
export const InfoResponse = t.Object({
  archives_per_page: Type.Integer(),
  authenticated_progress: t.Boolean(),
  cache_last_cleared: Type.Integer(),
  debug_mode: t.Boolean(),
  excluded_namespaces: t.Array(t.String()),
  has_password: t.Boolean(),
  motd: t.String(),
  name: t.String(),
  nofun_mode: t.Boolean(),
  restart_required: t.Boolean(),
  server_resizes_images: t.Boolean(),
  server_tracks_progress: t.Boolean(),
  total_archives: Type.Integer(),
  total_pages_read: Type.Integer(),
  version: t.String(),
  version_desc: t.String(),
  version_name: t.String(),
})
