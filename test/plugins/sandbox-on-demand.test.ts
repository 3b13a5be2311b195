// The plugin sandbox costs nothing until a plugin runs: a server started on a library whose
// plugins are registered already spawns no sandbox process, and the first run starts one.
import { describe, expect, it } from 'bun:test'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { makeCbz } from '../helpers/fixtures.ts'
import { startTestServer } from '../helpers/server.ts'

/** Sandbox processes whose parent is this test process (every test server lives in it). */
function sandboxPids(): Set<number> {
  const pids = new Set<number>()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8')
      const ppid = Number(readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]?.split(' ')[1])
      if (cmd.includes('sandbox/main.ts') && ppid === process.pid) pids.add(Number(name))
    } catch {}
  }
  return pids
}

describe('the plugin sandbox on demand', () => {
  it('is not started by a restart, only by the first plugin run', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tankobun-on-demand-'))
    try {
      {
        await using first = await startTestServer({
          root,
          beforeStart: async (dir) => {
            await makeCbz(join(dir, 'Some Title.cbz'))
          },
        })
        await first.deps.plugins.ready()
      }
      const before = sandboxPids()
      await using again = await startTestServer({ root })
      await again.deps.plugins.ready()
      const started = [...sandboxPids()].filter((pid) => !before.has(pid))
      expect(started).toEqual([])

      const cookie = await again.login()
      const id = (await again.idsByTitle(cookie))['Some Title']
      const run = await again.json(`/api/plugins/use?plugin=metadata/filename&id=${id}`, {
        method: 'POST',
        cookie,
      })
      expect(run.status).toBe(200)
      const after = [...sandboxPids()].filter((pid) => !before.has(pid))
      expect(after).toHaveLength(1)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})
