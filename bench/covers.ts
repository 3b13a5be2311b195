// Cover generation on the side-by-side library: covers made after ingest, then
// `POST /api/regen_thumbs?force=1` over every archive, in covers/s; optionally 1400x2000 pages.
// `--phases` also splits one cover's time: page read, the worker's whole call (hand-off, decode,
// resize, encode, write, the file's SHA-1), row update; and sharp's decode/resize/encode in-process.
// Run: bun bench/covers.ts [archives=2000] [--large] [--phases]
import { mkdtempSync, rmSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { startServer, type Server } from '../src/boot.ts'
import { listArchives, readArchivePages } from '../src/db/repos/archives.repo.ts'
import { toAbsolutePath } from '../src/domain/archives/files.ts'
import { patchArchive } from '../src/domain/archives/save.ts'
import { commit } from '../src/domain/commit.ts'
import { setLogLevel } from '../src/log.ts'
import { benchConfig, sessionCookie } from './bench-server.ts'
import { writeSmallLibrary } from './small-library.ts'

const ARCHIVES = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 2000)
const LARGE = process.argv.includes('--large')
const PHASES = process.argv.includes('--phases')

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length)

/** One cover at a time through the server's own parts, each phase timed apart. */
async function coverPhases(server: Server, root: string): Promise<void> {
  const { deps } = server
  const phases = {
    read: [] as number[],
    worker: [] as number[],
    row: [] as number[],
  }
  let sample: Uint8Array | undefined
  for (const row of listArchives(deps.db).slice(0, 200)) {
    let t = performance.now()
    const entry = (readArchivePages(deps.db, row.id) ?? [])[0]!
    const bytes = await deps.reader.readPage(
      toAbsolutePath(deps.config.contentDir, row.path),
      entry,
    )
    sample ??= bytes
    phases.read.push(performance.now() - t)
    t = performance.now()
    const out = join(root, 'phases', `${row.id}.webp`)
    // The worker answers the SHA-1 of what it wrote (the server no longer reads the file back).
    const { sha1 } = await deps.thumbnailer.thumbnail(bytes, out, { format: 'webp' })
    phases.worker.push(performance.now() - t)
    t = performance.now()
    commit(deps, (w) => patchArchive(w, row.id, { thumbhash: sha1 }))
    phases.row.push(performance.now() - t)
  }
  const line = Object.entries(phases)
    .map(([name, xs]) => `${name} ${mean(xs).toFixed(2)} ms`)
    .join(', ')
  console.log(`one cover, sequential: ${line}`)
  // The worker's part split, in this thread (one libvips thread, as in the workers).
  sharp.concurrency(1)
  const input = sample!
  const time = async (run: () => Promise<unknown>) => {
    const started = performance.now()
    for (let i = 0; i < 50; i++) await run()
    return (performance.now() - started) / 50
  }
  const decode = await time(() => sharp(input).raw().toBuffer())
  const resize = await time(() => sharp(input).resize({ height: 500 }).raw().toBuffer())
  const webp = await time(() => sharp(input).resize({ height: 500 }).webp({ effort: 0 }).toBuffer())
  console.log(
    `sharp in-process: decode ${decode.toFixed(2)} ms, + resize ${(resize - decode).toFixed(2)} ms, ` +
      `+ WebP encode ${(webp - resize).toFixed(2)} ms`,
  )
}
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
    if (PHASES) await coverPhases(server, root)
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
