// The plugin wizard (session only): a plugin written by the language model from a request
// (generate/start, then its single-use event stream), login pages and sites read for the model
// (analyze-login, lookup), a trial run of a source in the sandbox, and saving it as a plugin.
import { Elysia } from 'elysia'
import type { Deps } from '../../deps.ts'
import { AppError } from '../../errors.ts'
import { createLogger } from '../../log.ts'
import { requestContext } from '../context.ts'
import { ok } from '../envelope.ts'
import { sseResponse } from '../sse.ts'
import { toTrialRunRequest, toWireLoginAnalysis, WizardModel } from '../models/wizard.ts'
import { analyzeLogin } from '../../domain/wizard/analyze-login.ts'
import { GenerationError, generatePlugin } from '../../domain/wizard/generate.ts'
import { lookupSite } from '../../domain/wizard/lookup.ts'
import { requireModel } from '../../domain/wizard/model.ts'
import { saveWizardPlugin } from '../../domain/wizard/save.ts'
import { trialRunPlugin } from '../../domain/wizard/trial-run.ts'
import type { PolicyRows } from '../policy.ts'

/** Access policy of this file's routes, keyed by `METHOD /path` as registered (http/policy.ts). */
export const pluginWizardPolicy = {
  // plugin wizard (session only: the spec's section header)
  'POST /api/plugin-wizard/analyze-login': { op: 'wizard_analyze_login', access: 'session' },
  'POST /api/plugin-wizard/lookup': { op: 'wizard_lookup', access: 'session' },
  'POST /api/plugin-wizard/generate/start': { op: 'wizard_generate_start', access: 'session' },
  'GET /api/plugin-wizard/generate/stream/:id': {
    op: 'wizard_generate_stream',
    access: 'session',
  },
  'POST /api/plugin-wizard/trial-run': { op: 'wizard_trial_run', access: 'session' },
  'POST /api/plugin-wizard/save': { op: 'wizard_save', access: 'session' },
} satisfies PolicyRows

const log = createLogger('http.wizard')

export const pluginWizardRoutes = (deps: Deps) =>
  new Elysia({ name: 'routes.plugin-wizard' })
    .use(requestContext(deps))
    .post(
      '/api/plugin-wizard/analyze-login',
      async ({ body, request }) =>
        ok(toWireLoginAnalysis(await analyzeLogin(deps, body, request.signal))),
      { body: WizardModel.analyzeLoginBody },
    )
    .post(
      '/api/plugin-wizard/lookup',
      async ({ body, request }) => ok(await lookupSite(deps, body, request.signal)),
      {
        body: WizardModel.lookupBody,
      },
    )
    // The body is stored as given (any JSON object, size-capped by the store): the spec's raw body.
    .post('/api/plugin-wizard/generate/start', ({ body }) => {
      requireModel(deps)
      return ok({ generation_id: deps.wizard.generations.put(body) })
    })
    .get(
      '/api/plugin-wizard/generate/stream/:id',
      ({ params, request }) => {
        // Taken before the stream opens: a second open of the same id finds nothing.
        const generation = deps.wizard.generations.take(params.id)
        return sseResponse((sink) => {
          const finish = (event: string, data: unknown) => {
            sink.send(event, data)
            sink.send('end', {})
            sink.close()
          }
          if (!generation)
            return finish('error', {
              code: 'generation_not_found',
              message: 'No generation with this id: unknown, expired or already streamed.',
            })
          const abort = new AbortController()
          void generatePlugin(
            deps,
            generation,
            {
              phase: (phase) => sink.send('status', { phase }),
              delta: (text) => sink.send('delta', { text }),
            },
            abort.signal,
          ).then(
            (done) => finish('done', done),
            (error: unknown) => {
              if (abort.signal.aborted) return
              if (error instanceof GenerationError)
                return finish('error', { code: error.code, message: error.message })
              if (!(error instanceof AppError))
                log.error('generation failed', { error: String(error) })
              const message = error instanceof AppError ? error.message : 'internal error'
              finish('error', { code: 'internal', message })
            },
          )
          // The client went away: the model's answer is no longer wanted.
          return () => abort.abort()
        }, request.signal)
      },
      { params: WizardModel.streamParams },
    )
    .post(
      '/api/plugin-wizard/trial-run',
      async ({ body }) => ok(await trialRunPlugin(deps, toTrialRunRequest(body))),
      {
        body: WizardModel.trialRunBody,
      },
    )
    .post('/api/plugin-wizard/save', async ({ body }) => ok(await saveWizardPlugin(deps, body)), {
      body: WizardModel.saveBody,
    })
