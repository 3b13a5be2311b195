// Run Automatically: newly catalogued archives (scan, upload, download) get a `plugin_exec` job
// running every enabled metadata plugin on them. The archives of one commit are one job (a scan
// writes its new archives in batches of a few hundred): events published together are gathered
// until the current task ends, then queued at once. Nothing is queued when no metadata plugin is
// enabled.
import type { Deps } from '../../deps.ts'
import { enabledMetadataPlugins } from './exec.ts'

/** Subscribes to new archives on the server's bus; returns the unsubscribe. */
export function runPluginsOnNewArchives(deps: Pick<Deps, 'db' | 'events' | 'jobs'>): () => void {
  let pending: string[] = []
  let stopped = false
  const flush = () => {
    const ids = pending
    pending = []
    if (stopped || enabledMetadataPlugins(deps).length === 0) return
    deps.jobs.enqueue('plugin_exec', { auto: true, ids })
  }
  const unsubscribe = deps.events.subscribe('archive.saved', (event) => {
    // Only an inserted row: edits, page-list refreshes and shown-again rows are not new archives.
    if (!event.created || event.row.unlinked) return
    if (pending.length === 0) queueMicrotask(flush)
    pending.push(event.row.id)
  })
  return () => {
    stopped = true
    unsubscribe()
  }
}
