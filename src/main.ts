// Boot only: read config, start the server, stop cleanly on SIGINT/SIGTERM.
import './thread-pool.ts'
import './production-mode.ts'
import { ConfigError, helpText, invokedAs, loadConfig } from './config.ts'
import { createLogger, setLogLevel } from './log.ts'
import { startServer } from './boot.ts'
import { reasonOf, StartError } from './start-error.ts'

const argv = process.argv.slice(2)
if (argv.includes('--help') || argv.includes('-h')) {
  process.stdout.write(
    helpText(
      invokedAs({
        compiled: Bun.isStandaloneExecutable,
        argv0: process.argv0,
        script: process.argv[1],
        npmScript: process.env.npm_lifecycle_event,
        cwd: process.cwd(),
      }),
    ),
  )
  process.exit(0)
}

try {
  const config = loadConfig(process.env, argv)
  setLogLevel(config.logLevel)
  const server = await startServer(config)
  const log = createLogger('process')
  // The one plain line on stdout, whatever the level: where to point a browser.
  process.stdout.write(
    `Tankobun listening on ${server.url} (content: ${config.contentDir}, data: ${config.dataDir})\n`,
  )
  log.info('started', { url: server.url, content: config.contentDir, data: config.dataDir })
  // Stops in reverse start order (boot.ts): the watcher, the HTTP server, the sandbox, jobs
  // (told to abort, waited for), the workers, then SQLite. A second signal while stopping waits.
  let stopping: Promise<void> | null = null
  const shutdown = async (signal: string) => {
    if (!stopping) log.info('stopping', { signal })
    stopping ??= server.stop()
    await stopping
    log.info('stopped')
    process.exit(0)
  }
  process.on('SIGINT', shutdown)
  process.on('SIGTERM', shutdown)
  // Last line of defence: a stray rejected promise (a reader callback, a worker message) is a
  // logged bug, never the end of the server for every other reader.
  process.on('unhandledRejection', (reason) => {
    log.error('unhandled promise rejection', {
      error: reason instanceof Error ? reason.message : String(reason),
      stack: reason instanceof Error ? reason.stack : undefined,
    })
  })
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`tankobun: ${error.message}\n`)
    process.exit(2)
  }
  if (error instanceof StartError) {
    process.stderr.write(`tankobun: ${error.message}\n`)
    process.exit(1)
  }
  if ((error as NodeJS.ErrnoException)?.code === 'EADDRINUSE') {
    process.stderr.write(`tankobun: the port is already in use (${(error as Error).message})\n`)
    process.exit(1)
  }
  // Anything else: one line too (an uncaught error would print the bundled source around it);
  // the stack at the debug level.
  process.stderr.write(`tankobun: could not start: ${reasonOf(error)}\n`)
  createLogger('process').debug('start failed', {
    stack: error instanceof Error ? error.stack : undefined,
  })
  process.exit(1)
}
