// A split cut by a crash (the server process killed with SIGKILL between two outputs): the next
// start removes the outputs it had catalogued and their files, the original stays, and the same
// split then runs to its end.
import { describe, expect, it } from 'bun:test'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildZip, makeJpeg } from '../helpers/fixtures.ts'
import { spawnServer } from '../helpers/child-server.ts'
import { startTestServer, type Wire } from '../helpers/server.ts'

const PARTS = ['A', 'B', 'C', 'D']
const PAGES_PER_PART = 30
/** Stored bytes after each page's JPEG: enough that an output takes a while to write. */
const PADDING = new Uint8Array(1024 * 1024)

const outputs = PARTS.map((part, i) => ({
  name: `Part ${i + 1}`,
  pages: Array.from(
    { length: PAGES_PER_PART },
    (_, p) => `${part}/${String(p + 1).padStart(3, '0')}.jpg`,
  ),
}))

async function writeBigArchive(path: string): Promise<void> {
  const entries = []
  for (const [i, part] of PARTS.entries())
    for (let p = 0; p < PAGES_PER_PART; p++) {
      const jpeg = await makeJpeg(8, 8, i * 100 + p)
      const data = new Uint8Array(jpeg.length + PADDING.length)
      data.set(jpeg)
      entries.push({ name: `${part}/${String(p + 1).padStart(3, '0')}.jpg`, data })
    }
  await Bun.write(path, buildZip(entries))
}

const partFiles = (contentDir: string) =>
  readdirSync(contentDir).filter((name) => name.startsWith('Part '))

describe('a split cut by a crash', () => {
  it('has its outputs removed at the next start, and can run again', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tankobun-split-crash-'))
    try {
      const contentDir = join(root, 'content')
      mkdirSync(contentDir, { recursive: true })
      await writeBigArchive(join(contentDir, 'Big.cbz'))

      const child = await spawnServer(root)
      try {
        const cookie = await child.login()
        const list = (await (
          await fetch(`${child.url}/api/archives`, { headers: { cookie } })
        ).json()) as Wire[]
        const id = list.find((a) => a.title === 'Big')!.arcid as string
        const res = await fetch(`${child.url}/api/archives/${id}/split/execute`, {
          method: 'POST',
          headers: { cookie, 'content-type': 'application/json' },
          body: JSON.stringify({ outputs }),
        })
        expect(res.status).toBe(200)
        // Killed once the first output has its name (catalogued just before).
        for (let waited = 0; waited < 30_000; waited += 5) {
          if (partFiles(contentDir).length > 0) break
          await Bun.sleep(5)
        }
      } finally {
        child.proc.kill('SIGKILL')
        await child.proc.exited
      }
      // The kill landed mid-split: some outputs written, not all.
      const left = partFiles(contentDir)
      expect(left.length).toBeGreaterThan(0)
      expect(left.length).toBeLessThan(PARTS.length)

      await using app = await startTestServer({ root })
      const cookie = await app.login()
      await app.idle()
      const titles = Object.keys(await app.idsByTitle(cookie))
      expect(titles).toEqual(['Big'])
      expect(partFiles(contentDir)).toEqual([])
      expect(readdirSync(app.deps.config.tempDir).filter((n) => n.startsWith('split-'))).toEqual([])
      expect(existsSync(join(contentDir, 'Big.cbz'))).toBe(true)

      // The same split again: no "same file as archive" left in its way.
      const id = (await app.idsByTitle(cookie)).Big!
      const again = await app.json(`/api/archives/${id}/split/execute`, {
        method: 'POST',
        cookie,
        json: { outputs },
      })
      expect(again.status).toBe(200)
      const job = await app.deps.jobs.waitFor(again.body.job)
      expect(job.error).toBeNull()
      expect(job.state).toBe('finished')
      expect(partFiles(contentDir).sort()).toEqual(outputs.map((o) => `${o.name}.cbz`))
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 60_000)
})
