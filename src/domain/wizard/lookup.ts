// Looking a site up for a metadata or download plugin (POST /api/plugin-wizard/lookup): the page
// at `url` is fetched under the plugins' fetch rules and read on the server (title, headings, meta
// tags, links, forms); the model suggests what a plugin would read from it (checked JSON). With a
// `query` instead, the model answers from what it knows, without a page.
// Snake_case kept: LookupSchema is the model's JSON answer schema, answered as given.
import { Type, type Static } from '@sinclair/typebox'
import type { Deps } from '../../deps.ts'
import { fail } from '../../errors.ts'
import { fetchPage } from './fetch-page.ts'
import { askModel, requireModel } from './model.ts'
import { readPage, type PageSummary } from './page-read.ts'

const Text = (max: number) => Type.String({ maxLength: max })

/** What the model answers: where a plugin finds each field, and what it must declare. */
export const LookupSchema = Type.Object({
  site: Text(200),
  plugin_type: Type.Union([Type.Literal('metadata'), Type.Literal('download')]),
  selectors: Type.Array(
    Type.Object({ field: Text(100), selector: Text(500), example: Type.Optional(Text(500)) }),
    { maxItems: 30 },
  ),
  hosts: Type.Array(Text(253), { maxItems: 20 }),
  url_regex: Type.Union([Text(1000), Type.Null()]),
  notes: Text(4000),
})
export type LookupSuggestion = Static<typeof LookupSchema>

export type LookupAnswer = {
  url: string | null
  query: string | null
  status: number | null
  page: PageSummary | null
  suggestion: LookupSuggestion
}

const SYSTEM =
  'You help write a metadata or download plugin for a comic library server. The plugin fetches ' +
  'pages and reads them with html.selectOne(markup, selector)/html.select (CSS selectors: tag, ' +
  '#id, .class, [attr], [attr=value], descendant and child combinators). Answer only a JSON ' +
  'object: site (its name), plugin_type (metadata or download), selectors (field such as title, ' +
  'artist, tags, cover, download; a CSS selector; an example value from the page), hosts (every ' +
  'host the plugin must fetch), url_regex (a regular expression for the URLs the plugin takes, ' +
  'or null) and notes (anything else the plugin author must know).'

export async function lookupSite(
  deps: Pick<Deps, 'llm' | 'outbound'>,
  body: { url?: string; query?: string },
  signal?: AbortSignal,
): Promise<LookupAnswer> {
  if ((body.url === undefined) === (body.query === undefined))
    throw fail.bad_request('Give either url or query.')
  requireModel(deps)
  if (body.url === undefined) {
    const suggestion = await askModel(
      deps,
      [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: JSON.stringify({ query: body.query }) },
      ],
      LookupSchema,
      signal,
    )
    return { url: null, query: body.query ?? null, status: null, page: null, suggestion }
  }
  if (!URL.canParse(body.url) || !/^https?:$/.test(new URL(body.url).protocol))
    throw fail.bad_request('url must be an http(s) URL.')
  const fetched = await fetchPage(deps, body.url)
  const page = readPage(fetched.markup, fetched.url)
  const suggestion = await askModel(
    deps,
    [
      { role: 'system', content: SYSTEM },
      {
        role: 'user',
        content: JSON.stringify({ url: fetched.url, status: fetched.status, ...page }),
      },
    ],
    LookupSchema,
    signal,
  )
  return { url: fetched.url, query: null, status: fetched.status, page, suggestion }
}
