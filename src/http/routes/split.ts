// Archive splitting routes (docs/maintenance.md, Splitting): the tree, the suggestion (read, or
// analysed now), execute (an archive_split job) and the progress stream.
import { Elysia } from 'elysia'
import type { Deps } from '../../deps.ts'
import { requestContext } from '../context.ts'
import { ok } from '../envelope.ts'
import { sseResponse } from '../sse.ts'
import {
  SplitModel,
  toWireSplitProgress,
  toWireSplitSuggestion,
  toWireSplitTree,
} from '../models/split.ts'
import { splitTree } from '../../domain/split/tree.ts'
import { analyzeSplit, currentSplitSuggestion } from '../../domain/split/suggest.ts'
import { startSplit } from '../../domain/split/start.ts'
import { followSplit, latestSplitJob } from '../../domain/split/follow.ts'
import { SplitRefineFailed, llmSplitRefiner } from '../../domain/split/split-refiner.ts'
import { createLogger } from '../../log.ts'
import type { PolicyRows } from '../policy.ts'

/** Access policy of this file's routes, keyed by `METHOD /path` as registered (http/policy.ts). */
export const splitPolicy = {
  // archive splitting: the reads are the spec's dash, not guest-scoped (they list page names)
  'GET /api/archives/:id/split-tree': { op: 'split_tree', access: 'any' },
  'GET /api/archives/:id/split-suggestion': { op: 'split_suggestion', access: 'any' },
  'POST /api/archives/:id/split-suggestion': { op: 'analyze_split', access: 'admin' },
  'POST /api/archives/:id/split/execute': { op: 'split_execute', access: 'admin' },
  'GET /api/archives/:id/split/stream': { op: 'split_stream', access: 'any' },
} satisfies PolicyRows

const log = createLogger('split')

export const splitRoutes = (deps: Deps) =>
  new Elysia({ name: 'routes.split' })
    .use(requestContext(deps))
    .get(
      '/api/archives/:id/split-tree',
      async ({ params }) => toWireSplitTree(await splitTree(deps, params.id)),
      { params: SplitModel.params },
    )
    .get(
      '/api/archives/:id/split-suggestion',
      async ({ params }) => toWireSplitSuggestion(await currentSplitSuggestion(deps, params.id)),
      { params: SplitModel.params },
    )
    .post(
      '/api/archives/:id/split-suggestion',
      async ({ params, request }) => {
        // With a provider configured the model regroups the folder suggestion; when it fails
        // (unreachable, timed out, an invalid plan) the folder suggestion is stored instead.
        const refine = llmSplitRefiner(deps, request.signal)
        const suggestion = await analyzeSplit(deps, params.id, refine).catch((error: unknown) => {
          if (!(error instanceof SplitRefineFailed)) throw error
          log.warn('split not refined by the language model; folders decide', {
            error: error.message,
          })
          return analyzeSplit(deps, params.id)
        })
        return ok(toWireSplitSuggestion(suggestion))
      },
      { params: SplitModel.params },
    )
    .post(
      '/api/archives/:id/split/execute',
      async ({ params, body }) => {
        const job = await startSplit(deps, params.id, {
          outputs: body?.outputs,
          deleteOriginal: body?.delete_original,
        })
        return ok({ job })
      },
      { params: SplitModel.params, body: SplitModel.executeBody },
    )
    .get(
      '/api/archives/:id/split/stream',
      ({ params, request }) => {
        // An archive never split is an Env answer, not a stream that would never end.
        latestSplitJob(deps, params.id)
        return sseResponse(
          (sink) =>
            followSplit(
              deps,
              params.id,
              (update) => {
                if (update.kind === 'progress')
                  sink.send('progress', toWireSplitProgress(update.progress))
                else if (update.kind === 'done') sink.send('done', { archives: update.archives })
                else sink.send('error', { error: update.error })
              },
              () => {
                sink.send('end', {})
                sink.close()
              },
            ),
          request.signal,
        )
      },
      { params: SplitModel.params },
    )
