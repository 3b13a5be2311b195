// Metadata of a queue item before and after it downloads: POST /{id}/fetch-metadata runs the
// metadata plugin matching the item's URL and keeps its answer as a preview for ten minutes; the
// automatic fetch after a download with auto_fetch_metadata applies that preview when it is still
// fresh, and runs the plugin on the new archive otherwise.
import type { Deps } from '../../deps.ts'
import { findArchive } from '../../db/repos/archives.repo.ts'
import { listPluginRows } from '../../db/repos/plugins.repo.ts'
import { fail } from '../../errors.ts'
import { hostMatches } from '../../net/address-guard.ts'
import type { PluginManifest } from '../../plugins/manifest.ts'
import { applyMetadata, type AppliedMetadata } from '../archives/apply-metadata.ts'
import { runPlugin, type PluginRunDeps } from '../plugins/run.ts'
import { requirePlugin } from '../plugins/settings.ts'
import { requireItem } from './queue.ts'
import { downloadRuntime, METADATA_PREVIEW_TTL_MS, type MetadataPreview } from './runtime.ts'

/**
 * The metadata plugin for a URL, by priority: the first whose url_regex matches it, else the first
 * whose hosts list the URL's host. Undefined when none does.
 */
export function matchingMetadataPlugin(deps: Pick<Deps, 'db'>, url: string): string | undefined {
  let host = ''
  try {
    host = new URL(url).hostname.toLowerCase()
  } catch {
    return undefined
  }
  const rows = listPluginRows(deps.db, 'metadata')
  const infos = rows.map((row) => ({
    namespace: row.namespace,
    info: JSON.parse(row.info) as PluginManifest,
  }))
  const byRegex = infos.find(({ info }) => {
    if (!info.url_regex) return false
    try {
      return new RegExp(info.url_regex, 'i').test(url)
    } catch {
      return false
    }
  })
  if (byRegex) return byRegex.namespace
  return infos.find(({ info }) => (info.hosts ?? []).some((p) => hostMatches(p, host)))?.namespace
}

function freshPreview(deps: Pick<Deps, 'downloads'>, itemId: string): MetadataPreview | undefined {
  const previews = downloadRuntime(deps).previews
  const kept = previews.get(itemId)
  if (kept && Date.now() - kept.fetchedAt < METADATA_PREVIEW_TTL_MS) return kept
  previews.delete(itemId)
  return undefined
}

/** POST /{id}/fetch-metadata: the preview, from the cache when it is younger than ten minutes. */
export async function fetchItemMetadata(
  deps: PluginRunDeps & Pick<Deps, 'downloads'>,
  id: string,
): Promise<MetadataPreview & { cached: boolean }> {
  const item = requireItem(deps, id)
  const kept = freshPreview(deps, id)
  if (kept) return { ...kept, cached: true }
  await deps.plugins.registry.ready()
  const namespace = matchingMetadataPlugin(deps, item.url)
  if (!namespace) throw fail.bad_request('No metadata plugin matches this URL.')
  const plugin = await requirePlugin(deps, namespace)
  const answer = await runPlugin(deps, plugin, undefined, item.url)
  const preview = { plugin: namespace, data: answer.data, fetchedAt: Date.now() }
  downloadRuntime(deps).previews.set(id, preview)
  return { ...preview, cached: false }
}

/**
 * After a download with auto_fetch_metadata: the item's fresh preview, or a run of the matching
 * plugin on the new archive (with the URL as its one-shot argument), applied to the archive.
 * Undefined when no plugin matches.
 */
export async function applyMetadataAfterDownload(
  deps: PluginRunDeps & Pick<Deps, 'downloads' | 'locks'>,
  item: { id: string; url: string },
  archiveId: string,
): Promise<(AppliedMetadata & { plugin: string }) | undefined> {
  const kept = freshPreview(deps, item.id)
  if (kept) return { plugin: kept.plugin, ...(await applyMetadata(deps, archiveId, kept.data)) }
  const namespace = matchingMetadataPlugin(deps, item.url)
  const archive = findArchive(deps.db, archiveId)
  if (!namespace || !archive) return undefined
  const answer = await runPlugin(deps, await requirePlugin(deps, namespace), archive, item.url)
  return { plugin: namespace, ...(await applyMetadata(deps, archiveId, answer.data)) }
}
