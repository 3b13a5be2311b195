// Page serving over HTTP: first page of a never-opened archive, later pages p50, and pages/s from a
// separate client process with keep-alive. Prints figures, asserts nothing.
// Run: bun bench/pages-http.ts [pages=200]
import { mkdtempSync, rmSync, mkdirSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { startServer } from '../src/boot.ts'
import { setLogLevel } from '../src/log.ts'
import { buildZip, type Entry } from '../test/helpers/fixtures.ts'
import { benchConfig, sessionCookie } from './bench-server.ts'

const PAGES = Number(process.argv[2] ?? 200)
setLogLevel('error')

/** ~300 KB 1400x2000 JPEGs (noise at quality 55), eight distinct ones repeated. */
async function page(seed: number): Promise<Uint8Array> {
  const noise = { type: 'gaussian' as const, mean: 100 + seed * 10, sigma: 20 }
  const create = { width: 1400, height: 2000, channels: 3 as const, background: '#000', noise }
  return new Uint8Array(await sharp({ create }).jpeg({ quality: 55 }).toBuffer())
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
const root = mkdtempSync(join(tmpdir(), 'tankobun-bench-http-'))
try {
  const content = join(root, 'content')
  mkdirSync(content, { recursive: true })
  const distinct = await Promise.all(Array.from({ length: 8 }, (_, i) => page(i)))
  const entries = (tag: string): Entry[] => [
    { name: 'id.txt', data: new TextEncoder().encode(tag) },
    ...Array.from({ length: PAGES }, (_, i) => ({
      name: `${String(i + 1).padStart(3, '0')}.jpg`,
      data: distinct[i % 8]!,
    })),
  ]
  const zipA = buildZip(entries('a'))
  await writeFile(join(content, 'A.cbz'), zipA)
  await writeFile(join(content, 'B.cbz'), buildZip(entries('b')))
  console.log(
    `${PAGES} pages of 1400x2000, ${(zipA.length / 1024 ** 2).toFixed(1)} MB per archive, ~${Math.round(distinct[0]!.length / 1024)} KB per page`,
  )

  const config = benchConfig(root, content)
  const server = await startServer(config, { announce: () => {} })
  await server.contentSync.idle()
  const cookie = await sessionCookie(server.url)
  const list = (await (
    await fetch(server.url + '/api/archives', { headers: { cookie } })
  ).json()) as { arcid: string; title: string }[]
  const idOf = (title: string) => list.find((a) => a.title === title)!.arcid

  // Warm the HTTP path on archive A, then time archive B, never opened.
  const filesA = (await (
    await fetch(`${server.url}/api/archives/${idOf('A')}/files`, { headers: { cookie } })
  ).json()) as { pages: string[] }
  await (await fetch(server.url + filesA.pages[0], { headers: { cookie } })).arrayBuffer()
  const filesB = (await (
    await fetch(`${server.url}/api/archives/${idOf('B')}/files`, { headers: { cookie } })
  ).json()) as { pages: string[] }
  let t = performance.now()
  await (await fetch(server.url + filesB.pages[0], { headers: { cookie } })).arrayBuffer()
  console.log(`first page of a never-opened archive: ${(performance.now() - t).toFixed(2)} ms`)
  const later: number[] = []
  for (const p of filesB.pages.slice(1)) {
    t = performance.now()
    await (await fetch(server.url + p, { headers: { cookie } })).arrayBuffer()
    later.push(performance.now() - t)
  }
  console.log(`later pages: p50 ${median(later).toFixed(2)} ms`)

  const urlsFile = join(root, 'urls.txt')
  await writeFile(
    urlsFile,
    [...filesA.pages, ...filesB.pages].map((p) => server.url + p).join('\n'),
  )
  const client = Bun.spawn(
    [process.execPath, join(import.meta.dir, 'load-client.ts'), urlsFile, cookie, '5', '16'],
    { stdout: 'pipe' },
  )
  const out = JSON.parse(await new Response(client.stdout).text()) as {
    pagesPerSec: number
    mbPerSec: number
  }
  console.log(
    `throughput (separate client process, 16 keep-alive connections): ${Math.round(out.pagesPerSec)} pages/s, ${Math.round(out.mbPerSec)} MB/s`,
  )
  await server.stop()
} finally {
  rmSync(root, { recursive: true, force: true })
}
