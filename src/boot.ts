// Builds Deps from a Config, starts background machinery and the HTTP server; stops it all again.
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Config } from './config.ts'
import type { Deps } from './deps.ts'
import { openDb } from './db/client.ts'
import { openSettings, type SettingsStore } from './domain/settings.ts'
import { createJobQueue } from './jobs/queue.ts'
import { createLocks } from './domain/locks.ts'
import { createLoginThrottle } from './domain/auth/login-throttle.ts'
import { announcePendingPassword, ensureAdminPassword } from './domain/auth/password.ts'
import { loadSigningKey } from './domain/auth/signing-key.ts'
import { createSearchIndex } from './search/index.ts'
import { createIndexSource } from './domain/search/index-source.ts'
import { syncIndexWithEvents } from './domain/search/index-sync.ts'
import { runPluginsOnNewArchives } from './domain/plugins/auto-run.ts'
import { readComicInfoOfNewArchives } from './domain/archives/comicinfo-at-catalogue.ts'
import { createEventBus } from './events.ts'
import { createArchiveReader } from './archive/reader.ts'
import { createThumbnailer } from './images/thumbnailer.ts'
import { registerJobKinds, type JobArgsByName } from './jobs/kinds/index.ts'
import { sweepInterruptedDownloads } from './domain/downloads/sweep.ts'
import { createDownloadRuntime } from './domain/downloads/runtime.ts'
import { createApp } from './app.ts'
import { createFirstInstallCategory } from './domain/collections/first-install.ts'
import { createWireCache, dropWireOnWrites } from './http/wire-cache.ts'
import { serverBodyCeiling } from './http/body-limit.ts'
import { createContentSync, type ContentSync } from './domain/archives/content-sync.ts'
import { createUploadsInFlight, removeInterruptedWrites } from './domain/archives/upload.ts'
import { removeInterruptedSplits } from './domain/split/source.ts'
import { recoverInterruptedSplits } from './domain/split/journal.ts'
import { createPlacement } from './domain/archives/placement.ts'
import { createUnreadableFiles } from './domain/archives/scan.ts'
import { createDimensionCache } from './domain/archives/pages.ts'
import { createGenerationStore } from './domain/wizard/generations.ts'
import { createLogger } from './log.ts'
import { createStopList } from './stop-list.ts'
import { lockDataDir } from './instance-lock.ts'
import { reasonOf, StartError } from './start-error.ts'
import { createOutboundFetch } from './net/fetch.ts'
import { createLlmClient, type LlmProvider } from './llm/client.ts'
import { createSandboxHost } from './plugins/host.ts'
import type { PluginRunTag } from './plugins/manifest.ts'
import { withLoginSession } from './plugins/login-session.ts'
import { createPluginRegistry } from './plugins/registry.ts'
import { BUILTIN_PLUGINS_DIR, SANDBOX_MAIN_PATH, SANDBOX_NODE_PATH } from './assets.ts'
import { sandboxInstalled } from './domain/health.ts'
import { readPluginEntry } from './domain/plugins/run.ts'
import { applyDomainRules } from './domain/plugins/settings.ts'
import {
  createComparisonCache,
  dropComparisonsOfRemovedItems,
} from './domain/downloads/compare-cache.ts'

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
  options: { announce?: (line: string) => void } = {},
): Promise<Server> {
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
    syncIndexWithEvents(events, search)
    const wireCache = createWireCache()
    dropWireOnWrites(events, wireCache)
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
    const plugins = createPluginRegistry({
      db,
      sandbox,
      builtinDir: BUILTIN_PLUGINS_DIR,
      sideloadDir: join(config.pluginsDir, 'custom'),
    })
    // Stopping closes the sandbox first (a registration's runs then fail at once) and waits for
    // the registration before the database closes.
    stops.push(() => plugins.ready())
    stops.push(() => sandbox.close())
    const deps: Deps = {
      config,
      db,
      settings,
      jobs,
      search,
      wireCache,
      events,
      reader,
      thumbnailer,
      outbound,
      llm: createLlmClient({
        provider: () => llmProvider(config, settings),
        timeoutMs: config.llmTimeoutMs,
      }),
      sandbox,
      plugins,
      locks: createLocks(),
      uploads: createUploadsInFlight(),
      placement: createPlacement(),
      unreadable: createUnreadableFiles(),
      dimensions: createDimensionCache(),
      loginThrottle: createLoginThrottle(),
      sessionKeys: { signingKey: loadSigningKey(settings) },
      contentSync: createContentSync({ config, jobs, search }),
      comparisons: createComparisonCache(),
      downloads: createDownloadRuntime(),
      generations: createGenerationStore(),
      startedAt: Date.now(),
    }
    registerJobKinds(deps)
    if (config.favoritesCategory) createFirstInstallCategory(deps)
    dropComparisonsOfRemovedItems(events, deps.comparisons)
    runPluginsOnNewArchives(deps)
    // New archives' ComicInfo.xml as tags, after the scan's write; stopped before the reader.
    stops.push(readComicInfoOfNewArchives(deps))
    // Before jobs resume: downloads a crash or stop cut are marked stale, so their jobs end.
    const swept = await sweepInterruptedDownloads(deps)
    if (swept.stale > 0) log.warn('downloads interrupted by the last stop', { count: swept.stale })
    // Before jobs resume and the first scan: splits a crash cut short are undone (or completed).
    const splits = await recoverInterruptedSplits(deps)
    if (splits > 0) log.warn('settled splits interrupted by the last stop', { count: splits })
    jobs.recover()
    const removed =
      (await removeInterruptedWrites(config)) + (await removeInterruptedSplits(config))
    if (removed > 0)
      log.warn('removed files left by interrupted uploads and splits', { count: removed })
    // Elysia turns SO_REUSEPORT on: a second server on the same port would then silently share
    // its requests. Off, so it fails to start instead. Not development: no Bun error pages.
    // Bun's body cap (128 MB by default) follows the upload limit (http/body-limit.ts).
    const app = createApp(deps).listen({
      port: config.port,
      hostname: config.host,
      reusePort: false,
      development: false,
      maxRequestBodySize: serverBodyCeiling(config),
    })
    stops.push(() => app.stop(true))
    deps.contentSync.start()
    // Said once at start: without it every plugin run and upload fails (README, Single binary).
    if (!sandboxInstalled())
      log.warn('plugin sandbox missing: plugins cannot run or be installed', {
        node: SANDBOX_NODE_PATH,
        main: SANDBOX_MAIN_PATH,
      })
    // In the background: the sandbox's cold start must not hold up the listen.
    plugins.start()
    void plugins.ready().then(() => {
      try {
        applyDomainRules(deps)
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error)
        log.warn('stored domain rules not applied', { error: message })
      }
    })
    stops.push(() => deps.contentSync.stop())
    const port = app.server?.port
    if (port === undefined) throw new Error('the HTTP server did not report its port')
    // Only a start that serves shows a generated password: one that failed kept it for this one.
    announcePendingPassword(settings, options.announce)
    const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host
    return {
      deps,
      url: `http://${host}:${port}`,
      port,
      contentSync: deps.contentSync,
      stop: () => stops.stopAll(),
    }
  } catch (error) {
    // What did start is stopped. A part that fails to stop is logged by the list; the start's
    // own failure is the one reported.
    await stops.stopAll().catch(() => undefined)
    throw error
  }
}
