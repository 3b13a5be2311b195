// Wire shapes the UI reads (docs/api.md). Loose where the UI does not care.

export type ArchiveMeta = {
  arcid: string
  title: string
  tags: string
  summary?: string
  filename?: string
  extension?: string
  pagecount: number
  progress: number
  isnew: boolean | string
  lastreadtime?: number
  size?: number
  toc?: { page: number; title: string }[]
}

export type SearchAnswer = {
  data: ArchiveMeta[]
  draw?: number
  recordsFiltered: number
  recordsTotal: number
}

export type Category = {
  id: string
  name: string
  search: string
  pinned: string | number
  archives: string[]
  visible_to_guest?: string | number | boolean
}

export type Tankoubon = {
  id: string
  name: string
  summary?: string
  tags?: string
  archives: string[]
  pagecount?: number
  progress?: number
}

export type ServerInfo = {
  name: string
  motd: string
  version: string
  version_name?: string
  has_password: boolean | number | string
  archives_per_page: number | string
  nofun_mode?: boolean | number | string
  server_tracks_progress?: boolean | number | string
  total_archives?: number
  total_pages_read?: number
  [key: string]: unknown
}

export type LoginStatus = { logged_in: boolean; password_enabled: boolean }

export type Job = {
  id: number
  name?: string
  task?: string
  state: string
  progress?: number
  message?: string
  error?: string | null
  [key: string]: unknown
}

/** LANraragi sends isnew as a boolean or as the strings "true"/"false". */
export const isNew = (value: ArchiveMeta['isnew']): boolean => value === true || value === 'true'

/** Flags come as 0/1, "0"/"1", booleans or "true"/"false" depending on the route. */
export const flag = (value: unknown): boolean =>
  value === true || value === 1 || value === '1' || value === 'true'

// Reader and archive page.

/** A bookmark on one archive page; Tankoubon bookmarks add the member and its local page. */
export type Bookmark = {
  page: number
  filename: string
  name: string | null
  bookmarked_at: number
  archive_id?: string
  local_page?: number
}

/** `GET /api/tankoubons/{id}/full`: the Tankoubon with its members' metadata, in order. */
export type FullTankoubon = {
  filtered: number
  total: number
  result: Tankoubon & { full_data: ArchiveMeta[] }
}

export type PluginInfo = {
  name: string
  namespace: string
  description: string
  type: string
  oneshot_arg: string | null
  parameters: { name?: string; type: string; desc: string }[]
}

/** `POST /api/plugins/use` for a metadata plugin. */
export type MetadataProposal = { new_tags: string; title?: string; summary?: string }

export type TagSuggestion = { tag: string; weight: number }
