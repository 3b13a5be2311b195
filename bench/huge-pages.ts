// Memory of concurrent readers of one huge page: the server's peak RSS while 6, then 20 readers
// (in a separate process) each read the whole page, with /api/info's worst answer time meanwhile
// and the load average beside each figure. Prints figures, asserts nothing.
// Run: bun bench/huge-pages.ts [mb=200] [compression=store|deflate]
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer } from '../src/boot.ts'
import { setLogLevel } from '../src/log.ts'
import { writeHugeZip } from '../test/helpers/huge-zip.ts'
import { benchConfig, sessionCookie } from './bench-server.ts'

const MB = Number(process.argv[2] ?? 200)
const COMPRESSION = (process.argv[3] ?? 'store') as 'store' | 'deflate'
setLogLevel('error')

const statusMb = (field: string) =>
  Number(
    readFileSync('/proc/self/status', 'utf8').match(new RegExp(`^${field}:\\s+(\\d+)`, 'm'))![1],
  ) / 1024

/** Readers in their own process: they must not share this process's RSS or event loop. */
const READER = `
const [url, cookie, n] = process.argv.slice(2)
await Promise.all(Array.from({ length: Number(n) }, async () => {
  const res = await fetch(url, { headers: { cookie } })
  const chunks = res.body.getReader()
  for (;;) if ((await chunks.read()).done) break
}))
`

const root = mkdtempSync(join(tmpdir(), 'tankobun-bench-huge-'))
try {
  const content = join(root, 'content')
  mkdirSync(content, { recursive: true })
  await writeHugeZip(join(content, 'Huge.cbz'), [
    { name: '000.jpg', bytes: 1024, compression: 'store' },
    { name: 'huge.jpg', bytes: MB * 1024 * 1024, compression: COMPRESSION },
  ])
  const readerFile = join(root, 'reader.ts')
  writeFileSync(readerFile, READER)
  const server = await startServer(benchConfig(root, content), { announce: () => {} })
  await server.contentSync.idle()
  const cookie = await sessionCookie(server.url)
  const list = (await (
    await fetch(server.url + '/api/archives', { headers: { cookie } })
  ).json()) as { arcid: string }[]
  const url = `${server.url}/api/archives/${list[0]!.arcid}/page?path=huge.jpg`
  console.log(`one ${MB} MB page (${COMPRESSION}d), readers in a separate process`)
  for (const readers of [6, 20]) {
    Bun.gc(true)
    await Bun.sleep(500)
    writeFileSync('/proc/self/clear_refs', '5')
    const before = statusMb('VmRSS')
    const started = performance.now()
    const child = Bun.spawn([process.execPath, readerFile, url, cookie, String(readers)])
    let worstInfo = 0
    while (child.exitCode === null) {
      const t = performance.now()
      await fetch(server.url + '/api/info', { headers: { cookie } }).then((r) => r.arrayBuffer())
      worstInfo = Math.max(worstInfo, performance.now() - t)
      await Bun.sleep(50)
    }
    await child.exited
    const secs = (performance.now() - started) / 1000
    console.log(
      `${String(readers).padStart(2)} readers: RSS ${before.toFixed(0)} -> peak ${statusMb('VmHWM').toFixed(0)} MB, ` +
        `${secs.toFixed(1)} s, /api/info worst ${worstInfo.toFixed(0)} ms, ` +
        `load ${loadavg()[0]!.toFixed(2)}`,
    )
  }
  await server.stop()
} finally {
  rmSync(root, { recursive: true, force: true })
}
