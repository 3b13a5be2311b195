// `plugin_exec`: runs a plugin in the background and applies a metadata result to its archive (one
// plugin queued through the API, or the enabled metadata plugins over newly catalogued archives).
import type { Deps } from '../../deps.ts'
import { defineJob } from '../define-job.ts'
import { execPluginJob, type PluginExecArgs } from '../../domain/plugins/exec.ts'
import { PluginFailure, type PluginRunDeps } from '../../domain/plugins/run.ts'
import { JobFailure } from '../job-failure.ts'

/** The same automatic batch asked for twice (ids in order) is that batch. */
const autoKey = (ids: string[]) => `plugin_exec:auto:${ids.length}:${Bun.hash(ids.join(','))}`

export const pluginExecJob = (deps: PluginRunDeps & Pick<Deps, 'locks'>) =>
  defineJob<PluginExecArgs>({
    // Four at a time. An automatic batch is one sandbox isolate with 8 archives in flight, and
    // an archive spends most of its ~40 ms waiting, not running (its isolated-vm steps queued on
    // the isolate thread, the IPC legs, its entry read behind the server's event loop): two
    // batches (16 archives in flight) capped Run Automatically near 400 archives/s with the cores
    // half idle. Four keep up with the scan (10,000 ComicInfo archives, load 5-7: 373-406 ->
    // 486-546 archives/s end to end; six or eight do no better, the scan is then the limit).
    concurrency: 4,
    // The same run asked for again while the first still waits is that run.
    uniqueKey: (args) =>
      'auto' in args
        ? autoKey('ids' in args ? args.ids : [args.id])
        : `plugin_exec:${JSON.stringify([args.plugin, args.id ?? null, args.arg ?? null])}`,
    // A batch a crash or stop cut runs again at the next start, whole (tags merge, so archives it
    // had done are unchanged); only once, so a batch that kills the server cannot loop.
    resumeInterrupted: (args) =>
      'auto' in args && !('resumed' in args)
        ? { auto: true, ids: 'ids' in args ? args.ids : [args.id], resumed: true }
        : null,
    async run(ctx, args) {
      let result: unknown
      try {
        result = await execPluginJob(deps, args, (fraction) => ctx.progress(fraction))
      } catch (err) {
        // The failed job keeps the plugin's run log in its result.
        if (err instanceof PluginFailure && !('auto' in args))
          throw new JobFailure(err.message, {
            plugin: args.plugin,
            success: 0,
            error: err.message,
            ...(err.log.length > 0 ? { log: err.log } : {}),
          })
        throw err
      }
      ctx.progress(1)
      return result
    },
  })
