// Wire shapes of the download queue and its page comparison (docs/downloads.md).
/** A download queue item (docs/downloads.md "Items and states"). */
export type DownloadItem = {
  id: string
  url: string
  plugin_namespace: string
  state: string
  job_id: number | null
  error: string | null
  title: string | null
  category: string | null
  auto_fetch_metadata?: boolean
  archive_ids: string[]
  existing_id?: string | null
  created_at?: number
  updated_at?: number
  pending_filename_conflict?: { existing_id: string | null; filename: string }
  pending_revision_confirmation?: { newer_archive_id: string }
}

/** One aligned page pair of a download comparison (side a = the download, b = the library's). */
export type ComparePair = {
  a_index: number
  b_index: number
  a_filename: string
  b_filename: string
  distance: number
  a_sharpness: number
  b_sharpness: number
  better: 'a' | 'b' | 'same'
}

export type UnmatchedPage = {
  index: number
  filename: string
  after_filename?: string
  before_filename?: string
}

export type CompareResult = {
  pairs: ComparePair[]
  a_total: number
  b_total: number
  unmatched_a: UnmatchedPage[]
  unmatched_b: UnmatchedPage[]
  recommendation: string
  reason: string
}

/** An installed plugin as GET /api/plugins/<type> lists it (the fields the UI reads). */
export type PluginSummary = {
  name: string
  namespace: string
  type: string
  url_regex?: string | null
}
