// Instance settings: one schema with defaults, cached in memory, written through to SQLite.
// Snake_case kept: settings keys are the stored names and the API's (GET/PUT /api/settings).
import { Type, type Static, type TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import type { Db } from '../db/client.ts'
import { readAllSettings, writeSetting } from '../db/repos/settings.repo.ts'
import { fail } from '../errors.ts'

/** Public settings (GET/PUT /api/settings); names follow /api/info where one exists. */
export const SETTING_SCHEMAS = {
  archives_per_page: Type.Integer({ minimum: 1, maximum: 10000 }),
  nofun_mode: Type.Boolean(),
  server_tracks_progress: Type.Boolean(),
  authenticated_progress: Type.Boolean(),
  server_resizes_images: Type.Boolean(),
  /** Archive routes a reader uses answer a TANK_ id as one long archive (docs/collections.md). */
  tankoubons_as_archives: Type.Boolean(),
  excluded_namespaces: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
    maxItems: 1000,
  }),
  motd: Type.String({ maxLength: 10000 }),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  debug_mode: Type.Boolean(),
  guest_mode: Type.Boolean(),
  enable_cors: Type.Boolean(),
  /** Each entry `*` or an exact origin; the form is checked by http/cors.ts (assertCorsOrigins). */
  cors_origins: Type.Array(Type.String({ maxLength: 2048 }), { maxItems: 100 }),
  thumbnail_format: Type.Union([Type.Literal('webp'), Type.Literal('jpeg')]),
  plugin_timeout_ms: Type.Integer({ minimum: 100, maximum: 600000 }),
  plugin_memory_mb: Type.Integer({ minimum: 8, maximum: 4096 }),
  /** Write-only: GET reports only whether it is set. */
  llm_api_key: Type.Union([Type.String({ maxLength: 4096 }), Type.Null()]),
  /** OpenAI-compatible endpoint (`.../v1`); null = TANKOBUN_LLM_BASE_URL. */
  llm_base_url: Type.Union([
    Type.String({ maxLength: 2048, pattern: '^https?://[^\\s]+$' }),
    Type.Null(),
  ]),
  /** Model name sent to the provider; null = TANKOBUN_LLM_MODEL. */
  llm_model: Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Null()]),
} satisfies Record<string, TSchema>

export type SettingKey = keyof typeof SETTING_SCHEMAS
export type Settings = { [K in SettingKey]: Static<(typeof SETTING_SCHEMAS)[K]> }

export const DEFAULT_SETTINGS: Settings = {
  archives_per_page: 100,
  nofun_mode: true,
  server_tracks_progress: true,
  authenticated_progress: false,
  server_resizes_images: false,
  tankoubons_as_archives: false,
  excluded_namespaces: ['date_added', 'timestamp', 'source'],
  motd: 'Welcome to Tankobun!',
  name: 'Tankobun',
  debug_mode: false,
  guest_mode: false,
  enable_cors: false,
  cors_origins: [],
  thumbnail_format: 'webp',
  plugin_timeout_ms: 30000,
  plugin_memory_mb: 64,
  llm_api_key: null,
  llm_base_url: null,
  llm_model: null,
}

export const WRITE_ONLY_SETTINGS: readonly SettingKey[] = ['llm_api_key']

export type SettingsStore = {
  get<K extends SettingKey>(key: K): Settings[K]
  all(): Settings
  /** Validates every key first, then writes all of them; unknown keys are a 400. */
  update(patch: Record<string, unknown>): Settings
  /** Internal values (password hash, signing key, counters) that are not user settings. */
  getInternal<T>(key: string): T | undefined
  setInternal(key: string, value: unknown): void
}

const INTERNAL_PREFIX = 'internal.'

export function openSettings(db: Db): SettingsStore {
  const cache = readAllSettings(db)
  const current = (): Settings => {
    const out = { ...DEFAULT_SETTINGS } as Record<string, unknown>
    for (const key of Object.keys(SETTING_SCHEMAS)) if (cache.has(key)) out[key] = cache.get(key)
    return out as Settings
  }
  return {
    get: (key) => (cache.has(key) ? cache.get(key) : DEFAULT_SETTINGS[key]) as never,
    all: current,
    update(patch) {
      for (const [key, value] of Object.entries(patch)) {
        // Own keys only: `toString` or `constructor` would otherwise find Object.prototype's.
        if (!Object.hasOwn(SETTING_SCHEMAS, key)) {
          throw fail.bad_request(`Unknown setting: ${key.slice(0, 100)}`)
        }
        const schema = SETTING_SCHEMAS[key as SettingKey]
        if (!Value.Check(schema, value)) throw fail.bad_request(`Invalid value for setting ${key}`)
      }
      db.$client.transaction(() => {
        for (const [key, value] of Object.entries(patch)) writeSetting(db, key, value)
      })()
      for (const [key, value] of Object.entries(patch)) cache.set(key, value)
      return current()
    },
    getInternal: <T>(key: string) => cache.get(INTERNAL_PREFIX + key) as T | undefined,
    setInternal(key, value) {
      writeSetting(db, INTERNAL_PREFIX + key, value)
      cache.set(INTERNAL_PREFIX + key, value)
    },
  }
}
