// Thumbnails read and made while rescans keep refreshing archives (issue 26 §7: 1 ENOENT in 2,000
// thumbnails). Rounds of: touch half the archives' files (a rescan then drops their thumbnails
// and its covers job makes them again), rescan; meanwhile six readers ask covers, page 2
// thumbnails and OPDS covers in turn. Prints the answers by status and every failed thumbnail
// (job failures and `result.failed` entries): 500s and ENOENT failures should be none.
// Run: bun bench/thumbnails-under-rescan.ts [archives=200] [rounds=20]
import { mkdtempSync, rmSync, mkdirSync } from 'node:fs'
import { readdir, utimes } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer, type Server } from '../src/boot.ts'
import { setLogLevel } from '../src/log.ts'
import { benchConfig, sessionCookie } from './bench-server.ts'
import { writeSmallLibrary } from './small-library.ts'

const [ARCHIVES = 200, ROUNDS = 20] = process.argv
  .slice(2)
  .filter((a) => /^\d+$/.test(a))
  .map(Number)
const READERS = 6

setLogLevel('error')

async function waitForJobs(server: Server): Promise<void> {
  const live = () =>
    server.deps.jobs.list().some((job) => job.state === 'queued' || job.state === 'active')
  while (live()) await Bun.sleep(50)
}

const root = mkdtempSync(join(tmpdir(), 'tankobun-bench-thumbs-rescan-'))
try {
  const content = join(root, 'content')
  mkdirSync(content, { recursive: true })
  await writeSmallLibrary(content, ARCHIVES, { width: 200, height: 300 })
  const server = await startServer(benchConfig(root, content))
  try {
    await server.contentSync.idle()
    await waitForJobs(server)
    const cookie = await sessionCookie(server.url)
    const listed = (await (
      await fetch(`${server.url}/api/archives`, { headers: { cookie } })
    ).json()) as { arcid: string }[]
    const files = await readdir(content)
    const statuses = new Map<string, number>()
    const failures: string[] = []
    let stop = false
    const readers = Array.from({ length: READERS }, async (_, reader) => {
      for (let i = reader; !stop; i++) {
        const id = listed[i % listed.length]!.arcid
        const path = [
          `/api/archives/${id}/thumbnail?no_fallback=true`,
          `/api/archives/${id}/thumbnail?no_fallback=true&page=2`,
          `/api/opds/${id}/thumbnail`,
        ][i % 3]!
        const res = await fetch(server.url + path, { headers: { cookie } })
        const body = await res.arrayBuffer()
        const key = `${path.includes('opds') ? 'opds' : 'api'} ${res.status}`
        statuses.set(key, (statuses.get(key) ?? 0) + 1)
        if (res.status >= 500) failures.push(`${path}: ${new TextDecoder().decode(body)}`)
      }
    })
    const started = performance.now()
    for (let round = 0; round < ROUNDS; round++) {
      const when = new Date(Date.now() + (round + 1) * 2000)
      for (const [i, file] of files.entries())
        if (i % 2 === round % 2) await utimes(join(content, file), when, when)
      const res = await fetch(`${server.url}/api/shinobu/rescan`, {
        method: 'POST',
        headers: { cookie },
      })
      await server.deps.jobs.waitFor(((await res.json()) as { job: number }).job)
    }
    await waitForJobs(server)
    stop = true
    await Promise.all(readers)
    const seconds = (performance.now() - started) / 1000
    for (const job of server.deps.jobs.list()) {
      if (job.name !== 'thumbnails' && job.name !== 'regen_thumbs') continue
      if (job.state === 'failed') failures.push(`job ${job.id} failed: ${job.error}`)
      const failed = (JSON.parse(job.result ?? '{}') as { failed?: unknown[] }).failed ?? []
      for (const f of failed) failures.push(`job ${job.id}: ${JSON.stringify(f)}`)
    }
    const answers = [...statuses].map(([key, count]) => `${key}: ${count}`).join(', ')
    console.log(`${ARCHIVES} archives, ${ROUNDS} rescans in ${seconds.toFixed(1)} s: ${answers}`)
    console.log(`failed thumbnails and 5xx answers: ${failures.length}`)
    for (const failure of failures.slice(0, 20)) console.log(`  ${failure}`)
  } finally {
    await server.stop()
  }
} finally {
  rmSync(root, { recursive: true, force: true })
}
