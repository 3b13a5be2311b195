// Cover generation on the side-by-side library: covers made after ingest, then
// `POST /api/regen_thumbs?force=1` over every archive, in covers/s; optionally 1400x2000 pages.
// Run: bun bench/covers.ts [archives=2000] [--large]
import { mkdtempSync, rmSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer, type Server } from '../src/boot.ts'
import { setLogLevel } from '../src/log.ts'
import { benchConfig, sessionCookie } from './bench-server.ts'
import { writeSmallLibrary } from './small-library.ts'

const ARCHIVES = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 2000)
const LARGE = process.argv.includes('--large')
setLogLevel('error')

async function waitForJobs(server: Server): Promise<void> {
  for (;;) {
    const live = server.deps.jobs
      .list()
      .some((job) => job.state === 'queued' || job.state === 'active')
    if (!live) return
    await Bun.sleep(50)
  }
}

const root = mkdtempSync(join(tmpdir(), 'tankobun-bench-covers-'))
try {
  const content = join(root, 'content')
  mkdirSync(content, { recursive: true })
  const size = LARGE ? { width: 1400, height: 2000 } : { width: 640, height: 905 }
  await writeSmallLibrary(content, ARCHIVES, size)
  const label = `${ARCHIVES} archives of ${size.width}x${size.height} pages`
  let started = performance.now()
  const server = await startServer(benchConfig(root, content))
  try {
    await server.contentSync.idle()
    const scanned = performance.now()
    await waitForJobs(server)
    const ingest = (performance.now() - scanned) / 1000
    console.log(`${label}: covers after ingest ${(ARCHIVES / ingest).toFixed(1)}/s`)
    const cookie = await sessionCookie(server.url)
    started = performance.now()
    const res = await fetch(`${server.url}/api/regen_thumbs?force=1`, {
      method: 'POST',
      headers: { cookie },
    })
    if (res.status !== 200) throw new Error(`regen_thumbs answered ${res.status}`)
    await waitForJobs(server)
    const secs = (performance.now() - started) / 1000
    console.log(
      `${label}: regen_thumbs force ${secs.toFixed(1)} s, ${(ARCHIVES / secs).toFixed(1)} covers/s`,
    )
  } finally {
    await server.stop()
  }
} finally {
  rmSync(root, { recursive: true, force: true })
}
