// The plugin sandbox costs nothing until a plugin runs: a server started on a library whose
// plugins are registered already spawns no sandbox process, and the first run starts one.
import { describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { makeCbz } from '../helpers/fixtures.ts'
import { sandboxPids } from '../helpers/plugins.ts'
import { startTestServer } from '../helpers/server.ts'

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
        await first.deps.plugins.registry.ready()
      }
      const before = new Set(sandboxPids())
      await using again = await startTestServer({ root })
      await again.deps.plugins.registry.ready()
      const started = sandboxPids().filter((pid) => !before.has(pid))
      expect(started).toEqual([])

      // The archive is listed once the start's scan has catalogued it.
      await again.idle()
      const cookie = await again.login()
      const id = (await again.idsByTitle(cookie))['Some Title']
      const run = await again.json(`/api/plugins/use?plugin=metadata/filename&id=${id}`, {
        method: 'POST',
        cookie,
      })
      expect(run.status).toBe(200)
      const after = sandboxPids().filter((pid) => !before.has(pid))
      expect(after).toHaveLength(1)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})
