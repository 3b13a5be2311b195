// Running plugins as background jobs (`plugin_exec`): one plugin as asked (POST /api/plugins/queue),
// or every enabled metadata plugin on a newly catalogued archive. Unlike the run now, a metadata
// result is applied to the archive: its tags merged in, its title and summary when it gave them.
import type { Deps } from '../../deps.ts'
import { findArchive } from '../../db/repos/archives.repo.ts'
import { listEnabledPluginNamespaces } from '../../db/repos/plugins.repo.ts'
import { AppError, fail } from '../../errors.ts'
import { joinTags, splitTags } from '../../model/tags.ts'
import { requireArchive } from '../archives/lookup.ts'
import { patchArchive, type ArchivePatch } from '../archives/save.ts'
import { commit } from '../commit.ts'
import { runPlugin } from './run.ts'
import { requirePlugin } from './settings.ts'

/** One plugin as asked, or (`auto`) the enabled metadata plugins of a new archive. */
export type PluginExecArgs =
  { plugin: string; id?: string; arg?: string } | { auto: true; id: string }

/** What a metadata run changed: the tags it added (not those the archive had), title, summary. */
export type AppliedMetadata = { tags_added: string[]; title?: string; summary?: string }

/** How long a run waits for an archive another writer holds (an edit takes milliseconds). */
const LOCK_WAIT_MS = 5_000
const LOCK_RETRY_MS = 100

async function withArchiveLock<T>(deps: Deps, id: string, fn: () => T): Promise<T> {
  const until = Date.now() + LOCK_WAIT_MS
  for (;;) {
    try {
      return await deps.locks.withLock(id, fn)
    } catch (err) {
      if (!(err instanceof AppError && err.code === 'locked') || Date.now() > until) throw err
      await Bun.sleep(LOCK_RETRY_MS)
    }
  }
}

/**
 * Merges a metadata plugin's answer into the archive through its writer: new tags appended (a tag
 * it already has, in any case, is skipped), title and summary only when the plugin gave a
 * non-empty one that differs. Nothing is written when nothing changes.
 */
export function applyMetadata(
  deps: Deps,
  id: string,
  data: Record<string, unknown>,
): Promise<AppliedMetadata> {
  return withArchiveLock(deps, id, () => {
    const row = findArchive(deps.db, id)
    if (!row || row.unlinked) throw fail.bad_request(`No archive with ID ${id}.`)
    const current = splitTags(row.tags)
    const have = new Set(current.map((tag) => tag.toLowerCase()))
    const added = splitTags(typeof data.new_tags === 'string' ? data.new_tags : '').filter(
      (tag) => !have.has(tag.toLowerCase()),
    )
    const title = typeof data.title === 'string' ? data.title.trim() : ''
    const summary = typeof data.summary === 'string' ? data.summary : ''
    const patch: ArchivePatch = {}
    const applied: AppliedMetadata = { tags_added: added }
    if (added.length > 0) patch.tags = joinTags([...current, ...added])
    if (title && title !== row.title) patch.title = applied.title = title
    if (summary.trim() && summary !== row.summary) patch.summary = applied.summary = summary
    if (Object.keys(patch).length > 0) commit(deps, (w) => patchArchive(w, id, patch))
    return applied
  })
}

/** One plugin as the queue endpoint asked: its failure fails the job with the plugin's message. */
async function execOne(deps: Deps, args: { plugin: string; id?: string; arg?: string }) {
  const plugin = await requirePlugin(deps, args.plugin)
  const archive = args.id || plugin.type === 'metadata' ? requireArchive(deps, args.id) : undefined
  const answer = await runPlugin(deps, plugin, archive, args.arg ?? null)
  const base = { plugin: plugin.namespace, type: answer.type, data: answer.data }
  if (plugin.type !== 'metadata' || !archive) return base
  return { ...base, id: archive.id, applied: await applyMetadata(deps, archive.id, answer.data) }
}

/** Metadata plugins with Run Automatically on, by priority. */
export function enabledMetadataPlugins(deps: Pick<Deps, 'db'>): string[] {
  return listEnabledPluginNamespaces(deps.db, 'metadata')
}

/**
 * Every enabled metadata plugin on one archive, by priority, each seeing what the previous ones
 * wrote. A plugin that fails is listed with its message and the others still run.
 */
async function execAuto(deps: Deps, id: string) {
  await deps.plugins.ready()
  const applied: ({ plugin: string } & AppliedMetadata)[] = []
  const failed: { plugin: string; error: string }[] = []
  for (const namespace of enabledMetadataPlugins(deps)) {
    try {
      const plugin = await requirePlugin(deps, namespace)
      const answer = await runPlugin(deps, plugin, requireArchive(deps, id), null)
      applied.push({ plugin: namespace, ...(await applyMetadata(deps, id, answer.data)) })
    } catch (err) {
      failed.push({ plugin: namespace, error: err instanceof Error ? err.message : String(err) })
    }
  }
  return { id, applied, failed }
}

export function execPluginJob(deps: Deps, args: PluginExecArgs) {
  return 'auto' in args ? execAuto(deps, args.id) : execOne(deps, args)
}

/**
 * POST /api/plugins/queue: checks the plugin and archive now (a bad one is a 400, not a failed
 * job) and queues the run; higher `priority` runs first.
 */
export async function queuePluginRun(
  deps: Deps,
  query: { plugin?: string; id?: string; arg?: string; priority?: string },
): Promise<{ job: number }> {
  const plugin = await requirePlugin(deps, query.plugin)
  const archive =
    query.id || plugin.type === 'metadata' ? requireArchive(deps, query.id) : undefined
  const raw = query.priority?.trim() ?? ''
  if (raw && !/^-?\d{1,9}$/.test(raw))
    throw fail.bad_request(`Invalid priority ${query.priority}: an integer is expected.`)
  const job = deps.jobs.enqueue(
    'plugin_exec',
    {
      plugin: plugin.namespace,
      ...(archive ? { id: archive.id } : {}),
      ...(query.arg !== undefined ? { arg: query.arg } : {}),
    },
    { priority: raw ? Number(raw) : 0 },
  )
  return { job }
}
