// A restore cut by a crash (the server process killed with SIGKILL once some of its slices are
// written): the next start writes the same document again, so the library ends fully restored,
// never half.
import { describe, expect, it } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawnServer } from '../helpers/child-server.ts'
import { startTestServer, type Wire } from '../helpers/server.ts'

const CATEGORIES = 20_000

function bigDocument(): string {
  const categories = Array.from({ length: CATEGORIES }, (_, i) => ({
    catid: `SET_${1_600_000_000 + i}`,
    name: `Restored ${i}`,
    search: '',
    archives: [],
  }))
  return JSON.stringify({ archives: [], categories, tankoubons: [] })
}

/** The document's categories (a first start also makes LANraragi's Favorites). */
const restored = (categories: Wire[]) =>
  categories.filter((category) => String(category.name).startsWith('Restored '))

describe('a restore cut by a crash', () => {
  it('is written again, whole, at the next start', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tankobun-restore-crash-'))
    try {
      mkdirSync(join(root, 'content'), { recursive: true })
      const child = await spawnServer(root)
      let seen = 0
      try {
        const cookie = await child.login()
        const form = new FormData()
        form.set('file', new File([bigDocument()], 'backup.json'))
        const res = await fetch(`${child.url}/api/database/restore`, {
          method: 'POST',
          headers: { cookie },
          body: form,
        })
        expect(res.status).toBe(200)
        // Killed once the first slices are in, before the last.
        for (let waited = 0; waited < 60_000 && seen === 0; waited += 10) {
          const list = await fetch(`${child.url}/api/categories`, { headers: { cookie } })
          seen = restored((await list.json()) as Wire[]).length
          if (seen === 0) await Bun.sleep(10)
        }
      } finally {
        child.proc.kill('SIGKILL')
        await child.proc.exited
      }
      expect(seen).toBeGreaterThan(0)
      expect(seen).toBeLessThan(CATEGORIES)

      await using app = await startTestServer({ root })
      const cookie = await app.login()
      await app.jobsDone()
      const jobs = app.deps.jobs.list().filter((job) => job.name === 'restore')
      expect(jobs.map((job) => job.state).sort()).toEqual(['failed', 'finished'])
      const categories = (await app.json('/api/categories', { cookie })).body as Wire[]
      expect(restored(categories)).toHaveLength(CATEGORIES)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 120_000)
})
