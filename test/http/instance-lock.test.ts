// One server per data folder: a second start on the same folder refuses with one clear line while
// the first lives, and a lock left by a killed server (SIGKILL) does not stop the next start.
import { describe, expect, it } from 'bun:test'
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { childArgs, spawnServer } from '../helpers/child-server.ts'
import { startTestServer } from '../helpers/server.ts'

describe('the data folder lock', () => {
  it('refuses a second server on the same data folder, and survives a kill -9', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tankobun-lock-'))
    try {
      mkdirSync(join(root, 'content'), { recursive: true })
      const first = await spawnServer(root)
      try {
        const second = Bun.spawn(childArgs(root), {
          stdin: 'ignore',
          stdout: 'pipe',
          stderr: 'pipe',
        })
        expect(await second.exited).toBe(1)
        expect(await new Response(second.stdout).text()).toBe('')
        const message = await new Response(second.stderr).text()
        expect(message).toBe(
          `tankobun: another Tankobun (pid ${first.proc.pid}) is using the data folder ${join(root, 'data')}; stop it first, or give this one its own --data-dir\n`,
        )
        // The first is untouched.
        expect((await fetch(`${first.url}/api/info`)).status).toBe(200)
      } finally {
        first.proc.kill('SIGKILL')
        await first.proc.exited
      }
      // The killed server's lock is still there; the next start takes it over.
      expect(existsSync(join(root, 'data', 'tankobun.lock'))).toBe(true)
      const next = await spawnServer(root)
      expect((await fetch(`${next.url}/api/info`)).status).toBe(200)
      next.proc.kill('SIGTERM')
      await next.proc.exited
      // A clean stop releases it.
      expect(existsSync(join(root, 'data', 'tankobun.lock'))).toBe(false)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 60_000)

  it('refuses a second server of the same process on one data folder', async () => {
    await using app = await startTestServer()
    await expect(startTestServer({ root: app.root })).rejects.toThrow(
      `another Tankobun (pid ${process.pid}) is using the data folder`,
    )
    // The refused start left the first one's lock in place.
    expect(existsSync(join(app.root, 'data', 'tankobun.lock'))).toBe(true)
    expect((await app.req('/api/info')).status).toBe(200)
  })
})
