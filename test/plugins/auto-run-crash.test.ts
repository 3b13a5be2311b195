// Run Automatically cut by a crash: the server process is killed (SIGKILL) while a batch of new
// archives waits on its plugin; the next start queues the batch again and every archive gets its
// tags.
import { describe, expect, it } from 'bun:test'
import { Database } from 'bun:sqlite'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { makeCbz } from '../helpers/fixtures.ts'
import { spawnServer } from '../helpers/child-server.ts'
import { startTestServer } from '../helpers/server.ts'

const ARCHIVES = 120

const SLOW_PLUGIN = `export function pluginInfo() {
  return { name: 'Slow', type: 'metadata', author: 'test', description: 'slow', version: '1.0' }
}
export async function execMetadata(ctx) {
  await sleep(150)
  return { tags: 'auto:tagged' }
}
`

/** Archives of the stopped server's database that carry the plugin's tag. */
function taggedInDatabase(root: string): number {
  const db = new Database(join(root, 'data', 'db.sqlite'), { readonly: true })
  try {
    const row = db
      .query("SELECT count(*) AS n FROM archives WHERE tags LIKE '%auto:tagged%'")
      .get() as { n: number }
    return row.n
  } finally {
    db.close()
  }
}

describe('a Run Automatically batch cut by a crash', () => {
  it('is queued again at the next start and tags every archive', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tankobun-auto-crash-'))
    try {
      const contentDir = join(root, 'content')
      mkdirSync(contentDir, { recursive: true })
      const metadata = join(root, 'data', 'plugins', 'custom', 'metadata')
      mkdirSync(metadata, { recursive: true })
      writeFileSync(join(metadata, 'slow.ts'), SLOW_PLUGIN)

      const child = await spawnServer(root)
      try {
        const cookie = await child.login()
        const post = (path: string, method = 'POST', json?: unknown) =>
          fetch(child.url + path, {
            method,
            headers: { cookie, 'content-type': 'application/json' },
            ...(json === undefined ? {} : { body: JSON.stringify(json) }),
          })
        const enabled = await post('/api/plugins/settings?namespace=custom/metadata/slow', 'PUT', {
          enabled: true,
        })
        expect(enabled.status).toBe(200)
        for (let i = 0; i < ARCHIVES; i++)
          await makeCbz(join(contentDir, `new ${i}.cbz`), { pages: 1, seed: 700 + i })
        expect((await post('/api/shinobu/rescan')).status).toBe(200)
        // Killed once the batch's first answers are written, before its last.
        for (let waited = 0; waited < 30_000; waited += 20) {
          const res = await fetch(`${child.url}/api/search?filter=auto:tagged&start=-1`, {
            headers: { cookie },
          })
          const body = (await res.json()) as { recordsFiltered: number }
          if (body.recordsFiltered > 0) break
          await Bun.sleep(20)
        }
      } finally {
        child.proc.kill('SIGKILL')
        await child.proc.exited
      }
      const tagged = taggedInDatabase(root)
      expect(tagged).toBeGreaterThan(0)
      expect(tagged).toBeLessThan(ARCHIVES)

      await using app = await startTestServer({ root })
      await app.idle()
      await app.jobsDone()
      expect(taggedInDatabase(root)).toBe(ARCHIVES)
      const cut = app.deps.jobs
        .list()
        .filter((job) => job.name === 'plugin_exec')
        .map((job) => [job.state, job.error === null])
      expect(cut).toContainEqual(['failed', false])
      expect(cut).toContainEqual(['finished', true])
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 60_000)
})
