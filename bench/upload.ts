// Upload over HTTP: a generated CBZ of ~`mb` MB sent to a real server in its own process, once
// with a Content-Length and once chunked; prints MB/s and the server's peak RSS (VmHWM, Linux).
// Prints figures, asserts nothing.
// Run: bun bench/upload.ts [mb=500] [server entry=src/main.ts]
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { buildZip, makePages } from '../test/helpers/fixtures.ts'
import { sessionCookie } from './bench-server.ts'

const MB = Number(process.argv[2] ?? 500)
const ENTRY = resolve(process.argv[3] ?? join(import.meta.dir, '..', 'src', 'main.ts'))
const MiB = 1024 * 1024
const PASSWORD = 'bench'

/** A stored CBZ: two real pages, then `mb` MiB of random padding in 8 MiB entries. */
async function makeBigCbz(path: string, mb: number, tag: string): Promise<number> {
  const pages = await makePages(path, { pages: 2 })
  const padding = Array.from({ length: Math.ceil(mb / 8) }, (_, i) => ({
    name: `padding/${String(i).padStart(4, '0')}.bin`,
    data: new Uint8Array(randomBytes(8 * MiB)),
  }))
  // Distinct first bytes, so each archive gets its own id.
  const zip = buildZip([
    { name: 'id.txt', data: new TextEncoder().encode(tag) },
    ...pages,
    ...padding,
  ])
  await writeFile(path, zip)
  return zip.byteLength
}

/** Starts a new peak-RSS window for `pid` (Linux: clear_refs 5); false where not allowed. */
function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5')
    return true
  } catch {
    return false
  }
}

/** Peak and current resident memory of a process, in MiB (Linux /proc). */
function memoryOf(pid: number): { peak: number; now: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1])
  return { peak: kb('VmHWM') / 1024, now: kb('VmRSS') / 1024 }
}

async function readUrl(stream: ReadableStream<Uint8Array>): Promise<string> {
  let text = ''
  for await (const chunk of stream) {
    text += new TextDecoder().decode(chunk)
    const match = /listening on (http:\/\/\S+)/.exec(text)
    if (match) return match[1]!
  }
  throw new Error(`server exited before listening: ${text}`)
}

const root = mkdtempSync(join(tmpdir(), 'tankobun-bench-upload-'))
const server = Bun.spawn(
  [
    process.execPath,
    ENTRY,
    ...['--port', '0', '--host', '127.0.0.1', '--password', PASSWORD, '--watch', 'false'],
    ...['--data-dir', join(root, 'data'), '--content-dir', join(root, 'content')],
    ...['--log-level', 'error'],
  ],
  { stdout: 'pipe', stderr: 'inherit' },
)
try {
  const url = await readUrl(server.stdout)
  const cookie = await sessionCookie(url, PASSWORD)
  const idle = memoryOf(server.pid)
  console.log(
    `server ${ENTRY}: idle RSS ${idle.now.toFixed(0)} MiB, peak so far ${idle.peak.toFixed(0)} MiB`,
  )

  for (const mode of ['content-length', 'chunked'] as const) {
    const path = join(root, `${mode}.cbz`)
    const size = await makeBigCbz(path, MB, mode)
    const file = Bun.file(path)
    const sha1 = new Bun.CryptoHasher('sha1')
    for await (const chunk of file.stream()) sha1.update(chunk)
    const form = new FormData()
    form.set('file_checksum', sha1.digest('hex'))
    form.set('file', file, `${mode}.cbz`)
    const encoded = new Response(form)
    // Read the header first: Bun drops it once the body is consumed.
    const contentType = encoded.headers.get('content-type')!
    const body = mode === 'chunked' ? encoded.body! : await encoded.blob()
    const windowed = resetPeak(server.pid)
    const started = performance.now()
    const res = await fetch(`${url}/api/archives/upload`, {
      method: 'PUT',
      headers: { cookie, 'content-type': contentType },
      body,
    })
    const answer = (await res.json()) as { success: number; error?: string }
    const seconds = (performance.now() - started) / 1000
    const memory = memoryOf(server.pid)
    console.log(
      `${mode}: ${(size / MiB).toFixed(0)} MiB in ${seconds.toFixed(2)} s = ${(size / MiB / seconds).toFixed(0)} MiB/s` +
        ` (status ${res.status}${answer.success ? '' : `, ${answer.error}`}); server peak RSS ${memory.peak.toFixed(0)} MiB${windowed ? ' during it' : ' since start'}, now ${memory.now.toFixed(0)} MiB`,
    )
    rmSync(path)
  }
} finally {
  server.kill()
  await server.exited
  rmSync(root, { recursive: true, force: true })
}
