// Analyzing a login page for a login plugin (POST /api/plugin-wizard/analyze-login): the page
// (given, or fetched under the plugins' fetch rules) is read on the server for its forms and the
// cookies it sets, and the model describes the login flow as checked JSON.
// Snake_case kept: LoginFlowSchema (`session_cookies`) is the model's JSON answer schema, and the
// prompt's `other_forms`/`cookies_set` are what the model is shown; the answer is converted in
// http/models/wizard.ts.
import { Type, type Static } from '@sinclair/typebox'
import type { Deps } from '../../deps.ts'
import { fail } from '../../errors.ts'
import { fetchPage } from './fetch-page.ts'
import { askModel, requireModel } from './model.ts'
import { cookiesSet, readPage, type PageForm } from './page-read.ts'

const Text = (max: number) => Type.String({ maxLength: max })

/** What the model answers: the flow a login plugin's execLogin would follow. */
export const LoginFlowSchema = Type.Object({
  summary: Text(2000),
  steps: Type.Array(
    Type.Object({
      method: Type.Union([Type.Literal('GET'), Type.Literal('POST')]),
      url: Text(2000),
      fields: Type.Optional(Type.Record(Type.String(), Type.String())),
      note: Type.Optional(Text(1000)),
    }),
    { maxItems: 10 },
  ),
  parameters: Type.Array(
    Type.Object({
      name: Text(100),
      type: Type.Union([Type.Literal('string'), Type.Literal('int'), Type.Literal('bool')]),
      desc: Text(500),
    }),
    { maxItems: 20 },
  ),
  session_cookies: Type.Array(Text(200), { maxItems: 30 }),
  hosts: Type.Array(Text(253), { maxItems: 20 }),
})
export type LoginFlow = Static<typeof LoginFlowSchema>

export type LoginAnalysis = {
  url: string
  status: number | null
  /** The form holding a password field (else the first form), as read from the markup. */
  form: PageForm | null
  formsFound: number
  cookiesSet: { name: string; domain: string | null; path: string | null }[]
  flow: LoginFlow
}

export async function analyzeLogin(
  deps: Pick<Deps, 'llm' | 'outbound'>,
  body: { url: string; html?: string },
  signal?: AbortSignal,
): Promise<LoginAnalysis> {
  requireModel(deps)
  if (!URL.canParse(body.url) || !/^https?:$/.test(new URL(body.url).protocol))
    throw fail.bad_request('url must be an http(s) URL.')
  const page =
    body.html === undefined
      ? await fetchPage(deps, body.url)
      : { url: body.url, status: null, headers: new Headers(), markup: body.html }
  const read = readPage(page.markup, page.url)
  const form = read.forms.find((candidate) => candidate.has_password) ?? read.forms[0] ?? null
  const cookies = cookiesSet(page.headers)
  const flow = await askModel(
    deps,
    [
      {
        role: 'system',
        content:
          'You help write a login plugin for a comic library server. A login plugin answers the ' +
          'cookies (and headers) of a logged-in session; its parameters are what the user types ' +
          'in its settings (a user name and password, or cookies copied from a browser). From the ' +
          'login page below, describe the flow as JSON: summary, steps (method, absolute url, ' +
          'form fields with their values or {parameter name} placeholders, note), parameters ' +
          '(name, type string|int|bool, desc), session_cookies (names of the cookies that carry ' +
          'the session) and hosts (every host the plugin must fetch). Answer only the JSON object.',
      },
      {
        role: 'user',
        content: JSON.stringify({
          url: page.url,
          status: page.status,
          title: read.title,
          form,
          other_forms: read.forms.filter((candidate) => candidate !== form).slice(0, 5),
          cookies_set: cookies.map((cookie) => cookie.name),
        }),
      },
    ],
    LoginFlowSchema,
    signal,
  )
  return {
    url: page.url,
    status: page.status,
    form,
    formsFound: read.forms.length,
    cookiesSet: cookies,
    flow,
  }
}
