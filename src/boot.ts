// Builds Deps from a Config, starts background machinery and the HTTP server; stops it all again.
import { mkdirSync } from 'node:fs'
import type { Config } from './config.ts'
import type { Deps, Infra } from './deps.ts'
import type { ContentSync } from './domain/archives/content-sync.ts'
import { openDb } from './db/client.ts'
import { openSettings, type SettingsStore } from './domain/settings.ts'
import { createJobQueue } from './jobs/queue.ts'
import type { JobArgsByName } from './jobs/kinds/index.ts'
import type { AnyArea } from './areas/area.ts'
import { areaPolicy, areaStates, jobFactories, SERVER_AREAS } from './areas/assemble.ts'
import { createLocks } from './domain/locks.ts'
import { announcePendingPassword, ensureAdminPassword } from './domain/auth/password.ts'
import { createSearchIndex } from './search/index.ts'
import { createIndexSource } from './domain/search/index-source.ts'
import { createEventBus } from './events.ts'
import { createArchiveReader } from './archive/reader.ts'
import { createThumbnailer } from './images/thumbnailer.ts'
import { createApp } from './app.ts'
import { createWireCache } from './http/wire-cache.ts'
import { serverBodyCeiling } from './http/body-limit.ts'
import { createLogger } from './log.ts'
import { createStopList } from './stop-list.ts'
import { lockDataDir } from './instance-lock.ts'
import { reasonOf, StartError } from './start-error.ts'
import { createOutboundFetch } from './net/fetch.ts'
import { createLlmClient, type LlmProvider } from './llm/client.ts'
import { createSandboxHost } from './plugins/host.ts'
import type { PluginRunTag } from './plugins/manifest.ts'
import { withLoginSession } from './plugins/login-session.ts'
import { SANDBOX_MAIN_PATH, SANDBOX_NODE_PATH } from './assets.ts'
import { sandboxInstalled } from './domain/health.ts'
import { readPluginEntry } from './domain/plugins/run.ts'

const log = createLogger('boot')

/** Outbound responses past this size fail (`too_large`); downloads may ask for less per request. */
const OUTBOUND_MAX_RESPONSE_BYTES = 32 * 1024 * 1024
/** One outbound exchange (every hop and the body). */
const OUTBOUND_TIMEOUT_MS = 30_000

/** The language-model provider: each of key, base URL and model from the settings when set there. */
function llmProvider(config: Config, settings: SettingsStore): LlmProvider {
  return {
    apiKey: settings.get('llm_api_key') || config.llmApiKey,
    baseUrl: settings.get('llm_base_url') || config.llmBaseUrl,
    model: settings.get('llm_model') || config.llmModel,
  }
}

export type Server = {
  deps: Deps
  url: string
  port: number
  contentSync: ContentSync
  stop(): Promise<void>
}

export async function startServer(
  config: Config,
  options: {
    announce?: (line: string) => void
    /** The areas the server is made of: the area list unless a test adds one. */
    areas?: readonly AnyArea[]
  } = {},
): Promise<Server> {
  const areas = options.areas ?? SERVER_AREAS
  for (const [dir, what] of [
    [config.dataDir, 'data'],
    [config.contentDir, 'content'],
    [config.thumbsDir, 'thumbnail'],
    [config.tempDir, 'temp'],
    [config.pluginsDir, 'plugins'],
  ] as const) {
    try {
      mkdirSync(dir, { recursive: true })
    } catch (error) {
      throw new StartError(`cannot create the ${what} folder ${dir}: ${reasonOf(error)}`)
    }
  }
  const stops = createStopList()
  try {
    // Before anything reads or writes the folder; released last.
    stops.push(lockDataDir(config.dataDir))
    const db = openDb(config.dbPath)
    stops.push(() => db.$client.close())
    const settings = openSettings(db)
    await ensureAdminPassword(settings, config.password)
    // Jobs stop before the workers they use, the database last (reverse start order).
    const thumbnailer = createThumbnailer()
    stops.push(() => thumbnailer.close())
    const reader = createArchiveReader({ tempDir: config.tempDir })
    stops.push(() => reader.close())
    const events = createEventBus()
    const jobs = createJobQueue<JobArgsByName>(db, { events })
    stops.push(() => jobs.stop())
    const search = createSearchIndex(createIndexSource(db))
    const outbound = createOutboundFetch({
      allowPrivate: config.fetchAllowPrivate,
      maxResponseBytes: OUTBOUND_MAX_RESPONSE_BYTES,
      timeoutMs: OUTBOUND_TIMEOUT_MS,
    })
    // A plugin's fetch reaches only the hosts its manifest lists (the run's tag carries them), with
    // the session of its login plugin attached.
    const sandbox = createSandboxHost<PluginRunTag>({
      fetch: (url, { sink, ...init }, run) =>
        outbound.fetchOutbound(url, withLoginSession(url, init, run.tag?.login), {
          allowedHosts: run.tag?.hosts ?? [],
          // The body streams to the sandbox's file as it arrives; the cap stays the client's.
          sink,
          maxResponseBytes: OUTBOUND_MAX_RESPONSE_BYTES,
        }),
      entry: readPluginEntry(reader),
      library: async (method, args, run) => {
        if (!run.tag?.library) throw new Error('ctx.library is given to script plugins only')
        return run.tag.library(method, args)
      },
    })
    const infra: Infra = {
      config,
      db,
      settings,
      jobs,
      events,
      search,
      wireCache: createWireCache(),
      reader,
      thumbnailer,
      outbound,
      llm: createLlmClient({
        provider: () => llmProvider(config, settings),
        timeoutMs: config.llmTimeoutMs,
      }),
      sandbox,
      locks: createLocks(),
      policy: areaPolicy(areas),
      instanceId: crypto.randomUUID(),
      startedAt: Date.now(),
    }
    // The sandbox's children go when the server stops, even one that never served a request.
    stops.push(() => sandbox.close())
    const deps: Deps = { ...infra, ...areaStates(infra, areas) }
    deps.jobs.register(jobFactories(areas), deps)
    for (const area of areas) {
      const stop = area.subscribe?.(deps)
      if (stop) stops.push(stop)
    }
    // Start-up recovery, area by area, before the queue resumes and the first scan.
    for (const area of areas) await area.recover?.(deps)
    jobs.recover()
    // Elysia turns SO_REUSEPORT on: a second server on the same port would then silently share
    // its requests. Off, so it fails to start instead. Not development: no Bun error pages.
    // Bun's body cap (128 MB by default) follows the upload limit (http/body-limit.ts).
    const app = createApp(deps, areas).listen({
      port: config.port,
      hostname: config.host,
      reusePort: false,
      development: false,
      maxRequestBodySize: serverBodyCeiling(config),
    })
    stops.push(() => app.stop(true))
    for (const area of areas) {
      const stop = area.start?.(deps)
      if (stop) stops.push(stop)
    }
    // Said once at start: without it every plugin run and upload fails (README, Single binary).
    if (!sandboxInstalled())
      log.warn('plugin sandbox missing: plugins cannot run or be installed', {
        node: SANDBOX_NODE_PATH,
        main: SANDBOX_MAIN_PATH,
      })
    const port = app.server?.port
    if (port === undefined) throw new Error('the HTTP server did not report its port')
    // Only a start that serves shows a generated password: one that failed kept it for this one.
    announcePendingPassword(settings, options.announce)
    const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host
    return {
      deps,
      url: `http://${host}:${port}`,
      port,
      contentSync: deps.archives.contentSync,
      stop: () => stops.stopAll(),
    }
  } catch (error) {
    // What did start is stopped. A part that fails to stop is logged by the list; the start's
    // own failure is the one reported.
    await stops.stopAll().catch(() => undefined)
    throw error
  }
}
