// `plugin_exec`: runs a plugin in the background and applies a metadata result to its archive (one
// plugin queued through the API, or the enabled metadata plugins on a newly catalogued archive).
import type { Deps } from '../../deps.ts'
import { defineJob } from '../define-job.ts'
import { execPluginJob, type PluginExecArgs } from '../../domain/plugins/exec.ts'

export const pluginExecJob = (deps: Deps) =>
  defineJob<PluginExecArgs>({
    // The sandbox is one process on a small server; plugins wait for each other.
    concurrency: 1,
    // The same run asked for again while the first still waits is that run.
    uniqueKey: (args) =>
      'auto' in args
        ? `plugin_exec:auto:${args.id}`
        : `plugin_exec:${JSON.stringify([args.plugin, args.id ?? null, args.arg ?? null])}`,
    async run(ctx, args) {
      const result = await execPluginJob(deps, args)
      ctx.progress(1)
      return result
    },
  })
