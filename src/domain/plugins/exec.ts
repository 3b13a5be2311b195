// Running plugins as background jobs (`plugin_exec`): one plugin as asked (POST /api/plugins/queue),
// or every enabled metadata plugin on a newly catalogued archive. Unlike the run now, a metadata
// result is applied to the archive (domain/archives/apply-metadata.ts).
// Snake_case kept: `new_tags` is the metadata plugin API's answer; `logs_dropped` is the
// plugin_exec job's result (stored job JSON, JobStatus `result`).
import type { Deps } from '../../deps.ts'
import { findArchive, type ArchiveRow } from '../../db/repos/archives.repo.ts'
import { listEnabledPluginNamespaces } from '../../db/repos/plugins.repo.ts'
import { fail } from '../../errors.ts'
import {
  applyMetadata,
  applyMetadataMany,
  type AppliedMetadata,
} from '../archives/apply-metadata.ts'
import { requireArchive } from '../archives/lookup.ts'
import { logField, runPlugin, runPluginBatch, type PluginRunDeps } from './run.ts'
import type { RunLogLine } from './run-log.ts'
import { requirePlugin } from './settings.ts'

/**
 * One plugin as asked, or (`auto`) the enabled metadata plugins over newly catalogued archives (a
 * scan's write batch is one job). `{auto, id}` is the one-archive form an earlier version queued;
 * `resumed`: queued again at start after a crash cut it (once only).
 */
export type PluginExecArgs =
  | { plugin: string; id?: string; arg?: string }
  | { auto: true; ids: string[]; resumed?: true }
  | { auto: true; id: string }

/** One plugin as the queue endpoint asked: its failure fails the job with the plugin's message. */
async function execOne(
  deps: PluginRunDeps & Pick<Deps, 'locks'>,
  args: { plugin: string; id?: string; arg?: string },
) {
  const plugin = await requirePlugin(deps, args.plugin)
  const archive = args.id || plugin.type === 'metadata' ? requireArchive(deps, args.id) : undefined
  const answer = await runPlugin(deps, plugin, archive, args.arg ?? null)
  // `type`, `success` and `data` as LANraragi's run_plugin job reports them (its clients read them).
  const base = {
    plugin: plugin.namespace,
    type: answer.type,
    success: 1,
    data: answer.data,
    ...logField(answer.log),
  }
  if (plugin.type !== 'metadata' || !archive) return base
  return { ...base, id: archive.id, applied: await applyMetadata(deps, archive.id, answer.data) }
}

/** Metadata plugins with Run Automatically on, by priority. */
export function enabledMetadataPlugins(deps: Pick<Deps, 'db'>): string[] {
  return listEnabledPluginNamespaces(deps.db, 'metadata')
}

/**
 * Answers written per transaction as a batch's results arrive. A write with its index updates
 * costs ~0.3 ms per archive on the server's thread: 20 keep each stall near 6 ms, so searches
 * stay quick while a batch is written.
 */
const APPLY_CHUNK = 20

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err))

/**
 * Every enabled metadata plugin over new archives, by priority, each plugin seeing what the
 * previous ones wrote: a plugin runs over the whole batch in one sandbox batch (one isolate, a
 * fresh context per archive), and its answers are written as they arrive, a chunk per
 * transaction. A run that fails is listed with its message and the others go on.
 */
async function execAuto(
  deps: PluginRunDeps & Pick<Deps, 'locks'>,
  ids: string[],
  progress: (fraction: number) => void,
) {
  await deps.plugins.registry.ready()
  const applied: ({ plugin: string; id: string; log?: RunLogLine[] } & AppliedMetadata)[] = []
  const failed: { plugin: string; id?: string; error: string; log?: RunLogLine[] }[] = []
  const logs = logBudget()
  const namespaces = enabledMetadataPlugins(deps)
  const total = Math.max(1, ids.length * namespaces.length)
  let done = 0
  let reported = 0
  for (const namespace of namespaces) {
    const start = done
    done += ids.length
    let plugin: Awaited<ReturnType<typeof requirePlugin>>
    try {
      plugin = await requirePlugin(deps, namespace)
    } catch (err) {
      failed.push({ plugin: namespace, error: messageOf(err) })
      continue
    }
    // Rows as the previous plugin left them; archives gone meanwhile are skipped.
    const rows = ids
      .map((id) => findArchive(deps.db, id))
      .filter((row): row is ArchiveRow => !!row && !row.unlinked)
    let ended = 0
    let answers = new Map<string, Record<string, unknown>>()
    const logOf = new Map<string, RunLogLine[]>()
    let writes = Promise.resolve()
    const flush = () => {
      if (answers.size === 0) return
      const chunk = answers
      answers = new Map()
      writes = writes.then(async () => {
        const written = await applyMetadataMany(deps, chunk)
        for (const [id, result] of written.applied)
          applied.push({ plugin: namespace, id, ...result, ...logs.take(logOf.get(id)) })
        for (const [id, error] of written.refused)
          failed.push({ plugin: namespace, id, error, ...logs.take(logOf.get(id)) })
      })
    }
    try {
      await runPluginBatch(deps, plugin, rows, (row, outcome) => {
        if (outcome.ok) {
          answers.set(row.id, outcome.answer.data)
          logOf.set(row.id, outcome.answer.log)
        } else
          failed.push({
            plugin: namespace,
            id: row.id,
            error: outcome.error,
            ...logs.take(outcome.log),
          })
        if (answers.size >= APPLY_CHUNK) flush()
        // A job.progress event per whole percent, not per archive.
        const percent = Math.floor(((start + ++ended) / total) * 100)
        if (percent > reported) progress((reported = percent) / 100)
      })
    } catch (err) {
      // The plugin could not be prepared (its file is gone, its login failed): none of it ran.
      failed.push({ plugin: namespace, error: messageOf(err) })
    }
    flush()
    await writes
  }
  return { ids, applied, failed, ...(logs.dropped > 0 ? { logs_dropped: logs.dropped } : {}) }
}

/**
 * Characters of run log one automatic job keeps over all its archives: a job result is capped
 * (MAX_RESULT_BYTES, 256 KiB), and a batch of hundreds of chatty runs must not push the
 * applied and failed lists out of it. Past it, entries carry no log and `logs_dropped` counts them.
 */
const AUTO_LOG_BUDGET_CHARS = 64 * 1024

function logBudget() {
  let left = AUTO_LOG_BUDGET_CHARS
  const budget = {
    dropped: 0,
    /** `{log}` for an entry when the run logged something and the budget allows, else `{}`. */
    take(log: RunLogLine[] | undefined): { log?: RunLogLine[] } {
      if (!log || log.length === 0) return {}
      const size = log.reduce((sum, line) => sum + line.message.length + 20, 0)
      if (size > left) {
        budget.dropped++
        return {}
      }
      left -= size
      return { log }
    },
  }
  return budget
}

export function execPluginJob(
  deps: PluginRunDeps & Pick<Deps, 'locks'>,
  args: PluginExecArgs,
  progress: (fraction: number) => void = () => {},
) {
  if (!('auto' in args)) return execOne(deps, args)
  return execAuto(deps, 'ids' in args ? args.ids : [args.id], progress)
}

/**
 * POST /api/plugins/queue: checks the plugin and archive now (a bad one is a 400, not a failed
 * job) and queues the run; higher `priority` runs first.
 */
export async function queuePluginRun(
  deps: Pick<Deps, 'db' | 'jobs' | 'plugins' | 'search' | 'searchState'>,
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
