// The generated admin password of a first start that failed (a taken port) is shown by the next
// start that serves, once, and logs in; the start after that shows none.
import { describe, expect, it } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { childArgs } from '../helpers/child-server.ts'

/** Runs a start without a password; answers its stdout up to the listening line, or all of it. */
async function startOnce(root: string, port: number) {
  const proc = Bun.spawn(childArgs(root, ['--port', String(port)], false), {
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  })
  let out = ''
  for await (const chunk of proc.stdout) {
    out += new TextDecoder().decode(chunk)
    if (/listening on (http:\/\/\S+)/.test(out)) break
  }
  const url = /listening on (http:\/\/\S+)/.exec(out)?.[1]
  const password = /generated admin password \(shown once\): (\S+)/.exec(out)?.[1]
  return { proc, out, url, password }
}

describe('the generated admin password', () => {
  it('is shown by the first start that serves when the first start failed', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tankobun-first-start-'))
    const taken = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') })
    try {
      mkdirSync(join(root, 'content'), { recursive: true })
      const failed = await startOnce(root, taken.port!)
      expect(await failed.proc.exited).toBe(1)
      expect(failed.url).toBeUndefined()

      const served = await startOnce(root, 0)
      try {
        expect(served.url).toBeDefined()
        expect(served.password).toBeDefined()
        const login = await fetch(`${served.url}/api/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ password: served.password }),
        })
        expect(login.status).toBe(200)
      } finally {
        served.proc.kill('SIGTERM')
        await served.proc.exited
      }

      const later = await startOnce(root, 0)
      try {
        expect(later.url).toBeDefined()
        expect(later.password).toBeUndefined()
      } finally {
        later.proc.kill('SIGTERM')
        await later.proc.exited
      }
    } finally {
      taken.stop(true)
      rmSync(root, { recursive: true, force: true })
    }
  }, 60_000)
})
