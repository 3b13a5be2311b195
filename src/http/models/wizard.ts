// Wire shapes of the plugin wizard: the bodies of trial-run, save, analyze-login and lookup, the
// stream's id, and analyze-login's answer, converted once here. generate/start takes any JSON object (the spec: the raw body, stored as given).
import { t } from 'elysia'
import type { LoginAnalysis } from '../../domain/wizard/analyze-login.ts'
import type { TrialRunRequest } from '../../domain/wizard/trial-run.ts'

const TRIAL_BODY =
  'Body must be {"source": "<plugin file>", "url"?, "archive_id"?, "args"?: {...}, "oneshot"?}.'
const SAVE_BODY = 'Body must be {"source": "<plugin file>", "filename"?: "<stem>.ts"}.'
const ANALYZE_BODY = 'Body must be {"url": "<login page>", "html"?: "<its markup>"}.'
const LOOKUP_BODY = 'Body must be {"url": "<page>"} or {"query": "<what to look up>"}.'

/** The source rides in a JSON body, which the request context caps at 1 MiB already. */
const Source = (error: string) => t.String({ minLength: 1, error })

export const WizardModel = {
  streamParams: t.Object({ id: t.String() }),
  trialRunBody: t.Object(
    {
      source: Source(TRIAL_BODY),
      url: t.Optional(t.String({ maxLength: 8192, error: TRIAL_BODY })),
      archive_id: t.Optional(t.String({ maxLength: 100, error: TRIAL_BODY })),
      args: t.Optional(t.Record(t.String(), t.Unknown(), { error: TRIAL_BODY })),
      oneshot: t.Optional(t.String({ maxLength: 8192, error: TRIAL_BODY })),
    },
    { additionalProperties: false, error: TRIAL_BODY },
  ),
  saveBody: t.Object(
    {
      source: Source(SAVE_BODY),
      filename: t.Optional(t.String({ maxLength: 200, error: SAVE_BODY })),
    },
    { additionalProperties: false, error: SAVE_BODY },
  ),
  analyzeLoginBody: t.Object(
    {
      url: t.String({ minLength: 1, maxLength: 8192, error: ANALYZE_BODY }),
      html: t.Optional(t.String({ maxLength: 512 * 1024, error: ANALYZE_BODY })),
    },
    { additionalProperties: false, error: ANALYZE_BODY },
  ),
  lookupBody: t.Object(
    {
      url: t.Optional(t.String({ minLength: 1, maxLength: 8192, error: LOOKUP_BODY })),
      query: t.Optional(t.String({ minLength: 1, maxLength: 2000, error: LOOKUP_BODY })),
    },
    { additionalProperties: false, error: LOOKUP_BODY },
  ),
}

export type TrialRunBody = typeof WizardModel.trialRunBody.static

/**
 * POST analyze-login. `form` (a PageForm) keeps its snake_case `has_password`: the same page
 * summary is what the model is shown (domain/wizard/page-read.ts).
 */
export const toWireLoginAnalysis = (a: LoginAnalysis) => ({
  url: a.url,
  status: a.status,
  form: a.form,
  forms_found: a.formsFound,
  cookies_set: a.cookiesSet,
  flow: a.flow,
})

/** trial-run's body: only the fields sent. */
export function toTrialRunRequest(body: typeof WizardModel.trialRunBody.static): TrialRunRequest {
  return {
    source: body.source,
    ...(body.url === undefined ? {} : { url: body.url }),
    ...(body.archive_id === undefined ? {} : { archiveId: body.archive_id }),
    ...(body.args === undefined ? {} : { args: body.args }),
    ...(body.oneshot === undefined ? {} : { oneshot: body.oneshot }),
  }
}
