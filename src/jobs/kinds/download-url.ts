// `download_url`: a one-off download outside the queue (POST /api/download_url).
import type { Deps } from '../../deps.ts'
import type { PluginRunDeps } from '../../domain/plugins/run.ts'
import { runDownloadUrl, type DownloadUrlArgs } from '../../domain/downloads/download-url.ts'
import { defineJob } from '../define-job.ts'

export const downloadUrlJob = (
  deps: PluginRunDeps & Pick<Deps, 'archives' | 'jobs' | 'outbound' | 'reader'>,
) =>
  defineJob<DownloadUrlArgs>({
    concurrency: 2,
    uniqueKey: (args) => `download_url:${args.url}`,
    run: (ctx, args) => runDownloadUrl(deps, ctx, args),
  })
