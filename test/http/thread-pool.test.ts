// The server runs with a thread pool of 16 whatever its environment says (README, Configuration):
// started without UV_THREADPOOL_SIZE it replaces itself (same pid) with the variable set, and
// under concurrent page reads its pool grows past the core count Bun would otherwise use. A value
// the user set is kept. Counted from /proc: Bun names its pool threads "Bun Pool N".
import { describe, expect, it } from 'bun:test'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildZip, makeJpeg, type Entry } from '../helpers/fixtures.ts'
import { spawnServer, type ChildServer } from '../helpers/child-server.ts'

/** Threads of the process Bun runs file reads and image work on. */
function poolThreads(pid: number): number {
  return readdirSync(`/proc/${pid}/task`).filter((task) => {
    try {
      return readFileSync(`/proc/${pid}/task/${task}/comm`, 'utf8').startsWith('Bun Pool')
    } catch {
      return false // the thread ended meanwhile
    }
  }).length
}

const environOf = (pid: number) => readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')

/** Reads every page at once, `rounds` times or until `enough` says so; answers the largest pool. */
async function readPagesAtOnce(
  child: ChildServer,
  pages: Entry[],
  rounds: number,
  enough: (threads: number) => boolean = () => false,
): Promise<number> {
  const cookie = await child.login()
  const [archive] = (await (
    await fetch(`${child.url}/api/archives`, { headers: { cookie } })
  ).json()) as { arcid: string }[]
  let most = 0
  for (let round = 0; round < rounds && !enough(most); round++) {
    await Promise.all(
      pages.map((page) =>
        fetch(`${child.url}/api/archives/${archive!.arcid}/page?path=${page.name}`, {
          headers: { cookie },
        }).then((res) => res.arrayBuffer()),
      ),
    )
    most = Math.max(most, poolThreads(child.proc.pid))
  }
  return most
}

describe('the thread pool', () => {
  it("is 16 when the environment does not say, and the user's size when it does", async () => {
    const root = mkdtempSync(join(tmpdir(), 'tankobun-pool-'))
    try {
      mkdirSync(join(root, 'content'), { recursive: true })
      const pages: Entry[] = []
      for (let i = 0; i < 40; i++) {
        const jpeg = await makeJpeg(8, 8, i)
        const data = new Uint8Array(jpeg.length + 2 * 1024 * 1024)
        data.set(jpeg)
        pages.push({ name: `${String(i + 1).padStart(3, '0')}.jpg`, data })
      }
      await Bun.write(join(root, 'content', 'Big pages.cbz'), buildZip(pages))
      const { UV_THREADPOOL_SIZE: _, ...unset } = process.env

      const child = await spawnServer(root, [], unset)
      try {
        expect(environOf(child.proc.pid)).toContain('UV_THREADPOOL_SIZE=16')
        // Without it Bun's pool is as large as the core count; checked where that is below 16.
        const cores = availableParallelism()
        const most = await readPagesAtOnce(child, pages, 10, (threads) => threads > cores)
        if (cores < 16) expect(most).toBeGreaterThan(cores)
        expect(most).toBeLessThanOrEqual(16)
      } finally {
        child.proc.kill('SIGTERM')
        await child.proc.exited
      }

      const set = await spawnServer(root, [], { ...unset, UV_THREADPOOL_SIZE: '3' })
      try {
        expect(environOf(set.proc.pid)).toContain('UV_THREADPOOL_SIZE=3')
        expect(await readPagesAtOnce(set, pages, 3)).toBeLessThanOrEqual(3)
      } finally {
        set.proc.kill('SIGTERM')
        await set.proc.exited
      }
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 60_000)
})
