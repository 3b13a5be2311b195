// What every bench script needs from a server: the in-process configuration (port 0, no watcher,
// quiet logs) and a session cookie, so the scripts measure their own subject and nothing else.
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
