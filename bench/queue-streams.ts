// Memory and open time of many download-queue event streams: the server's peak RSS while
// `streams` streams (8 per guest token, readers in a separate process) each read the `full` list
// of an `items`-item queue, with the load average beside it. Prints figures, asserts nothing.
// Run: bun bench/queue-streams.ts [items=11000] [streams=200]
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer } from '../src/boot.ts'
import { setLogLevel } from '../src/log.ts'
import { PLUGIN, sideloadPlugins } from '../test/downloads/fake-site.ts'
import { benchConfig, sessionCookie } from './bench-server.ts'

const ITEMS = Number(process.argv[2] ?? 11_000)
const STREAMS = Number(process.argv[3] ?? 200)
const PER_TOKEN = 8
setLogLevel('error')

const statusMb = (field: string) =>
  Number(
    readFileSync('/proc/self/status', 'utf8').match(new RegExp(`^${field}:\\s+(\\d+)`, 'm'))![1],
  ) / 1024

/** Opens the streams, reads each to the end of `full`, prints seconds until all had it. */
const READERS = `
const [url, perToken, ...tokens] = process.argv.slice(2)
const started = performance.now()
const streams = await Promise.all(tokens.flatMap((token) =>
  Array.from({ length: Number(perToken) }, async () => {
    const res = await fetch(url + '/api/download_queue/stream', {
      headers: { authorization: 'Bearer ' + token } })
    if (res.status !== 200) return res.status
    const chunks = res.body.getReader()
    let events = 0, last = 0
    while (events < 2) {
      const { value } = await chunks.read()
      if (last === 10 && value[0] === 10) events++
      for (let at = value.indexOf(10); at >= 0; at = value.indexOf(10, at + 1))
        if (value[at + 1] === 10) events++
      last = value[value.length - 1]
    }
    return chunks
  })))
console.log(JSON.stringify({ secs: (performance.now() - started) / 1000,
  refused: streams.filter((s) => typeof s === 'number').length }))
process.exit(0)
`

const root = mkdtempSync(join(tmpdir(), 'tankobun-bench-queue-'))
try {
  const content = join(root, 'content')
  mkdirSync(content, { recursive: true })
  sideloadPlugins(content)
  const readerFile = join(root, 'readers.ts')
  writeFileSync(readerFile, READERS)
  const server = await startServer(
    { ...benchConfig(root, content), fetchAllowPrivate: ['127.0.0.1'] },
    { announce: () => {} },
  )
  const cookie = await sessionCookie(server.url)
  const headers = { cookie, 'content-type': 'application/json' }
  for (let at = 0; at < ITEMS; at += 1000) {
    const items = Array.from({ length: Math.min(1000, ITEMS - at) }, (_, i) => ({
      url: `http://127.0.0.1:9/gallery/${at + i}/a-title-long-enough-to-look-like-a-real-one`,
      plugin_namespace: PLUGIN,
    }))
    const res = await fetch(server.url + '/api/download_queue', {
      method: 'POST',
      headers,
      body: JSON.stringify({ items }),
    })
    if (res.status !== 200) throw new Error(`add failed: ${res.status}`)
  }
  const tokens: string[] = []
  for (let i = 0; i < Math.ceil(STREAMS / PER_TOKEN); i++) {
    const res = await fetch(server.url + '/api/tokens', {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: `bench-${i}`, role: 'guest' }),
    })
    tokens.push(((await res.json()) as { data: { token: string } }).data.token)
  }
  Bun.gc(true)
  await Bun.sleep(500)
  writeFileSync('/proc/self/clear_refs', '5')
  const before = statusMb('VmRSS')
  const child = Bun.spawn(
    [process.execPath, readerFile, server.url, String(PER_TOKEN), ...tokens],
    { stdout: 'pipe' },
  )
  const { secs, refused } = JSON.parse(await new Response(child.stdout).text()) as {
    secs: number
    refused: number
  }
  await child.exited
  console.log(
    `${ITEMS} items, ${tokens.length * PER_TOKEN} streams (${PER_TOKEN} per guest token): ` +
      `RSS ${before.toFixed(0)} -> peak ${statusMb('VmHWM').toFixed(0)} MB, all had \`full\` ` +
      `after ${secs.toFixed(1)} s, ${refused} refused, load ${loadavg()[0]!.toFixed(2)}`,
  )
  await server.stop()
} finally {
  rmSync(root, { recursive: true, force: true })
}
