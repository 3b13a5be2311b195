// Boot only: read config, start the server, stop cleanly on SIGINT/SIGTERM.
import { ConfigError, HELP, loadConfig } from './config.ts'
import { setLogLevel } from './log.ts'
import { startServer } from './boot.ts'

const argv = process.argv.slice(2)
if (argv.includes('--help') || argv.includes('-h')) {
  process.stdout.write(HELP)
  process.exit(0)
}

try {
  const config = loadConfig(process.env, argv)
  setLogLevel(config.logLevel)
  const server = await startServer(config)
  process.stdout.write(
    `Tankobun listening on ${server.url} (content: ${config.contentDir}, data: ${config.dataDir})\n`,
  )
  const shutdown = async () => {
    await server.stop()
    process.exit(0)
  }
  process.on('SIGINT', shutdown)
  process.on('SIGTERM', shutdown)
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`tankobun: ${error.message}\n`)
    process.exit(2)
  }
  throw error
}
