// Run Automatically: a newly catalogued archive (scan, upload, download) gets one `plugin_exec` job
// running every enabled metadata plugin on it. Nothing is queued when no metadata plugin is enabled.
import type { Deps } from '../../deps.ts'
import { enabledMetadataPlugins } from './exec.ts'

/** Subscribes to new archives on the server's bus; returns the unsubscribe. */
export function runPluginsOnNewArchives(deps: Pick<Deps, 'db' | 'events' | 'jobs'>): () => void {
  return deps.events.subscribe('archive.saved', (event) => {
    // Only an inserted row: edits, page-list refreshes and shown-again rows are not new archives.
    if (!event.created || event.row.unlinked) return
    if (enabledMetadataPlugins(deps).length === 0) return
    deps.jobs.enqueue('plugin_exec', { auto: true, id: event.row.id })
  })
}
