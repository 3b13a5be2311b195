// The server as its own process (`bun src/main.ts`), for tests that kill it (kill -9) or start a
// second one on the same folders.
import { join } from 'node:path'
import type { Subprocess } from 'bun'
import { TEST_PASSWORD } from './server.ts'

const MAIN = join(import.meta.dir, '..', '..', 'src', 'main.ts')

export type ChildServer = {
  proc: Subprocess<'ignore', 'pipe', 'pipe'>
  url: string
  /** A session cookie header value for the admin password. */
  login(): Promise<string>
}

/** The URL a server in its own process prints once it listens. */
export async function listeningUrl(stream: ReadableStream<Uint8Array>): Promise<string> {
  let text = ''
  for await (const chunk of stream) {
    text += new TextDecoder().decode(chunk)
    const match = /listening on (http:\/\/\S+)/.exec(text)
    if (match) return match[1]!
  }
  throw new Error(`server exited before listening: ${text}`)
}

/**
 * The child's command line for the folders under `root` (data/, content/), with the test
 * password unless `extra` says otherwise (flags given later win).
 */
export function childArgs(root: string, extra: string[] = [], password = true): string[] {
  return [
    process.execPath,
    MAIN,
    ...['--port', '0', '--host', '127.0.0.1'],
    ...(password ? ['--password', TEST_PASSWORD] : []),
    ...['--watch', 'false', '--log-level', 'silent'],
    ...['--data-dir', join(root, 'data'), '--content-dir', join(root, 'content')],
    ...extra,
  ]
}

/** Starts the server in a child process (the test's environment, or `env`) and waits until it listens. */
export async function spawnServer(
  root: string,
  extra: string[] = [],
  env?: Record<string, string | undefined>,
): Promise<ChildServer> {
  const proc = Bun.spawn(childArgs(root, extra), {
    ...(env ? { env } : {}),
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  })
  let url: string
  try {
    url = await listeningUrl(proc.stdout)
  } catch (error) {
    proc.kill('SIGKILL')
    throw new Error(`${(error as Error).message} ${await new Response(proc.stderr).text()}`)
  }
  return {
    proc,
    url,
    async login() {
      const res = await fetch(`${url}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ password: TEST_PASSWORD }),
      })
      if (res.status !== 200) throw new Error(`login failed: ${res.status}`)
      return res.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ')
    },
  }
}
