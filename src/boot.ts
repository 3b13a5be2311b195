// Builds Deps from a Config, starts background machinery and the HTTP server; stops it all again.
import { mkdirSync } from 'node:fs'
import type { Config } from './config.ts'
import type { Deps } from './deps.ts'
import { openDb } from './db/client.ts'
import { openSettings } from './domain/settings.ts'
import { createJobQueue } from './jobs/queue.ts'
import { createLocks } from './domain/locks.ts'
import { ensureAdminPassword } from './domain/auth/password.ts'
import { loadSigningKey } from './domain/auth/signing-key.ts'
import { createSearchIndex } from './search/index.ts'
import { createArchiveReader } from './archive/reader.ts'
import { createThumbnailer } from './workers/thumbnailer.ts'
import { registerJobKinds } from './jobs/kinds/index.ts'
import { createApp } from './app.ts'
import { serverBodyCeiling } from './http/body-limit.ts'
import { startCatalog, type Catalog } from './domain/archives/catalog.ts'
import { removeInterruptedWrites } from './domain/archives/upload.ts'
import { createLogger } from './log.ts'

const log = createLogger('boot')

export type Server = {
  deps: Deps
  url: string
  port: number
  catalog: Catalog
  stop(): Promise<void>
}

export async function startServer(
  config: Config,
  options: { announce?: (line: string) => void } = {},
): Promise<Server> {
  for (const dir of [
    config.dataDir,
    config.contentDir,
    config.thumbsDir,
    config.tempDir,
    config.pluginsDir,
  ])
    mkdirSync(dir, { recursive: true })
  const db = openDb(config.dbPath)
  const settings = openSettings(db)
  await ensureAdminPassword(settings, config.password, options.announce)
  const deps: Omit<Deps, 'catalog'> & { catalog?: Catalog } = {
    config,
    db,
    settings,
    jobs: createJobQueue(db),
    search: createSearchIndex(db, settings),
    reader: createArchiveReader({ tempDir: config.tempDir }),
    thumbnailer: createThumbnailer(),
    locks: createLocks(),
    sessionKeys: { signingKey: loadSigningKey(settings) },
    startedAt: Date.now(),
  }
  registerJobKinds(deps as Deps)
  deps.jobs.recover()
  const removed = await removeInterruptedWrites(config)
  if (removed > 0) log.warn('removed files left by interrupted uploads', { count: removed })
  const catalog = startCatalog(deps as Deps)
  deps.catalog = catalog
  const shutdown = async (app?: { stop(force: boolean): Promise<unknown> }) => {
    catalog.stop()
    await app?.stop(true)
    await deps.jobs.stop()
    await deps.reader.close()
    await deps.thumbnailer.close()
    db.$client.close()
  }
  let app: ReturnType<ReturnType<typeof createApp>['listen']>
  try {
    // Elysia turns SO_REUSEPORT on: a second server on the same port would then silently share
    // its requests. Off, so it fails to start instead. Not development: no Bun error pages.
    // Bun's body cap (128 MB by default) follows the upload limit (http/body-limit.ts).
    app = createApp(deps as Deps).listen({
      port: config.port,
      hostname: config.host,
      reusePort: false,
      development: false,
      maxRequestBodySize: serverBodyCeiling(config),
    })
  } catch (error) {
    await shutdown()
    throw error
  }
  const port = app.server!.port!
  const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host
  return {
    deps: deps as Deps,
    url: `http://${host}:${port}`,
    port,
    catalog,
    stop: () => shutdown(app),
  }
}
