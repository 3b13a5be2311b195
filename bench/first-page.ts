// First page of a never-opened archive over HTTP, on a library of small CBZs (the side-by-side
// library: 4-16 JPEG pages of 640x905): p50/p95 per request, each archive asked once, sequentially.
// Run: bun bench/first-page.ts [archives=2000]
import { mkdtempSync, rmSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer } from '../src/boot.ts'
import { setLogLevel } from '../src/log.ts'
import { benchConfig, sessionCookie } from './bench-server.ts'
import { writeSmallLibrary } from './small-library.ts'

const ARCHIVES = Number(process.argv[2] ?? 2000)
setLogLevel('error')

const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? NaN

const root = mkdtempSync(join(tmpdir(), 'tankobun-bench-first-'))
try {
  const content = join(root, 'content')
  mkdirSync(content, { recursive: true })
  await writeSmallLibrary(content, ARCHIVES)
  const server = await startServer(benchConfig(root, content))
  try {
    await server.contentSync.idle()
    // Covers are made in the background after the scan: let them finish so they do not compete.
    for (let i = 0; i < 600; i++) {
      const active = server.deps.jobs
        .list()
        .some((j) => j.state === 'queued' || j.state === 'active')
      if (!active) break
      await Bun.sleep(500)
    }
    let cookie = await sessionCookie(server.url)
    const ids = (
      (await (await fetch(`${server.url}/api/archives`, { headers: { cookie } })).json()) as {
        arcid: string
      }[]
    ).map((a) => a.arcid)
    // The reader keeps the last opened archives: skip well past what scanning and covers touched.
    const measure = async (url: string, label: string) => {
      const times: number[] = []
      for (const id of ids.slice(0, Math.max(1, ids.length - 200))) {
        const started = performance.now()
        const res = await fetch(`${url}/api/archives/${id}/page?path=001.jpg`, {
          headers: { cookie },
        })
        await res.arrayBuffer()
        times.push(performance.now() - started)
        if (res.status !== 200) throw new Error(`page answered ${res.status}`)
      }
      console.log(
        `first page of a never-opened archive (${label}), ${times.length} archives: ` +
          `p50 ${percentile(times, 0.5).toFixed(2)} ms, p95 ${percentile(times, 0.95).toFixed(2)} ms`,
      )
    }
    await measure(server.url, 'warm process')
    // A restarted server: nothing opened, nothing compiled, the SQLite cache empty.
    await server.stop()
    const restarted = await startServer(benchConfig(root, content))
    try {
      cookie = await sessionCookie(restarted.url)
      await measure(restarted.url, 'restarted process')
    } finally {
      await restarted.stop()
    }
  } finally {
    await server.stop()
  }
} finally {
  rmSync(root, { recursive: true, force: true })
}
