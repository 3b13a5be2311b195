// First page of a never-opened archive over HTTP, on a library of small CBZs (the side-by-side
// library: 4-16 JPEG pages of 640x905): p50/p95 per request, each archive asked once, sequentially.
// Run: bun bench/first-page.ts [archives=2000]
import { mkdtempSync, rmSync, mkdirSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { startServer } from '../src/boot.ts'
import { setLogLevel } from '../src/log.ts'
import { buildZip } from '../test/helpers/fixtures.ts'
import { benchConfig, sessionCookie } from './bench-server.ts'

const ARCHIVES = Number(process.argv[2] ?? 2000)
setLogLevel('error')

const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? NaN

async function page(seed: number): Promise<Uint8Array> {
  const noise = { type: 'gaussian' as const, mean: 90 + seed * 7, sigma: 25 }
  const create = { width: 640, height: 905, channels: 3 as const, background: '#000', noise }
  return new Uint8Array(await sharp({ create }).jpeg({ quality: 75 }).toBuffer())
}

const root = mkdtempSync(join(tmpdir(), 'tankobun-bench-first-'))
try {
  const content = join(root, 'content')
  mkdirSync(content, { recursive: true })
  const distinct = await Promise.all(Array.from({ length: 16 }, (_, i) => page(i)))
  for (let a = 0; a < ARCHIVES; a++) {
    const count = 4 + (a % 13)
    const entries = [
      { name: 'id.txt', data: new TextEncoder().encode(`archive ${a}`) },
      ...Array.from({ length: count }, (_, i) => ({
        name: `${String(i + 1).padStart(3, '0')}.jpg`,
        data: distinct[(a + i) % 16]!,
      })),
    ]
    await writeFile(join(content, `Archive ${String(a).padStart(5, '0')}.cbz`), buildZip(entries))
  }
  const server = await startServer(benchConfig(root, content))
  try {
    await server.catalog.idle()
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
