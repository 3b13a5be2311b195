// What one search answer costs end to end, in process and client included: p50 and p90 of
// GET /api/search (page 0) and GET /api/search/ids?start=-1, with the index's result cache
// cleared before each request, on a generated library; then the heap the kept hit JSON takes
// (http/wire-cache.ts). Prints figures; asserts nothing.
// Usage: bun bench/search-answer.ts [archives=2000] [runs=1000]
import { heapStats } from 'bun:jsc'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer } from '../src/boot.ts'
import { tx } from '../src/db/client.ts'
import { insertArchive } from '../src/db/repos/archives.repo.ts'
import { setLogLevel } from '../src/log.ts'
import { benchConfig, sessionCookie } from './bench-server.ts'

const ARCHIVES = Number(process.argv[2] ?? 2000)
const RUNS = Number(process.argv[3] ?? 1000)
setLogLevel('error')

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!

const root = mkdtempSync(join(tmpdir(), 'tankobun-bench-answer-'))
const server = await startServer(benchConfig(root), { announce: () => {} })
try {
  await server.contentSync.idle()
  const { deps } = server
  // Rows only: the answers read rows, never files. Written before the build, as a scan would.
  tx(deps.db, () => {
    for (let i = 0; i < ARCHIVES; i++) {
      const id = new Bun.CryptoHasher('sha1').update(`archive ${i}`).digest('hex')
      const title = `Volume ${i} of the series ${i % 97}`
      insertArchive(
        deps.db,
        {
          id,
          path: `d/${id}.cbz`,
          filename: title,
          extension: 'cbz',
          title,
          tags: [
            `artist:artist ${i % 211}`,
            `series:series ${i % 97}`,
            'language:english',
            `date_added:${1_700_000_000 + i}`,
          ].join(', '),
          summary: i % 3 === 0 ? `A summary of volume ${i}.` : '',
          isnew: i % 5 === 0,
          progress: i % 7,
          pagecount: 20 + (i % 180),
          lastreadtime: i % 4 === 0 ? 1_700_000_000 + i : 0,
          size: 1_000_000 + i,
          createdAt: 0,
        },
        [],
      )
    }
  })
  await deps.search.build()
  const cookie = await sessionCookie(server.url)

  /** `cold`: the kept hit JSON dropped too, as after a write to every archive of the page. */
  async function measure(path: string, cold = false): Promise<string> {
    const times: number[] = []
    let bytes = 0
    for (let i = 0; i < RUNS + 50; i++) {
      deps.search.clearCache()
      if (cold) deps.wireCache.clear()
      const started = performance.now()
      const res = await fetch(server.url + path, { headers: { cookie } })
      const body = await res.text()
      const elapsed = performance.now() - started
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`)
      bytes = body.length
      // The first requests warm the JIT and the caches a running server holds.
      if (i >= 50) times.push(elapsed)
    }
    times.sort((a, b) => a - b)
    const ms = (v: number) => v.toFixed(3).padStart(7)
    const [p50, p90] = [ms(percentile(times, 0.5)), ms(percentile(times, 0.9))]
    return `${(cold ? `${path} (cold)` : path).padEnd(28)} p50 ${p50} ms  p90 ${p90} ms  ${bytes} bytes`
  }

  console.log(`${ARCHIVES} archives, ${RUNS} runs each, search cache cleared before each request`)
  console.log(await measure('/api/search'))
  console.log(await measure('/api/search', true))
  console.log(await measure('/api/search/ids?start=-1'))

  // What the kept fragments cost: the heap with every hit kept, less the heap once they are let go.
  await (
    await fetch(`${server.url}/api/search?start=-1&groupby_tanks=false`, { headers: { cookie } })
  ).text()
  const { size, chars } = deps.wireCache
  Bun.gc(true)
  const kept = heapStats().heapSize
  deps.wireCache.clear()
  Bun.gc(true)
  const perEntry = Math.round((kept - heapStats().heapSize) / size)
  const each = Math.round(chars / size)
  console.log(`wire cache: ${size} hits of ${each} characters, ~${perEntry} bytes of heap each`)
} finally {
  await server.stop()
  rmSync(root, { recursive: true, force: true })
}
