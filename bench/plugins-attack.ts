// The server under twelve hostile plugins at once (`bun bench/plugins-attack.ts [archives=2000]
// [seconds=20]`): /api/search latency quiet and under attack, Run Automatically throughput of the
// ComicInfo.xml plugin under attack, and the sandbox processes' memory after it.
//
// The hostile plugins are sideloaded script plugins built from test/sandbox/fixtures/hostile/ and
// a few more (CPU spins, log floods, large results, 31 MB bodies from a local fake site); each is
// run again and again through POST /api/plugins/use by its own client loop for the attack's length.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  benchConfig,
  enablePlugin,
  sandboxPidsOf,
  sessionCookie,
  spawnServer,
} from './bench-server.ts'
import { writeComicInfoLibrary } from './comicinfo-library.ts'

const ARCHIVES = Number(process.argv[2] ?? 2000)
const ATTACK_SECONDS = Number(process.argv[3] ?? 20)
/** Only these hostile plugins (comma-separated stems), to find which one costs what. */
const ONLY = process.argv[4]?.split(',')
const MB = 1024 * 1024

const fixtures = join(import.meta.dir, '..', 'test', 'sandbox', 'fixtures', 'hostile')
const fixture = (name: string) => readFileSync(join(fixtures, `${name}.ts`), 'utf8')

/** Twelve hostile runScript bodies, by plugin stem. `SITE` is the fake site's origin. */
function hostilePlugins(site: string): Record<string, string> {
  return {
    wasm: fixture('wasm-memory'),
    resizable: fixture('resizable-buffer'),
    sleeps: fixture('pending-sleeps'),
    near_limit: fixture('body-near-limit').replace('https://big.example/body', `${site}/big`),
    big_bodies: `export async function runScript() {
      let n = 0
      for (let i = 0; i < 20; i++) n += (await (await fetch('${site}/big')).bytes()).length
      return n
    }`,
    cpu: 'export function runScript() { for (;;) {} }',
    async_loop: 'export async function runScript() { await sleep(1); for (;;) {} }',
    heap: 'export function runScript() { const a = []; for (;;) a.push("x".repeat(1024) + a.length) }',
    logs: 'export function runScript() { for (let i = 0; i < 1e6; i++) console.log("flood " + i) }',
    result: 'export function runScript() { return "x".repeat(7 * 1024 * 1024) }',
    fetch_flood: `export async function runScript() {
      const calls = []
      for (let i = 0; i < 1000; i++) calls.push(fetch('${site}/small').catch(() => 0))
      return (await Promise.all(calls)).length
    }`,
    never: 'export function runScript() { return new Promise(() => {}) }',
  }
}

/** A sideloaded script plugin: the hostile body and a manifest allowing the fake site. */
function pluginFile(stem: string, body: string): string {
  return `${body}
export function pluginInfo() {
  return { name: 'hostile ${stem}', type: 'script', version: '1', hosts: ['127.0.0.1'] }
}
`
}

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0
}
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')

/** Resident memory of the server's sandbox processes, in MB, and how many there are. */
function sandboxMemory(serverPid: number): { processes: number; mb: number } {
  let kb = 0
  const pids = sandboxPidsOf(serverPid)
  for (const pid of pids)
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0)
    } catch {
      // Gone between the listing and the read.
    }
  return { processes: pids.length, mb: Math.round(kb / 1024) }
}

const bigBody = new Uint8Array(31 * MB).fill(7)
const site = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch: (req) =>
    new Response(new URL(req.url).pathname === '/big' ? bigBody : 'small', {
      headers: { 'content-type': 'application/octet-stream' },
    }),
})
const origin = `http://127.0.0.1:${site.port}`

const root = mkdtempSync(join(tmpdir(), 'tankobun-bench-attack-'))
const content = join(root, 'content')
mkdirSync(content, { recursive: true })
const scripts = join(root, 'data', 'plugins', 'custom', 'script')
mkdirSync(scripts, { recursive: true })
const hostile = hostilePlugins(origin)
for (const [stem, body] of Object.entries(hostile))
  writeFileSync(join(scripts, `${stem}.ts`), pluginFile(stem, body))

const server = await spawnServer(benchConfig(root, content), [
  '--fetch-allow-private',
  `127.0.0.1:${site.port}`,
])
try {
  const cookie = await sessionCookie(server.url)
  const call = (path: string, init: RequestInit = {}) =>
    fetch(server.url + path, { ...init, headers: { cookie, 'content-type': 'application/json' } })
  await enablePlugin(server.url, cookie, 'metadata/comicinfo')

  // A library to search: the first half catalogued and tagged before anything is measured.
  await writeComicInfoLibrary(content, ARCHIVES, 'quiet bench', 'Quiet')
  const untilTagged = async (series: string, count: number, searches: number[]) => {
    const started = performance.now()
    for (;;) {
      const t = performance.now()
      const res = await call(`/api/search?filter=${encodeURIComponent(`series:${series}$`)}`)
      searches.push(performance.now() - t)
      const found =
        res.status === 200 ? ((await res.json()) as { recordsFiltered: number }).recordsFiltered : 0
      if (res.status !== 200) await res.body?.cancel()
      if (found >= count) return (performance.now() - started) / 1000
      if (performance.now() - started > 20 * 60_000) throw new Error(`stuck at ${found}`)
      await Bun.sleep(50)
    }
  }
  const rescan = () => call('/api/shinobu/rescan', { method: 'POST' })
  await rescan()
  const quietRunSearches: number[] = []
  const quietSeconds = await untilTagged('quiet bench', ARCHIVES, quietRunSearches)
  console.log(
    `Run Automatically, quiet: ${ARCHIVES} archives in ${quietSeconds.toFixed(1)} s, ` +
      `${(ARCHIVES / quietSeconds).toFixed(0)} archives/s (load ${load()})`,
  )

  const searchFor = async (seconds: number): Promise<number[]> => {
    const samples: number[] = []
    const end = performance.now() + seconds * 1000
    let i = 0
    while (performance.now() < end) {
      const filter = encodeURIComponent(`writer:writer ${i++ % 50}`)
      const t = performance.now()
      const res = await call(`/api/search?filter=${filter}&start=0`)
      await res.arrayBuffer()
      samples.push(performance.now() - t)
      await Bun.sleep(20)
    }
    return samples
  }
  const quiet = await searchFor(5)
  console.log(
    `/api/search quiet: p50 ${percentile(quiet, 0.5).toFixed(1)} ms, p95 ` +
      `${percentile(quiet, 0.95).toFixed(1)} ms (${quiet.length} requests, load ${load()})`,
  )
  console.log(`sandbox before the attack: ${JSON.stringify(sandboxMemory(server.pid))}`)

  // The attack: one client loop per hostile plugin, each running it again as soon as it ends.
  let attacking = true
  const outcomes: Record<string, number> = {}
  const attackers = Object.keys(hostile).filter((stem) => !ONLY || ONLY.includes(stem))
  const loops = attackers.map(async (stem) => {
    while (attacking) {
      try {
        const res = await call(`/api/plugins/use?plugin=custom/script/${stem}`, { method: 'POST' })
        outcomes[res.status] = (outcomes[res.status] ?? 0) + 1
        await res.arrayBuffer()
      } catch {
        // A run that waits out its 30 s outlives the server's idle timeout for the connection.
        outcomes.closed = (outcomes.closed ?? 0) + 1
      }
    }
  })
  await Bun.sleep(2000)
  const attacked = await searchFor(ATTACK_SECONDS)
  console.log(
    `/api/search under ${loops.length} hostile plugins: p50 ${percentile(attacked, 0.5).toFixed(1)} ms, ` +
      `p95 ${percentile(attacked, 0.95).toFixed(1)} ms (${attacked.length} requests, ` +
      `${(percentile(attacked, 0.95) / percentile(quiet, 0.95)).toFixed(1)}x the quiet p95, load ${load()})`,
  )
  console.log(`sandbox during the attack: ${JSON.stringify(sandboxMemory(server.pid))}`)

  await writeComicInfoLibrary(content, ARCHIVES, 'attack bench', 'Attack')
  await rescan()
  const attackRunSearches: number[] = []
  const attackSeconds = await untilTagged('attack bench', ARCHIVES, attackRunSearches)
  console.log(
    `Run Automatically under attack: ${ARCHIVES} archives in ${attackSeconds.toFixed(1)} s, ` +
      `${(ARCHIVES / attackSeconds).toFixed(0)} archives/s (load ${load()})`,
  )
  attacking = false
  await Promise.all(loops)
  console.log(`hostile runs answered, by status: ${JSON.stringify(outcomes)}`)
  await Bun.sleep(3000)
  console.log(`sandbox 3 s after the attack: ${JSON.stringify(sandboxMemory(server.pid))}`)
} finally {
  await server.stop()
  site.stop(true)
  rmSync(root, { recursive: true, force: true })
}
