// `plugin_exec`: runs a plugin in the background and applies a metadata result to its archive (one
// plugin queued through the API, or the enabled metadata plugins over newly catalogued archives).
import type { Deps } from '../../deps.ts'
import { defineJob } from '../define-job.ts'
import { execPluginJob, type PluginExecArgs } from '../../domain/plugins/exec.ts'

/** The same automatic batch asked for twice (ids in order) is that batch. */
const autoKey = (ids: string[]) => `plugin_exec:auto:${ids.length}:${Bun.hash(ids.join(','))}`

export const pluginExecJob = (deps: Deps) =>
  defineJob<PluginExecArgs>({
    // Two at a time: each automatic batch is one sandbox isolate (one thread), so a second batch
    // uses the other core while the first waits on its entry reads and writes, and overlaps the
    // first's start and tail (2,000 archives under load: 175 -> 206 archives/s end to end).
    concurrency: 2,
    // The same run asked for again while the first still waits is that run.
    uniqueKey: (args) =>
      'auto' in args
        ? autoKey('ids' in args ? args.ids : [args.id])
        : `plugin_exec:${JSON.stringify([args.plugin, args.id ?? null, args.arg ?? null])}`,
    async run(ctx, args) {
      const result = await execPluginJob(deps, args, (fraction) => ctx.progress(fraction))
      ctx.progress(1)
      return result
    },
  })
