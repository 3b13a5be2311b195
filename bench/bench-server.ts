// What every bench script needs from a server: the in-process configuration (port 0, no watcher,
// quiet logs), a session cookie or an API token, and a server in its own process for scripts
// whose client must not share the server's event loop.
import { join } from 'node:path'
import { loadConfig, type Config } from '../src/config.ts'

/** The admin password of every bench server. */
export const BENCH_PASSWORD = 'bench'

/** A server config with its data under `root` and the given content folder. */
export function benchConfig(root: string, contentDir = join(root, 'content')): Config {
  return loadConfig({}, [], {
    port: 0,
    host: '127.0.0.1',
    dataDir: join(root, 'data'),
    contentDir,
    watch: false,
    password: BENCH_PASSWORD,
    logLevel: 'error',
  })
}

/** Logs in at `baseUrl` and answers the Cookie header value of the session. */
export async function sessionCookie(baseUrl: string, password = BENCH_PASSWORD): Promise<string> {
  const login = await fetch(`${baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ password }),
  })
  if (login.status !== 200) throw new Error(`bench login failed: ${login.status}`)
  return login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')
}

/** Creates an admin API token (`tkb_…`) through a session: what LANraragi clients are given. */
export async function adminToken(baseUrl: string, cookie: string, name = 'bench'): Promise<string> {
  const res = await fetch(`${baseUrl}/api/tokens`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ name, role: 'admin' }),
  })
  if (res.status !== 200) throw new Error(`bench token creation failed: ${res.status}`)
  return ((await res.json()) as { data: { token: string } }).data.token
}

/** A server started from `src/main.ts` in a child process. */
export type SpawnedServer = { url: string; pid: number; stop(): Promise<void> }

/**
 * Starts `src/main.ts` on `config`'s folders (a free port, no watcher, the bench password) in its
 * own process and resolves once it listens. The child inherits this process's niceness.
 */
export async function spawnServer(
  config: Config,
  extraArgs: string[] = [],
): Promise<SpawnedServer> {
  const child = Bun.spawn(
    [
      process.execPath,
      join(import.meta.dir, '..', 'src', 'main.ts'),
      ...['--port', '0', '--host', '127.0.0.1', '--watch', 'false', '--log-level', 'error'],
      ...['--data-dir', config.dataDir, '--content-dir', config.contentDir],
      ...['--password', config.password ?? BENCH_PASSWORD],
      ...extraArgs,
    ],
    // As `npm start` runs it: a thread pool that file reads need not share with every decode.
    {
      stdout: 'pipe',
      stderr: 'inherit',
      env: { ...process.env, UV_THREADPOOL_SIZE: process.env.UV_THREADPOOL_SIZE ?? '16' },
    },
  )
  // main.ts announces "Tankobun listening on http://host:port (...)" once it listens.
  const reader = child.stdout.getReader()
  let printed = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`bench server exited before listening: ${printed}`)
    printed += new TextDecoder().decode(value)
    const url = printed.match(/listening on (http:\/\/\S+)/)?.[1]
    if (url) {
      reader.releaseLock()
      // Keep draining its output so a chatty child never blocks on a full pipe.
      void child.stdout.pipeTo(new WritableStream()).catch(() => undefined)
      return {
        url,
        pid: child.pid,
        stop: async () => {
          child.kill('SIGTERM')
          await child.exited
        },
      }
    }
  }
}

/**
 * Turns Run Automatically on for `namespace` through the API, retrying while the server's
 * registry is still reading the plugins (it does that in the background after the start).
 */
export async function enablePlugin(
  baseUrl: string,
  cookie: string,
  namespace: string,
): Promise<void> {
  for (let tries = 0; ; tries++) {
    const res = await fetch(`${baseUrl}/api/plugins/settings?namespace=${namespace}`, {
      method: 'PUT',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ enabled: true }),
    })
    if (res.ok) return
    if (tries > 100) throw new Error(`enabling ${namespace} failed: ${res.status}`)
    await Bun.sleep(100)
  }
}

/** The pids of the sandbox processes (Node children running sandbox/main.ts) of `serverPid`. */
export function sandboxPidsOf(serverPid: number): number[] {
  const { readdirSync, readFileSync } = require('node:fs') as typeof import('node:fs')
  const pids: number[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      if (!readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('sandbox/main.ts')) continue
      const ppid = Number(readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]!.split(' ')[1])
      if (ppid === serverPid) pids.push(Number(name))
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return pids
}
