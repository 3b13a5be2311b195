// What each hook may answer, as plugins/sdk.d.ts declares it (MetadataResult, LoginResult,
// DownloadResult, ScriptResult, or PluginError), checked when an installed plugin's run ends: a
// plugin answering `'x'` or `{tags: {artist: 'x'}}` fails its run with the reason instead of
// counting as a success that changed nothing. Unknown extra keys are ignored; null counts as an
// absent optional field (a port from another language may send it).
import { Type, type TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import type { PluginType } from './manifest.ts'

const Nullable = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]))
const StringMap = Type.Record(Type.String(), Type.String())

/** Per type: the schema of a successful answer, and how the SDK spells it in a message. */
const ANSWERS: Record<
  PluginType,
  { schema: TSchema; shape: string; fields: Record<string, string> }
> = {
  metadata: {
    // A list of tags is joined (docs/plugins.md), as LANraragi's plugins may answer one.
    schema: Type.Object({
      tags: Nullable(Type.Union([Type.String(), Type.Array(Type.String())])),
      title: Nullable(Type.String()),
      summary: Nullable(Type.String()),
    }),
    shape: 'MetadataResult {tags?: string, title?: string, summary?: string}',
    fields: {
      tags: 'a string (or a list of strings)',
      title: 'a string',
      summary: 'a string',
    },
  },
  login: {
    schema: Type.Object({
      cookies: Nullable(
        Type.Array(
          Type.Object({
            name: Type.String(),
            value: Type.String(),
            domain: Nullable(Type.String()),
          }),
        ),
      ),
      headers: Nullable(StringMap),
    }),
    shape: 'LoginResult {cookies?: {name, value, domain}[], headers?: {[name]: string}}',
    fields: {
      cookies: 'a list of {name, value, domain?}, each a string',
      headers: 'an object of strings',
    },
  },
  download: {
    schema: Type.Object({
      downloads: Type.Array(
        Type.Object({
          url: Type.String(),
          method: Nullable(Type.String()),
          headers: Nullable(StringMap),
          filename_hint: Nullable(Type.String()),
        }),
      ),
      version_history: Nullable(
        Type.Array(Type.Object({ source: Type.String(), posted_at: Type.String() })),
      ),
    }),
    shape:
      'DownloadResult {downloads: {url, method?, headers?, filename_hint?}[], version_history?}',
    fields: {
      downloads: 'a list of {url, method?, headers?, filename_hint?} (strings; headers an object)',
      version_history: 'a list of {source, posted_at}, each a string',
    },
  },
  script: {
    schema: Type.Object({ data: Type.Unknown() }, { required: ['data'] }),
    shape: 'ScriptResult {data}',
    fields: { data: 'present (any value)' },
  },
}

/** The kind of a wrong value, for a message (strings quoted, cut at 40 characters). */
const describe = (value: unknown): string => {
  // undefined crosses the bridge as null: both are a hook that answered nothing.
  if (value === null || value === undefined) return 'nothing'
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 40))}`
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

/**
 * Null when `answer` is what a hook of `type` may answer (an `{error}` answer included: the run
 * fails with it elsewhere), else the reason, naming the field and the SDK type.
 */
export function wrongAnswer(type: PluginType, hook: string, answer: unknown): string | null {
  const { schema, shape, fields } = ANSWERS[type]
  const sdk = `a ${type} plugin answers ${shape} or {error: string} (plugins/sdk.d.ts)`
  const isObject = answer !== null && typeof answer === 'object' && !Array.isArray(answer)
  if (isObject && typeof (answer as { error?: unknown }).error === 'string') return null
  if (!isObject) return `${hook} answered ${describe(answer)}; ${sdk}.`
  if (Value.Check(schema, answer)) return null
  const first = Value.Errors(schema, answer).First()
  const path = (first?.path ?? '').replace(/^\//, '').replace(/\//g, '.')
  const field = path.split('.')[0] ?? ''
  const got = describe(first?.value)
  return `${hook} answered ${path || 'an object'} as ${got}, but ${field} must be ${fields[field] ?? 'as declared'}; ${sdk}.`
}
