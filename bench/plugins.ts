// Plugin sandbox round trips: the cold start (Node 24 child + first isolate), a warm trivial call
// (fresh isolate + module + call + IPC both ways), one with a bridged fetch, and a few in flight;
// then Run Automatically with the ComicInfo.xml plugin over N catalogued archives.
import { createSandboxHost } from '../src/plugins/host.ts'

const RUNS = Number(process.argv[2] ?? 200)
const body = new TextEncoder().encode('{"ok":true}')
const host = createSandboxHost({
  fetch: async (url) => ({ status: 200, headers: [], url, body }),
})
const ctx = { args: {}, oneshot: null }
const trivial = { source: 'export function runScript() { return { data: 1 } }', ctx }
const fetching = {
  source: `export async function runScript() {
    const r = await fetch('https://example.com/'); return { data: await r.json() }
  }`,
  ctx,
}

function percentile(samples: number[], p: number): string {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!.toFixed(2)
}

async function timeRuns(label: string, run: () => Promise<unknown>): Promise<void> {
  const samples: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now()
    await run()
    samples.push(performance.now() - t)
  }
  console.log(`${label}: p50 ${percentile(samples, 0.5)} ms, p90 ${percentile(samples, 0.9)} ms`)
}

let t = performance.now()
await host.run({ ...trivial, entry: 'runScript' })
console.log(`cold start (spawn Node 24 + first run): ${(performance.now() - t).toFixed(1)} ms`)

await timeRuns('warm trivial run', () => host.run({ ...trivial, entry: 'runScript' }))
await timeRuns('warm run with one bridged fetch', () =>
  host.run({ ...fetching, entry: 'runScript' }),
)

t = performance.now()
await Promise.all(Array.from({ length: RUNS }, () => host.run({ ...trivial, entry: 'runScript' })))
const elapsed = performance.now() - t
console.log(`${RUNS} trivial runs at once: ${((RUNS / elapsed) * 1000).toFixed(0)} runs/s`)
await host.close()

// Run Automatically at scale: the ComicInfo.xml plugin (plugins/metadata/comicinfo.ts) enabled on a
// server in its own process, then N small CBZs with a ComicInfo.xml catalogued by a rescan; timed
// until search finds every archive by the plugin's tag, with /api/search timed meanwhile.
const ARCHIVES = Number(process.argv[3] ?? 10_000)
if (ARCHIVES > 0) await autoRunBench(ARCHIVES)

/** User + system CPU of a process so far, in ms (Linux /proc; clock ticks are 10 ms). */
function processCpuMs(pid: number): number {
  const { readFileSync } = require('node:fs') as typeof import('node:fs')
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10
}

/** CPU of the server's plugin sandbox processes, 0 before one starts. */
function sandboxCpuMs(serverPid: number, sandboxPidsOf: (pid: number) => number[]): number {
  let total = 0
  for (const pid of sandboxPidsOf(serverPid))
    try {
      total += processCpuMs(pid)
    } catch {
      // The process ended between the listing and the read.
    }
  return total
}

async function autoRunBench(count: number): Promise<void> {
  const { mkdtempSync, mkdirSync, rmSync } = await import('node:fs')
  const { tmpdir, loadavg } = await import('node:os')
  const { join } = await import('node:path')
  const { writeComicInfoLibrary } = await import('./comicinfo-library.ts')
  const { benchConfig, enablePlugin, sandboxPidsOf, sessionCookie, spawnServer } =
    await import('./bench-server.ts')

  const root = mkdtempSync(join(tmpdir(), 'tankobun-bench-autorun-'))
  const content = join(root, 'content')
  mkdirSync(content, { recursive: true })
  const server = await spawnServer(benchConfig(root, content))
  try {
    const cookie = await sessionCookie(server.url)
    const call = (path: string, init: RequestInit = {}) =>
      fetch(server.url + path, { ...init, headers: { cookie, 'content-type': 'application/json' } })
    await enablePlugin(server.url, cookie, 'metadata/comicinfo')
    await writeComicInfoLibrary(content, count, 'autorun bench')

    const cpuBefore = {
      server: processCpuMs(server.pid),
      sandbox: sandboxCpuMs(server.pid, sandboxPidsOf),
    }
    const started = performance.now()
    const rescan = await call('/api/shinobu/rescan', { method: 'POST' })
    if (!rescan.ok) throw new Error(`rescan failed: ${rescan.status}`)
    const searchTimes: number[] = []
    /** When each search was sent (epoch ms), to split them by whether the rescan still ran. */
    const searchAt: number[] = []
    let tagged = 0
    while (tagged < count) {
      const t = performance.now()
      searchAt.push(Date.now())
      const res = await call(
        `/api/search?filter=${encodeURIComponent('series:autorun bench$')}&start=0`,
      )
      searchTimes.push(performance.now() - t)
      if (res.status === 200)
        tagged = ((await res.json()) as { recordsFiltered: number }).recordsFiltered
      else await res.body?.cancel()
      if (performance.now() - started > 30 * 60_000) throw new Error(`stuck at ${tagged} tagged`)
      await Bun.sleep(50)
    }
    const seconds = (performance.now() - started) / 1000
    const serverCpu = processCpuMs(server.pid) - cpuBefore.server
    const sandboxCpu = sandboxCpuMs(server.pid, sandboxPidsOf) - cpuBefore.sandbox
    const perArchive = (ms: number) => `${(ms / count).toFixed(2)} ms`
    console.log(
      `comicinfo auto-run over ${count} archives (scan included): ${seconds.toFixed(1)} s, ` +
        `${(count / seconds).toFixed(0)} archives/s; /api/search meanwhile p50 ` +
        `${percentile(searchTimes, 0.5)} ms, p95 ${percentile(searchTimes, 0.95)} ms ` +
        `(${searchTimes.length} requests); load average ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}`,
    )
    console.log(
      `  CPU per archive: server ${perArchive(serverCpu)} (scan, covers, jobs, entry reads, ` +
        `writes, index, HTTP), sandbox ${perArchive(sandboxCpu)}`,
    )
    // Where the wall clock went, from the server's own job rows (read once it is idle).
    const { Database } = await import('bun:sqlite')
    const db = new Database(join(root, 'data', 'db.sqlite'), { readonly: true })
    const spans = db
      .query(
        `SELECT name, count(*) AS jobs, sum(finished_at - started_at) AS busy,
           min(started_at) AS first, max(finished_at) AS last
         FROM jobs WHERE finished_at IS NOT NULL GROUP BY name`,
      )
      .all() as { name: string; jobs: number; busy: number; first: number; last: number }[]
    const scanEnd = (
      db.query(`SELECT max(finished_at) AS last FROM jobs WHERE name = 'rescan'`).get() as {
        last: number | null
      }
    ).last
    db.close()
    if (scanEnd !== null) {
      const during = searchTimes.filter((_, i) => searchAt[i]! <= scanEnd)
      const after = searchTimes.filter((_, i) => searchAt[i]! > scanEnd)
      const split = (label: string, samples: number[]) =>
        samples.length === 0
          ? `${label} none`
          : `${label} p50 ${percentile(samples, 0.5)} / p95 ${percentile(samples, 0.95)} ms ` +
            `(${samples.length})`
      console.log(
        `  /api/search ${split('while the rescan ran', during)}, ${split('after it', after)}`,
      )
    }
    for (const span of spans)
      console.log(
        `  ${span.name}: ${span.jobs} job(s), ${(span.busy / 1000).toFixed(1)} s running, ` +
          `${((span.last - span.first) / 1000).toFixed(1)} s from first start to last end` +
          (span.name === 'plugin_exec'
            ? ` (${(count / ((span.last - span.first) / 1000)).toFixed(0)} archives/s over that span)`
            : ''),
      )
  } finally {
    await server.stop()
    rmSync(root, { recursive: true, force: true })
  }
}
