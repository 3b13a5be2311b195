// Download queue throughput: a local origin serves a generated CBZ of ~`mb` MiB, the test download
// plugin (sideloaded as in test/downloads) queues it, and the time from start to `done` (transfer
// to the staged file, hashing, checks, copy into the content folder) is printed as MB/s, once
// without a domain rule and once with a bytes/s rule on the origin's host. Prints figures,
// asserts nothing. The origin runs in this process (Bun.file answers with sendfile).
// Run: bun bench/downloads.ts [mb=200] [limit MB/s=20]
import { randomBytes } from 'node:crypto'
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer } from '../src/boot.ts'
import { buildZip, makePages } from '../test/helpers/fixtures.ts'
import { PLUGIN, sideloadPlugins } from '../test/downloads/fake-site.ts'
import { benchConfig, sessionCookie } from './bench-server.ts'

const MB = Number(process.argv[2] ?? 200)
const LIMIT_MB = Number(process.argv[3] ?? 20)
const MiB = 1024 * 1024

async function makeBigCbz(path: string, mb: number, tag: string): Promise<number> {
  const pages = await makePages(path, { pages: 2 })
  const padding = Array.from({ length: Math.ceil(mb / 8) }, (_, i) => ({
    name: `padding/${String(i).padStart(4, '0')}.bin`,
    data: new Uint8Array(randomBytes(8 * MiB)),
  }))
  const zip = buildZip([
    { name: 'id.txt', data: new TextEncoder().encode(tag) },
    ...pages,
    ...padding,
  ])
  await writeFile(path, zip)
  return zip.byteLength
}

const root = mkdtempSync(join(tmpdir(), 'tankobun-bench-dl-'))
const files = join(root, 'origin')
mkdirSync(files)
const origin = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  fetch: (req) => new Response(Bun.file(join(files, new URL(req.url).pathname.slice(1)))),
})
const base = `http://127.0.0.1:${origin.port}`
const contentDir = join(root, 'content')
mkdirSync(contentDir, { recursive: true })
sideloadPlugins(contentDir)
const server = await startServer(
  { ...benchConfig(root, contentDir), fetchAllowPrivate: ['127.0.0.1'] },
  { announce: () => {} },
)
const cookie = await sessionCookie(server.url)
const api = async (path: string, init: { method?: string; json?: unknown } = {}) => {
  const res = await fetch(server.url + path, {
    method: init.method ?? 'GET',
    headers: { cookie, 'content-type': 'application/json' },
    ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
  })
  return (await res.json()) as Record<string, any>
}

async function run(label: string, name: string): Promise<void> {
  const bytes = await makeBigCbz(join(files, name), MB, name)
  const { added } = await api('/api/download_queue', {
    method: 'POST',
    json: { items: [{ url: `${base}/${name}`, plugin_namespace: PLUGIN }] },
  })
  const id = added[0].id
  const started = performance.now()
  const { job } = await api(`/api/download_queue/${id}/start`, { method: 'POST' })
  for (;;) {
    const { items } = await api('/api/download_queue')
    const item = items.find((i: { id: string }) => i.id === id)
    if (item.state === 'done' || item.state === 'error') {
      if (item.state === 'error') throw new Error(item.error)
      break
    }
    await Bun.sleep(20)
  }
  const seconds = (performance.now() - started) / 1000
  const status = await api(`/api/jobqueue/${job}`)
  const rule = status.rate_limit_bytes_per_sec
    ? `rule ${status.rate_limit_matched_pattern} at ${(status.rate_limit_bytes_per_sec / MiB).toFixed(0)} MiB/s`
    : 'no rule'
  console.log(
    `${label.padEnd(12)} ${(bytes / MiB).toFixed(0)} MiB in ${seconds.toFixed(2)} s: ` +
      `${(bytes / MiB / seconds).toFixed(1)} MiB/s start to done (${rule})`,
  )
}

try {
  await run('unlimited', 'a.cbz')
  await api(`/api/plugins/options?namespace=${PLUGIN}`, {
    method: 'PUT',
    json: { domain_rules: [{ pattern: '127.0.0.1', bytes_per_sec: LIMIT_MB * MiB }] },
  })
  await run('limited', 'b.cbz')
} finally {
  await server.stop()
  origin.stop(true)
  rmSync(root, { recursive: true, force: true })
}
