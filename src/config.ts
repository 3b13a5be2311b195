// Env and command-line flags -> Config: the only reader of process.env and argv.
import { basename, join, relative, resolve } from 'node:path'
import { Type, type Static } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { parseAllowEntry } from './net/address-guard.ts'

export const ConfigSchema = Type.Object({
  /** TCP port to listen on; default 3000, 0 picks a free port (tests). */
  port: Type.Integer({ minimum: 0, maximum: 65535 }),
  /** Interface to bind; default 0.0.0.0. */
  host: Type.String({ minLength: 1 }),
  /** Folder for the SQLite file, thumbnails, temp and sideloaded plugins; default ./data. */
  dataDir: Type.String({ minLength: 1 }),
  /** Folder of archives, scanned recursively and watched; default ./content. */
  contentDir: Type.String({ minLength: 1 }),
  /** Admin password set (or reset) at start; unset = generated on first start. */
  password: Type.Optional(Type.String()),
  /** OpenAI-compatible chat completions endpoint for language-model features. */
  llmBaseUrl: Type.Optional(Type.String()),
  llmApiKey: Type.Optional(Type.String()),
  llmModel: Type.Optional(Type.String()),
  /** One language-model attempt's time budget in ms (a local model on a CPU may need more). */
  llmTimeoutMs: Type.Integer({ minimum: 100, maximum: 3_600_000 }),
  /**
   * Host names (exact or `*.domain`), IPs or CIDRs outbound fetch may reach although private,
   * each on every port or, written `host:port` / `[v6]:port`, on that port only.
   */
  fetchAllowPrivate: Type.Array(Type.String()),
  /** Log threshold; default warn (quiet). */
  logLevel: Type.Union([
    Type.Literal('debug'),
    Type.Literal('info'),
    Type.Literal('warn'),
    Type.Literal('error'),
    Type.Literal('silent'),
  ]),
  /** Watch the content folder for changes; default true (tests may turn it off). */
  watch: Type.Boolean(),
  /**
   * On a fresh database, create LANraragi's first-install category "🔖 Favorites" and link the
   * bookmark button to it; default true (tests turn it off to start from an empty library).
   */
  favoritesCategory: Type.Boolean(),
  /** Largest upload body in MiB (its Content-Length, form framing included); default 2048. */
  maxUploadMb: Type.Integer({ minimum: 1, maximum: 1_048_576 }),
})

export type Config = Static<typeof ConfigSchema> & {
  dbPath: string
  thumbsDir: string
  tempDir: string
  pluginsDir: string
}

const ENV_OF: Record<string, string> = {
  port: 'TANKOBUN_PORT',
  host: 'TANKOBUN_HOST',
  dataDir: 'TANKOBUN_DATA_DIR',
  contentDir: 'TANKOBUN_CONTENT_DIR',
  password: 'TANKOBUN_PASSWORD',
  llmBaseUrl: 'TANKOBUN_LLM_BASE_URL',
  llmApiKey: 'TANKOBUN_LLM_API_KEY',
  llmModel: 'TANKOBUN_LLM_MODEL',
  llmTimeoutMs: 'TANKOBUN_LLM_TIMEOUT_MS',
  fetchAllowPrivate: 'TANKOBUN_FETCH_ALLOW_PRIVATE',
  logLevel: 'TANKOBUN_LOG_LEVEL',
  watch: 'TANKOBUN_WATCH',
  favoritesCategory: 'TANKOBUN_FAVORITES_CATEGORY',
  maxUploadMb: 'TANKOBUN_MAX_UPLOAD_MB',
}

/**
 * How the user started the server, for the usage line: the binary by the path they typed
 * (`./tankobun`), `npm start --` under npm, else the runtime and the script (`bun src/main.ts`).
 */
export function invokedAs(run: {
  compiled: boolean
  argv0: string
  script: string | undefined
  npmScript: string | undefined
  cwd: string
}): string {
  if (run.compiled) return run.argv0
  if (run.npmScript === 'start') return 'npm start --'
  const script = run.script ? relative(run.cwd, run.script) || run.script : 'src/main.ts'
  return `${basename(run.argv0)} ${script}`
}

/** `--help`: the flags, under the usage line of the command the user ran. */
export const helpText = (program: string) => `Usage: ${program} [flags]

Every flag mirrors an environment variable; flags win.
  --port N                 TANKOBUN_PORT              default 3000
  --host ADDR              TANKOBUN_HOST              default 0.0.0.0
  --data-dir DIR           TANKOBUN_DATA_DIR          default ./data (or --data DIR)
  --content-dir DIR        TANKOBUN_CONTENT_DIR       default ./content (or --content DIR)
  --password PW            TANKOBUN_PASSWORD          default: generated on first start
  --llm-base-url URL       TANKOBUN_LLM_BASE_URL
  --llm-api-key KEY        TANKOBUN_LLM_API_KEY
  --llm-model NAME         TANKOBUN_LLM_MODEL
  --llm-timeout-ms N       TANKOBUN_LLM_TIMEOUT_MS    one model call's budget, default 60000
  --fetch-allow-private H  TANKOBUN_FETCH_ALLOW_PRIVATE (comma-separated hosts, IPs, CIDRs, each
                           maybe with :port; a bare host opens all its ports)
  --log-level LEVEL        TANKOBUN_LOG_LEVEL         debug|info|warn|error|silent, default warn
  --watch true|false       TANKOBUN_WATCH             default true
  --favorites-category true|false
                           TANKOBUN_FAVORITES_CATEGORY  a fresh library gets "🔖 Favorites", default true
  --max-upload-mb N        TANKOBUN_MAX_UPLOAD_MB     largest upload in MiB, default 2048
  --help                   this text
`

/** `maxUploadMb` in bytes. */
export function uploadLimitBytes(config: Pick<Config, 'maxUploadMb'>): number {
  return config.maxUploadMb * 1024 * 1024
}

export class ConfigError extends Error {}

/** Short spellings of flags: `--data` and `--content` for the two folders. */
const FLAG_ALIASES: Record<string, string> = { '--data': 'dataDir', '--content': 'contentDir' }

function flagName(key: string): string {
  return '--' + key.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase())
}

function parseFlags(argv: string[]): Record<string, string> {
  const out: Record<string, string> = {}
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (!arg.startsWith('--')) throw new ConfigError(`unexpected argument ${arg}`)
    const [name, inline] = arg.split('=', 2) as [string, string | undefined]
    const key = FLAG_ALIASES[name] ?? Object.keys(ENV_OF).find((k) => flagName(k) === name)
    if (!key) throw new ConfigError(`unknown flag ${name} (see --help)`)
    const value = inline ?? argv[++i]
    if (value === undefined) throw new ConfigError(`flag ${name} needs a value`)
    out[key] = value
  }
  return out
}

/** Builds the Config from env, flags and overrides (tests pass overrides). Throws ConfigError. */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  argv: string[] = [],
  overrides: Partial<Config> = {},
): Config {
  const flags = parseFlags(argv)
  const raw = (key: string): string | undefined => flags[key] ?? env[ENV_OF[key]!] ?? undefined
  const portText = raw('port') ?? '3000'
  const maxUploadText = raw('maxUploadMb') ?? '2048'
  const llmTimeoutText = raw('llmTimeoutMs') ?? '60000'
  const candidate = {
    port: /^\d+$/.test(portText) ? Number(portText) : Number.NaN,
    host: raw('host') ?? '0.0.0.0',
    dataDir: resolve(raw('dataDir') ?? './data'),
    contentDir: resolve(raw('contentDir') ?? './content'),
    password: raw('password'),
    llmBaseUrl: raw('llmBaseUrl') || undefined,
    llmApiKey: raw('llmApiKey') || undefined,
    llmModel: raw('llmModel') || undefined,
    llmTimeoutMs: /^\d+$/.test(llmTimeoutText) ? Number(llmTimeoutText) : Number.NaN,
    fetchAllowPrivate: (raw('fetchAllowPrivate') ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean),
    logLevel: raw('logLevel') ?? 'warn',
    watch: (raw('watch') ?? 'true') !== 'false',
    favoritesCategory: (raw('favoritesCategory') ?? 'true') !== 'false',
    maxUploadMb: /^\d+$/.test(maxUploadText) ? Number(maxUploadText) : Number.NaN,
    ...overrides,
  }
  for (const key of Object.keys(candidate) as (keyof typeof candidate)[]) {
    if (candidate[key] === undefined) delete candidate[key]
  }
  const firstError = Value.Errors(ConfigSchema, candidate).First()
  if (firstError) {
    const key = firstError.path.split('/')[1] ?? ''
    throw new ConfigError(
      `invalid setting ${ENV_OF[key] ?? key} (${flagName(key)}): ${firstError.message}`,
    )
  }
  const checked = candidate as Static<typeof ConfigSchema>
  for (const entry of checked.fetchAllowPrivate) {
    const parsed = parseAllowEntry(entry)
    if (!parsed.ok)
      throw new ConfigError(
        `invalid setting ${ENV_OF.fetchAllowPrivate} (${flagName('fetchAllowPrivate')}): ${parsed.reason}`,
      )
  }
  return {
    ...checked,
    dbPath: join(checked.dataDir, 'db.sqlite'),
    thumbsDir: join(checked.dataDir, 'thumbs'),
    tempDir: join(checked.dataDir, 'temp'),
    pluginsDir: join(checked.dataDir, 'plugins'),
    ...overrides,
  }
}
