// Archive splitting routes (SPEC.md 4, Archive splitting): the tree, the suggestion (read, or
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
import { SplitRefineFailed, llmSplitRefiner } from '../../domain/llm/split-refiner.ts'
import { createLogger } from '../../log.ts'

const log = createLogger('split')

export const splitRoutes = (deps: Deps) =>
  new Elysia({ name: 'routes.split', prefix: '/api/archives' })
    .use(requestContext(deps))
    .get(
      '/:id/split-tree',
      async ({ params }) => toWireSplitTree(await splitTree(deps, params.id)),
      { params: SplitModel.params },
    )
    .get(
      '/:id/split-suggestion',
      async ({ params }) => toWireSplitSuggestion(await currentSplitSuggestion(deps, params.id)),
      { params: SplitModel.params },
    )
    .post(
      '/:id/split-suggestion',
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
      '/:id/split/execute',
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
      '/:id/split/stream',
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
