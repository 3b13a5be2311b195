// The one policy table: every route's operation name and access level (the spec's Access column).
// The request context looks routes up here; a route missing from the table fails closed (500),
// and test/http/policy.test.ts fails when a registered route has no entry.
import type { Access } from '../domain/auth/caller.ts'

export type { Access }
/**
 * guestScope: the handler limits what it answers to the guest-visitor scope (or answers nothing
 * archive-specific), so anonymous guest-mode visitors may call it. Guest mode keeps every other
 * route closed to them: a new route is refused to guests until it applies the scope.
 */
export type RoutePolicy = {
  op: string
  access: Access
  guestScope?: true
  body?: BodyClass
  /**
   * A 401 here carries `WWW-Authenticate: Basic`: OPDS readers send credentials only when
   * challenged. Nowhere else: a browser would pop its login box over the UI's own calls.
   */
  basicChallenge?: true
}

/**
 * How a route's request body is read. `json` (the default): small bodies, capped in size and JSON
 * nesting and parsed by the request context. `stream`: large bodies (uploads) read as a stream by
 * the handler itself, capped by the upload limit.
 */
export type BodyClass = 'json' | 'stream'

/** OPDS routes: reads, guest-scoped, and challenging readers for Basic credentials on a 401. */
const OPDS = { guestScope: true, basicChallenge: true } as const

/** Keyed by `METHOD /path/:param` exactly as Elysia registers the route. */
export const POLICY: Record<string, RoutePolicy> = {
  // info and server
  'GET /api/info': { op: 'server_info', access: 'open' },
  'GET /api/health': { op: 'health', access: 'open' },
  'GET /': { op: 'root', access: 'open' },
  'GET /ui/*': { op: 'ui_asset', access: 'open' },
  'DELETE /api/tempfolder': { op: 'cleantemp', access: 'admin' },
  'POST /api/regen_thumbs': { op: 'regen_thumbnails', access: 'admin' },
  'POST /api/shinobu/rescan': { op: 'shinobu_rescan', access: 'admin' },
  // Not in the spec's tables: LANraragi's rule (its key is needed, nofun_mode or not).
  'GET /api/shinobu': { op: 'shinobu_status', access: 'admin' },
  'POST /api/shinobu/restart': { op: 'shinobu_restart', access: 'admin' },
  'POST /api/shinobu/stop': { op: 'shinobu_stop', access: 'admin' },

  // login and session
  'POST /api/login': { op: 'login', access: 'open' },
  'GET /api/login/status': { op: 'login_status', access: 'open' },

  // jobs
  'GET /api/jobqueue/:id': { op: 'job_status', access: 'any' },
  'GET /api/minion/:id': { op: 'minion_job_status', access: 'any' },
  'GET /api/minion/:id/detail': { op: 'minion_job_detail', access: 'admin' },
  'POST /api/minion/:task/queue': { op: 'queue_minion_job', access: 'admin' },
  'GET /api/jobs': { op: 'list_jobs', access: 'any' },
  'DELETE /api/jobs/:id': { op: 'clear_job', access: 'admin' },
  'DELETE /api/jobs': { op: 'clear_jobs', access: 'admin' },

  // archives
  'GET /api/archives': { op: 'list_archives', access: 'any', guestScope: true },
  'DELETE /api/archives': { op: 'delete_archives', access: 'session' },
  'GET /api/archives/untagged': { op: 'untagged_archives', access: 'any', guestScope: true },
  'PUT /api/archives/upload': { op: 'upload', access: 'admin', body: 'stream' },
  'GET /api/archives/:id': { op: 'metadata', access: 'any', guestScope: true },
  'DELETE /api/archives/:id': { op: 'delete_archive', access: 'admin' },
  'GET /api/archives/:id/categories': {
    op: 'find_arc_categories',
    access: 'any',
    guestScope: true,
  },
  'GET /api/archives/:id/tankoubons': {
    op: 'find_arc_tankoubons',
    access: 'any',
    guestScope: true,
  },
  'GET /api/archives/:id/download': { op: 'serve_file', access: 'any', guestScope: true },
  'GET /api/archives/:id/files': { op: 'get_file_list', access: 'any', guestScope: true },

  // archive splitting: the reads are the spec's dash, not guest-scoped (they list page names)
  'GET /api/archives/:id/split-tree': { op: 'split_tree', access: 'any' },
  'GET /api/archives/:id/split-suggestion': { op: 'split_suggestion', access: 'any' },
  'POST /api/archives/:id/split-suggestion': { op: 'analyze_split', access: 'admin' },
  'POST /api/archives/:id/split/execute': { op: 'split_execute', access: 'admin' },
  'GET /api/archives/:id/split/stream': { op: 'split_stream', access: 'any' },

  'POST /api/archives/:id/files/thumbnails': { op: 'generate_page_thumbnails', access: 'admin' },
  'PUT /api/archives/:id/isnew': { op: 'add_new', access: 'admin' },
  'DELETE /api/archives/:id/isnew': { op: 'clear_new', access: 'admin' },
  'GET /api/archives/:id/metadata': { op: 'metadata', access: 'any', guestScope: true },
  'PUT /api/archives/:id/metadata': { op: 'update_metadata', access: 'admin' },
  'GET /api/archives/:id/page': { op: 'serve_page', access: 'any', guestScope: true },
  'GET /api/archives/:id/page-dimensions': {
    op: 'page_dimensions',
    access: 'any',
    guestScope: true,
  },
  'DELETE /api/archives/:id/patch': { op: 'delete_patch', access: 'admin' },
  'PUT /api/archives/:id/progress/:page': { op: 'update_progress', access: 'progress' },
  'PUT /api/archives/:id/rename': { op: 'rename_archive', access: 'admin' },
  'GET /api/archives/:id/thumbnail': { op: 'serve_thumbnail', access: 'any', guestScope: true },
  'PUT /api/archives/:id/thumbnail': { op: 'update_thumbnail', access: 'admin' },
  'PUT /api/archives/:id/toc': { op: 'add_toc', access: 'admin' },
  'DELETE /api/archives/:id/toc': { op: 'remove_toc', access: 'admin' },
  'DELETE /api/database/isnew': { op: 'clear_new_all', access: 'admin' },
  'POST /api/database/clean': { op: 'clean_database', access: 'admin' },
  'GET /api/database/backup': { op: 'backup_database', access: 'any' },
  'POST /api/database/backup': { op: 'queue_backup', access: 'admin' },
  'GET /api/database/backup/:jobid': { op: 'get_backup', access: 'any' },
  'POST /api/database/restore': { op: 'restore_database', access: 'admin', body: 'stream' },
  'POST /api/database/drop': { op: 'drop_database', access: 'session' },
  'POST /api/database/import-legacy': { op: 'import_legacy', access: 'session', body: 'stream' },
  'GET /api/database/import-legacy/count': { op: 'import_legacy_count', access: 'session' },
  'GET /api/database/import-snapshots': { op: 'list_import_snapshots', access: 'session' },
  'GET /api/database/import-snapshots/:id': { op: 'get_import_snapshot', access: 'session' },
  'DELETE /api/database/import-snapshots/:id': {
    op: 'delete_import_snapshot',
    access: 'session',
  },
  'POST /api/database/duplicates/scan': { op: 'find_duplicates', access: 'admin' },
  'GET /api/database/duplicates': { op: 'get_duplicates', access: 'any' },
  'DELETE /api/database/duplicates': { op: 'clear_duplicates', access: 'admin' },
  'POST /api/database/scripts/repair-mojibake': { op: 'repair_mojibake', access: 'admin' },
  'POST /api/database/scripts/subfolders-to-categories': {
    op: 'subfolders_to_categories',
    access: 'admin',
  },
  'POST /api/database/scripts/subfolders-to-tankoubons': {
    op: 'subfolders_to_tankoubons',
    access: 'admin',
  },

  // search
  'GET /api/search': { op: 'search', access: 'any', guestScope: true },
  'GET /api/search/ids': { op: 'search_ids', access: 'any', guestScope: true },
  'GET /api/search/archives': { op: 'search_archives', access: 'any', guestScope: true },
  'GET /api/search/random': { op: 'get_random_archives', access: 'any', guestScope: true },
  'GET /api/search/suggest': { op: 'search_suggest', access: 'any', guestScope: true },
  'GET /api/search/tags': { op: 'suggest_tags', access: 'any', guestScope: true },
  'DELETE /api/search/cache': { op: 'clear_cache', access: 'admin' },
  'POST /api/database/rebuild-index': { op: 'rebuild_index', access: 'admin' },
  'GET /api/database/stats': { op: 'get_tag_stats', access: 'any', guestScope: true },

  // auth, tokens, sessions, settings
  'POST /api/logout': { op: 'logout', access: 'open' },
  'POST /api/token/refresh': { op: 'token_refresh', access: 'open' },
  'GET /api/tokens': { op: 'list_tokens', access: 'session' },
  'POST /api/tokens': { op: 'create_token', access: 'session' },
  'PATCH /api/tokens/:id': { op: 'rename_token', access: 'session' },
  'DELETE /api/tokens/:id': { op: 'delete_token', access: 'session' },
  'GET /api/sessions': { op: 'list_sessions', access: 'session' },
  'DELETE /api/sessions/:family_id': { op: 'revoke_session', access: 'session' },
  'GET /api/settings': { op: 'get_settings', access: 'admin' },
  'PUT /api/settings': { op: 'update_settings', access: 'admin' },
  'PUT /api/settings/password': { op: 'set_password', access: 'session' },

  // plugins
  'GET /api/plugins/:type': { op: 'list_plugins', access: 'any' },
  // The spec's dash, narrowed on purpose: saved arguments are the administrator's (site logins,
  // API keys); docs/auth.md, "Deliberate differences".
  'GET /api/plugins/settings': { op: 'get_plugin_settings', access: 'admin' },
  'PUT /api/plugins/settings': { op: 'update_plugin_settings', access: 'admin' },
  'GET /api/plugins/options': { op: 'get_plugin_options', access: 'admin' },
  'PUT /api/plugins/options': { op: 'update_plugin_options', access: 'admin' },
  'DELETE /api/plugins/options': { op: 'reset_plugin_options', access: 'admin' },
  'PUT /api/plugins/priority': { op: 'set_plugin_priority', access: 'admin' },
  'POST /api/plugins/use': { op: 'use_plugin', access: 'admin' },
  'POST /api/plugins/queue': { op: 'queue_plugin_exec', access: 'admin' },
  'POST /api/plugins/upload': { op: 'upload_plugin', access: 'admin', body: 'stream' },
  'DELETE /api/plugins': { op: 'delete_plugin', access: 'admin' },
  'GET /api/plugins/export': { op: 'export_plugin', access: 'any' },
  'POST /api/plugins/export-batch': { op: 'export_plugins', access: 'admin' },

  // plugin wizard (session only: the spec's section header)
  'POST /api/plugin-wizard/analyze-login': { op: 'wizard_analyze_login', access: 'session' },
  'POST /api/plugin-wizard/lookup': { op: 'wizard_lookup', access: 'session' },
  'POST /api/plugin-wizard/generate/start': { op: 'wizard_generate_start', access: 'session' },
  'GET /api/plugin-wizard/generate/stream/:id': {
    op: 'wizard_generate_stream',
    access: 'session',
  },
  'POST /api/plugin-wizard/trial-run': { op: 'wizard_trial_run', access: 'session' },
  'POST /api/plugin-wizard/save': { op: 'wizard_save', access: 'session' },

  // categories, tankoubons, bookmarks
  'GET /api/categories': { op: 'get_category_list', access: 'any', guestScope: true },
  'GET /api/categories/bookmark_link': { op: 'get_bookmark_link', access: 'any', guestScope: true },
  'PUT /api/categories/bookmark_link/:id': { op: 'update_bookmark_link', access: 'admin' },
  'DELETE /api/categories/bookmark_link': { op: 'remove_bookmark_link', access: 'admin' },
  'PUT /api/categories': { op: 'create_category', access: 'admin' },
  'GET /api/categories/:id': { op: 'get_category', access: 'any', guestScope: true },
  'PUT /api/categories/:id': { op: 'update_category', access: 'admin' },
  'DELETE /api/categories/:id': { op: 'delete_category', access: 'admin' },
  'PUT /api/categories/:id/:archive': { op: 'add_to_category', access: 'admin' },
  'DELETE /api/categories/:id/:archive': { op: 'remove_from_category', access: 'admin' },
  'GET /api/tankoubons': { op: 'get_tankoubon_list', access: 'any', guestScope: true },
  'PUT /api/tankoubons': { op: 'create_tankoubon', access: 'admin' },
  'GET /api/tankoubons/:id': { op: 'get_tankoubon', access: 'any', guestScope: true },
  'GET /api/tankoubons/:id/full': { op: 'get_tankoubon_full', access: 'any', guestScope: true },
  'PUT /api/tankoubons/:id': { op: 'update_tankoubon', access: 'admin' },
  'DELETE /api/tankoubons/:id': { op: 'delete_tankoubon', access: 'admin' },
  'PUT /api/tankoubons/:id/:archive': { op: 'add_to_tankoubon', access: 'admin' },
  'DELETE /api/tankoubons/:id/:archive': { op: 'remove_from_tankoubon', access: 'admin' },
  'PUT /api/tankoubons/:id/progress/:page': { op: 'update_tank_progress', access: 'progress' },
  'GET /api/tankoubons/:id/thumbnail': {
    op: 'serve_tankoubon_thumbnail',
    access: 'any',
    guestScope: true,
  },
  'PUT /api/tankoubons/:id/thumbnail': { op: 'update_tankoubon_thumbnail', access: 'admin' },
  'GET /api/tankoubons/:id/bookmarks': {
    op: 'list_tank_bookmarks',
    access: 'any',
    guestScope: true,
  },
  'POST /api/tankoubons/:id/bookmarks/:page': { op: 'add_bookmark', access: 'admin' },
  'DELETE /api/tankoubons/:id/bookmarks/:page': { op: 'remove_bookmark', access: 'admin' },
  'PUT /api/tankoubons/:id/bookmarks/:page/name': { op: 'rename_bookmark', access: 'admin' },

  // language model (docs/llm.md); without a provider key the model routes answer 400
  'GET /api/llm/key-status': { op: 'llm_key_status', access: 'any' },
  'POST /api/tankoubons/:id/ai/rename-suggestions': {
    op: 'ai_rename_suggestions',
    access: 'admin',
  },
  'POST /api/tankoubons/:id/ai/rename-chapter': { op: 'ai_rename_chapter', access: 'admin' },
  'POST /api/tankoubons/ai-group-suggestions': { op: 'ai_group_suggestions', access: 'admin' },
  'POST /api/tankoubons/ai-group-suggestions/ignore': {
    op: 'ignore_group_suggestion',
    access: 'admin',
  },
  'DELETE /api/tankoubons/ai-group-suggestions/ignore': {
    op: 'unignore_group_suggestion',
    access: 'admin',
  },
  'GET /api/tankoubons/ai-group-suggestions/ignored': {
    op: 'ignored_group_suggestions',
    access: 'any',
  },
  'GET /api/archives/:id/bookmarks': {
    op: 'list_archive_bookmarks',
    access: 'any',
    guestScope: true,
  },
  'POST /api/archives/:id/bookmarks/:page': { op: 'add_bookmark', access: 'admin' },
  'DELETE /api/archives/:id/bookmarks/:page': { op: 'remove_bookmark', access: 'admin' },
  'PUT /api/archives/:id/bookmarks/:page/name': { op: 'rename_bookmark', access: 'admin' },
  'GET /api/bookmarks': { op: 'list_bookmarks', access: 'any', guestScope: true },
  'GET /api/bookmarks/hover-page-order': {
    op: 'get_hover_page_order',
    access: 'any',
    guestScope: true,
  },
  'PUT /api/bookmarks/hover-page-order': { op: 'put_hover_page_order', access: 'admin' },
  'GET /api/bookmarks/only-matching': {
    op: 'get_only_matching_bookmarks',
    access: 'any',
    guestScope: true,
  },
  'PUT /api/bookmarks/only-matching': { op: 'put_only_matching_bookmarks', access: 'admin' },

  // OPDS catalog (routes/opds.ts, docs/clients.md): read like the archive routes, guest-scoped
  'GET /api/opds': { op: 'opds_root', access: 'any', ...OPDS },
  'GET /api/opds/opensearch.xml': { op: 'opds_opensearch', access: 'any', ...OPDS },
  'GET /api/opds/categories': { op: 'opds_categories', access: 'any', ...OPDS },
  'GET /api/opds/categories/:id': { op: 'opds_category', access: 'any', ...OPDS },
  'GET /api/opds/search': { op: 'opds_search', access: 'any', ...OPDS },
  'GET /api/opds/:list': { op: 'opds_list', access: 'any', ...OPDS },
  'GET /api/opds/:list/pse': { op: 'serve_opds_page', access: 'any', ...OPDS },
  'GET /api/opds/:list/thumbnail': { op: 'opds_thumbnail', access: 'any', ...OPDS },
  'GET /api/opds/:list/download': { op: 'opds_download', access: 'any', ...OPDS },

  // download queue (routes/download-queue.ts)
  'GET /api/download_queue': { op: 'list_download_queue', access: 'any' },
  'POST /api/download_queue': { op: 'add_to_download_queue', access: 'admin' },
  'GET /api/download_queue/stream': { op: 'download_queue_stream', access: 'any' },
  'POST /api/download_queue/clear_completed': { op: 'clear_completed_downloads', access: 'admin' },
  'POST /api/download_queue/start_all': { op: 'start_all_downloads', access: 'admin' },
  'POST /api/download_queue/start_selected': { op: 'start_selected_downloads', access: 'admin' },
  'POST /api/download_queue/delete_selected': { op: 'delete_selected_downloads', access: 'admin' },
  'DELETE /api/download_queue/:id': { op: 'delete_download', access: 'admin' },
  'PATCH /api/download_queue/:id': { op: 'update_download', access: 'session' },
  'POST /api/download_queue/:id/start': { op: 'start_download', access: 'admin' },
  'POST /api/download_queue/:id/stop': { op: 'stop_download', access: 'admin' },
  'POST /api/download_queue/:id/confirm-older': { op: 'confirm_older_download', access: 'admin' },
  'POST /api/download_queue/:id/fetch-metadata': { op: 'fetch_download_metadata', access: 'admin' },
  'POST /api/download_queue/:id/overwrite': { op: 'overwrite_download', access: 'admin' },
  'POST /api/download_queue/:id/rename': { op: 'rename_download', access: 'admin' },
  'POST /api/download_url': { op: 'download_url', access: 'admin' },

  // download queue: page comparison of a filename conflict (routes/download-compare.ts)
  'POST /api/download_queue/:id/compare': { op: 'compare_download', access: 'admin' },
  'GET /api/download_queue/:id/compare/stream': { op: 'compare_download_stream', access: 'any' },
  'GET /api/download_queue/:id/compare/pages': { op: 'compare_pages', access: 'any' },
  'GET /api/download_queue/:id/compare/page': { op: 'compare_page', access: 'any' },
  'POST /api/download_queue/:id/compare/export-patch': { op: 'export_patch', access: 'admin' },
  'POST /api/download_queue/:id/compare/keep-b': { op: 'compare_keep_b', access: 'admin' },
}

/** HEAD is answered by the GET route (Bun drops the body), so it shares that route's policy. */
export function policyOf(method: string, route: string): RoutePolicy | undefined {
  return POLICY[`${method === 'HEAD' ? 'GET' : method} ${route}`]
}
