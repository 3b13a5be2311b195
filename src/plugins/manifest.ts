// What a plugin's pluginInfo() may answer: the untrusted manifest checked (unknown keys rejected)
// before it is stored, and the types the registry and the plugin routes share.
import { Type, type Static } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import type { PluginEntry } from './host.ts'

export const PLUGIN_TYPES = ['download', 'login', 'metadata', 'script'] as const
export type PluginType = (typeof PLUGIN_TYPES)[number]

/** The entry a run of each plugin type calls. */
export const ENTRY_OF: Record<PluginType, PluginEntry> = {
  download: 'execDownload',
  login: 'execLogin',
  metadata: 'execMetadata',
  script: 'runScript',
}

const Str = (max: number) => Type.String({ maxLength: max })
const OptionalText = (max: number) => Type.Optional(Type.Union([Str(max), Type.Null()]))

const ParameterSchema = Type.Object(
  {
    name: Type.Optional(Str(200)),
    type: Str(50),
    desc: Type.Optional(Str(2000)),
    default_value: Type.Optional(Type.Unknown()),
    /** A password, cookie or key: write-only over the API (its value is never answered). */
    secret: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)

const ManifestSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    namespace: Type.Optional(Str(200)),
    author: Type.Optional(Str(200)),
    description: Type.Optional(Str(5000)),
    version: Type.String({ minLength: 1, maxLength: 50 }),
    type: Type.Union(PLUGIN_TYPES.map((t) => Type.Literal(t))),
    // A data URI; 1 MB is plenty for an icon.
    icon: OptionalText(1_000_000),
    parameters: Type.Optional(Type.Array(ParameterSchema, { maxItems: 100 })),
    login_from: OptionalText(200),
    oneshot_arg: OptionalText(2000),
    url_regex: OptionalText(2000),
    hosts: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 253 }), { maxItems: 200 }),
    ),
  },
  { additionalProperties: false },
)

export type PluginManifest = Static<typeof ManifestSchema>
export type PluginParameter = Static<typeof ParameterSchema>

/** A parameter whose saved value no answer carries (`secret: true` in the manifest). */
export const isSecretParameter = (param: PluginParameter): boolean => param.secret === true

/**
 * What a login plugin answered, attached to the fetches of the plugins naming it in `login_from`,
 * and only to the hosts the login plugin itself declares (its manifest `hosts`).
 */
export type LoginSession = {
  cookies: { name: string; value: string; domain?: string }[]
  headers: Record<string, string>
  hosts: string[]
}

/**
 * The tag of a sandbox run: which plugin runs, the hosts its fetch may reach, the archive file
 * its `ctx.entry(name)` reads (absent: no archive, every entry is null), and the session of its
 * login plugin.
 */
/** Answers a script plugin's `ctx.library.<method>(...args)` (domain/plugins/library-grant.ts). */
export type LibraryGrant = (method: string, args: unknown[]) => Promise<unknown>

export type PluginRunTag = {
  namespace: string
  hosts?: string[]
  archivePath?: string
  login?: LoginSession
  library?: LibraryGrant
}

/** The manifest, or the reason it is refused (the registry logs it and skips the file). */
export function checkManifest(
  value: unknown,
): { ok: true; manifest: PluginManifest } | { ok: false; reason: string } {
  if (Value.Check(ManifestSchema, value)) return { ok: true, manifest: value }
  const first = Value.Errors(ManifestSchema, value).First()
  const where = first?.path ? first.path.replace(/^\//, '') : 'manifest'
  return { ok: false, reason: `${where}: ${first?.message ?? 'not a plugin manifest'}` }
}
