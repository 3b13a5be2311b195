// Scan and cover throughput, and idle RSS with a catalogue of small CBZs (10,000 by default).
// Prints figures; asserts nothing. Usage: bun bench/scan.ts [archives=10000] [covers=200]
import { mkdtempSync, readFileSync, rmSync, mkdirSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer } from '../src/boot.ts'
import { setLogLevel } from '../src/log.ts'
import sharp from 'sharp'
import { buildZip, makeJpeg } from '../test/helpers/fixtures.ts'
import { benchConfig } from './bench-server.ts'

/** Photographic-like cost: smooth gradients plus noise (a solid colour would flatter sharp). */
async function makeNoisyJpeg(width: number, height: number): Promise<Uint8Array> {
  const pixels = Buffer.alloc(width * height * 3)
  for (let i = 0; i < pixels.length; i++) pixels[i] = ((i * 7) % 251) ^ ((Math.random() * 64) | 0)
  return new Uint8Array(
    await sharp(pixels, { raw: { width, height, channels: 3 } })
      .jpeg({ quality: 85 })
      .toBuffer(),
  )
}

const ARCHIVES = Number(process.argv[2] ?? 10_000)
const COVERS = Number(process.argv[3] ?? 200)
setLogLevel('error')

const root = mkdtempSync(join(tmpdir(), 'tankobun-bench-scan-'))
const content = join(root, 'content')
try {
  // 1. Catalogue rate over small CBZs (covers excluded: the thumbnails job is not waited for here).
  const page = await makeJpeg(64, 96, 1)
  for (let dir = 0; dir < Math.ceil(ARCHIVES / 500); dir++)
    mkdirSync(join(content, `d${dir}`), { recursive: true })
  const writes: Promise<void>[] = []
  for (let i = 0; i < ARCHIVES; i++) {
    const zip = buildZip([
      { name: 'id.txt', data: new TextEncoder().encode(`archive ${i}`) },
      { name: '001.jpg', data: page },
      { name: '002.jpg', data: page },
    ])
    writes.push(writeFile(join(content, `d${Math.floor(i / 500)}`, `Archive ${i}.cbz`), zip))
    if (writes.length >= 256) await Promise.all(writes.splice(0))
  }
  await Promise.all(writes)

  const config = benchConfig(root, content)
  const started = performance.now()
  const server = await startServer(config, { announce: () => {} })
  // Browsable while cataloguing: /api/info timed for the whole scan (at least 50 requests).
  const infoTimes: number[] = []
  let scanning = true
  const probe = (async () => {
    while (scanning || infoTimes.length < 50) {
      const t = performance.now()
      await fetch(server.url + '/api/info')
      infoTimes.push(performance.now() - t)
      await Bun.sleep(20)
    }
  })()
  await server.contentSync.idle()
  const scanMs = performance.now() - started
  scanning = false
  await probe
  infoTimes.sort((a, b) => a - b)
  console.log(
    `scan: ${ARCHIVES} archives in ${(scanMs / 1000).toFixed(2)} s = ${Math.round(ARCHIVES / (scanMs / 1000))} archives/s`,
  )
  console.log(
    `  /api/info during the scan: p50 ${infoTimes[Math.floor(infoTimes.length / 2)]!.toFixed(1)} ms,` +
      ` max ${infoTimes.at(-1)!.toFixed(1)} ms (${infoTimes.length} requests)`,
  )

  // Let the automatic cover job finish, then measure idle RSS.
  const coversStarted = performance.now()
  for (const job of server.deps.jobs
    .list()
    .filter((j) => j.state !== 'finished' && j.state !== 'failed'))
    await server.deps.jobs.waitFor(job.id)
  const coversSecs = (performance.now() - coversStarted) / 1000
  console.log(`  covers of the small archives: done ${coversSecs.toFixed(1)} s after the scan`)
  Bun.gc(true)
  await Bun.sleep(500)
  const peakKb = readFileSync('/proc/self/status', 'utf8').match(/VmHWM:\s+(\d+) kB/)?.[1]
  console.log(
    `idle RSS with ${ARCHIVES} archives catalogued: ${Math.round(process.memoryUsage().rss / 1024 / 1024)} MB` +
      ` (peak ${Math.round(Number(peakKb) / 1024)} MB; the files were generated in this process)`,
  )
  await server.stop()

  // 2. Cover rate from 1400x2000 JPEG pages (WebP, 500 px tall).
  const coverContent = join(root, 'covers')
  mkdirSync(coverContent, { recursive: true })
  const big = await makeNoisyJpeg(1400, 2000)
  for (let i = 0; i < COVERS; i++)
    await writeFile(
      join(coverContent, `Cover ${i}.cbz`),
      buildZip([
        { name: 'id.txt', data: new TextEncoder().encode(`cover ${i}`) },
        { name: '001.jpg', data: big },
      ]),
    )
  const coverServer = await startServer(
    {
      ...config,
      port: 0,
      dataDir: join(root, 'data2'),
      contentDir: coverContent,
      thumbsDir: join(root, 'data2', 'thumbs'),
      tempDir: join(root, 'data2', 'temp'),
      pluginsDir: join(root, 'data2', 'plugins'),
      dbPath: join(root, 'data2', 'db.sqlite'),
    },
    { announce: () => {} },
  )
  await coverServer.contentSync.idle()
  const regen = coverServer.deps.jobs.list().find((j) => j.name === 'thumbnails')
  const t0 = performance.now()
  if (regen) await coverServer.deps.jobs.waitFor(regen.id)
  const coverSecs = (performance.now() - t0) / 1000
  console.log(
    `covers: ${COVERS} WebP thumbnails from 1400x2000 JPEGs in ${coverSecs.toFixed(2)} s = ${(COVERS / coverSecs).toFixed(1)}/s`,
  )
  await coverServer.stop()
} finally {
  rmSync(root, { recursive: true, force: true })
}
