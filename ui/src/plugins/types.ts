// Wire shapes of the plugins page (docs/plugins.md, Endpoints).

export type PluginParameter = {
  name?: string
  type: 'string' | 'int' | 'bool' | string
  desc?: string
  default_value?: unknown
  /** "true" on a write-only parameter (a password, cookie or key). */
  secret?: string
}

export type Plugin = {
  name: string
  namespace: string
  author: string
  description: string
  version: string
  type: string
  icon: string
  origin: string
  login_from: string | null
  /** Whether `login_from` names an installed login plugin; null when none is followed. */
  login_from_installed?: boolean | null
  /** A login plugin: the plugins whose `login_from` names it. */
  used_by?: string[]
  /** The only hosts its fetch reaches (and, for a login plugin, where its session goes). */
  hosts?: string[]
  oneshot_arg: string | null
  url_regex: string | null
  parameters: PluginParameter[]
  priority: number
}

/** `secret_set`: per parameter, a secret one holds a value (plugins with secrets only). */
export type PluginSettings = { customargs: unknown[]; enabled: boolean; secret_set?: boolean[] }

export type DomainRule = { pattern: string; max_concurrency?: number; bytes_per_sec?: number }

export type PluginOptions = {
  domain_rules: DomainRule[]
  bundle_as_archive: boolean
  timeout_ms: number | null
}

export const PLUGIN_TYPES = ['metadata', 'download', 'login', 'script'] as const

/** Only image data URLs become an <img>: anything else a plugin names is not loaded. */
export const safeIcon = (icon: string) => (/^data:image\/[a-z+.-]+[;,]/i.test(icon) ? icon : null)
