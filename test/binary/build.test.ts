// The single binary: `npm run build` (scripts/build.ts) once, into a temporary folder outside the
// repo (no node_modules reachable), then the binary serves a library from its embedded files: the
// catalog, pages (a CBZ, and a .tar.gz through the libarchive WASM Worker), a thumbnail (the sharp
// Worker, its native part copied out to the cache folder) and a plugin run in the sandbox beside
// it; without that sandbox, everything but plugins still works and plugins answer a clear error.
// And as a user runs it: a thread pool of 16 though the environment has none, its own name in
// --help, one line when a folder cannot be created, older libvips copies removed from the cache;
// installing a plugin without the sandbox says the sandbox is missing.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Subprocess } from 'bun'
import { makeCbz, makeTarGz } from '../helpers/fixtures.ts'

const ROOT = join(import.meta.dir, '..', '..')
const root = mkdtempSync(join(tmpdir(), 'tankobun-binary-'))
const app = join(root, 'app')
const dataDir = join(root, 'data')
const contentDir = join(root, 'content')
const PASSWORD = 'binary-test-password'
const cacheDir = join(root, 'cache', 'tankobun')
/** Only what a fresh machine has: no NODE_PATH, no BUN_* nor UV_THREADPOOL_SIZE of the test run. */
const ENV = { PATH: '/usr/bin:/bin', HOME: root, XDG_CACHE_HOME: join(root, 'cache') }

type Running = {
  proc: Subprocess<'ignore', 'pipe', 'pipe'>
  url: string
  cookie: string
  stderr: () => Promise<string>
}
const running: Running[] = []

/** Starts the binary on a free port (port 0: it prints the one it got) and logs in. */
async function start(): Promise<Running> {
  const proc = Bun.spawn(
    [
      join(app, 'tankobun'),
      '--port',
      '0',
      '--host',
      '127.0.0.1',
      '--data-dir',
      dataDir,
      '--content-dir',
      contentDir,
      '--password',
      PASSWORD,
    ],
    {
      cwd: root,
      env: ENV,
      stdin: 'ignore',
      stdout: 'pipe',
      stderr: 'pipe',
    },
  )
  // Both pipes are drained for the process's whole life: a full pipe would stall its logging.
  let out = ''
  let err = ''
  const drain = async (stream: ReadableStream<Uint8Array>, add: (text: string) => void) => {
    const decoder = new TextDecoder()
    for await (const chunk of stream) add(decoder.decode(chunk, { stream: true }))
  }
  const outDone = drain(proc.stdout, (text) => (out += text))
  const errDone = drain(proc.stderr, (text) => (err += text))
  const stderr = async () => {
    await errDone
    return err
  }
  while (!out.includes('\n')) {
    if (proc.exitCode !== null) {
      await outDone
      throw new Error(`the binary exited: ${out}${await stderr()}`)
    }
    await Bun.sleep(10)
  }
  const url = /listening on (http:\/\/\S+)/.exec(out)?.[1]
  if (!url) throw new Error(`unexpected first line: ${out}`)
  const info = await fetch(`${url}/api/info`)
  expect(info.status).toBe(200)
  const login = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ password: PASSWORD }),
  })
  expect(login.status).toBe(200)
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')
  const server = { proc, url, cookie, stderr }
  running.push(server)
  return server
}

async function stop(server: Running): Promise<void> {
  server.proc.kill('SIGTERM')
  await server.proc.exited
}

const get = (server: Running, path: string, init: RequestInit = {}) =>
  fetch(server.url + path, { ...init, headers: { cookie: server.cookie } })

async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  for (let waited = 0; waited < 20_000; waited += 50) {
    const value = await probe()
    if (value !== undefined) return value
    await Bun.sleep(50)
  }
  throw new Error(`timed out waiting for ${what}`)
}

type WireArchive = { arcid: string; extension: string; pagecount: number }

beforeAll(async () => {
  mkdirSync(contentDir, { recursive: true })
  await makeCbz(join(contentDir, 'Zipped Book.cbz'), { pages: 3 })
  await makeTarGz(join(contentDir, 'Tarred Book.tar.gz'), { pages: 2 })
  const build = Bun.spawn([join(ROOT, 'node_modules', '.bin', 'bun'), 'scripts/build.ts', app], {
    cwd: ROOT,
    stdout: 'pipe',
    stderr: 'pipe',
  })
  if ((await build.exited) !== 0)
    throw new Error(`build failed: ${await new Response(build.stderr).text()}`)
}, 120_000)

afterAll(async () => {
  for (const server of running) if (server.proc.exitCode === null) await stop(server)
  rmSync(root, { recursive: true, force: true })
})

describe('the single binary', () => {
  let archives: WireArchive[] = []

  it('holds the server in dist/tankobun and the sandbox beside it', () => {
    for (const file of ['tankobun', 'sandbox/node', 'sandbox/main.js'])
      expect(existsSync(join(app, file))).toBe(true)
    expect(existsSync(join(root, 'node_modules'))).toBe(false)
  })

  it('names itself in --help, and says in one line that a folder cannot be created', async () => {
    const help = Bun.spawnSync(['./tankobun', '--help'], { cwd: app, env: ENV })
    expect(help.exitCode).toBe(0)
    expect(help.stdout.toString().split('\n')[0]).toBe('Usage: ./tankobun [flags]')
    writeFileSync(join(root, 'a-file'), 'in the way')
    const blocked = Bun.spawnSync(
      [join(app, 'tankobun'), '--port', '0', '--data-dir', join(root, 'a-file', 'data')],
      { cwd: root, env: ENV },
    )
    expect(blocked.exitCode).toBe(1)
    expect(blocked.stdout.toString()).toBe('')
    expect(blocked.stderr.toString()).toBe(
      `tankobun: cannot create the data folder ${join(root, 'a-file', 'data')}: a file is in the way (ENOTDIR)\n`,
    )
  })

  it('catalogues, serves pages and thumbnails, and runs a plugin', async () => {
    // The libvips copy of an older binary, and a file of someone else's in the cache folder.
    mkdirSync(cacheDir, { recursive: true })
    writeFileSync(join(cacheDir, 'libvips-cpp.so.8.15.0-0123abcd'), 'an older copy')
    writeFileSync(join(cacheDir, 'notes.txt'), 'not ours')
    const server = await start()
    // Started without UV_THREADPOOL_SIZE, it runs (same pid) with 16.
    expect(readFileSync(`/proc/${server.proc.pid}/environ`, 'utf8').split('\0')).toContain(
      'UV_THREADPOOL_SIZE=16',
    )
    expect(await (await get(server, '/api/health')).json()).toMatchObject({ sandbox: 'installed' })
    // The web UI comes from the embedded build: its page and the script it names.
    const index = await get(server, '/')
    expect(index.headers.get('content-type')).toStartWith('text/html')
    const script = (await index.text()).match(/src="(\/ui\/[^"]+\.js)"/)?.[1]
    expect(script).toBeDefined()
    const bundle = await get(server, script!)
    expect(bundle.status).toBe(200)
    expect((await bundle.text()).length).toBeGreaterThan(1000)
    const rescan = await get(server, '/api/shinobu/rescan', { method: 'POST' })
    expect(rescan.status).toBe(200)
    archives = await until('both archives', async () => {
      const list = (await (await get(server, '/api/archives')).json()) as WireArchive[]
      return list.length === 2 ? list : undefined
    })

    for (const archive of archives) {
      const files = (await (await get(server, `/api/archives/${archive.arcid}/files`)).json()) as {
        pages: string[]
      }
      expect(files.pages.length).toBe(archive.extension === 'cbz' ? 3 : 2)
      const page = await get(server, files.pages[1]!)
      expect(page.status).toBe(200)
      expect(page.headers.get('content-type')).toBe('image/jpeg')
      expect((await page.bytes()).length).toBeGreaterThan(0)
    }

    const cbz = archives.find((archive) => archive.extension === 'cbz')!
    const thumbnail = await until('the thumbnail of page 2', async () => {
      const res = await get(server, `/api/archives/${cbz.arcid}/thumbnail?no_fallback=true&page=2`)
      if (res.status === 202) return undefined
      return res
    })
    expect(thumbnail.status).toBe(200)
    expect(thumbnail.headers.get('content-type')).toMatch(/^image\/(webp|jpeg)$/)
    // libvips was copied out for it; the older version's copy is gone, other files stay.
    const cached = readdirSync(cacheDir)
    expect(cached.filter((name) => name.startsWith('libvips-cpp.so'))).toHaveLength(1)
    expect(cached).not.toContain('libvips-cpp.so.8.15.0-0123abcd')
    expect(cached).toContain('notes.txt')

    // Built-in plugins register in the sandbox at start; the filename plugin answers the title.
    const use = await until('the filename plugin', async () => {
      const res = await get(server, `/api/plugins/use?plugin=metadata/filename&id=${cbz.arcid}`, {
        method: 'POST',
      })
      return res.status === 404 ? undefined : res
    })
    expect(use.status).toBe(200)
    expect(await use.json()).toMatchObject({ success: 1, data: { title: 'Zipped Book' } })
    await stop(server)
  }, 60_000)

  it('without its sandbox, still serves pages and answers plugin calls with a clear error', async () => {
    renameSync(join(app, 'sandbox'), join(root, 'sandbox-elsewhere'))
    const server = await start()
    expect(await (await get(server, '/api/health')).json()).toMatchObject({
      status: 'ok',
      sandbox: 'missing',
    })
    const cbz = archives.find((archive) => archive.extension === 'cbz')!
    const page = await get(server, `/api/archives/${cbz.arcid}/page?path=002.jpg`)
    expect(page.status).toBe(200)
    const use = await get(server, `/api/plugins/use?plugin=metadata/filename&id=${cbz.arcid}`, {
      method: 'POST',
    })
    expect(use.status).toBe(500)
    const body = (await use.json()) as { success: number; error: string }
    expect(body.success).toBe(0)
    expect(body.error).toContain('The plugin sandbox is not installed beside the binary')
    expect(body.error).toContain(join(app, 'sandbox'))
    // Installing one says the same, not that the plugin is invalid.
    const form = new FormData()
    form.set(
      'file',
      new File(
        [
          `export function pluginInfo() { return { name: 'Fine', type: 'metadata', author: 'a', description: 'd', version: '1' } }\n` +
            `export function execMetadata() { return { tags: 'fine:yes' } }\n`,
        ],
        'fine.ts',
      ),
    )
    const upload = await fetch(`${server.url}/api/plugins/upload`, {
      method: 'POST',
      headers: { cookie: server.cookie },
      body: form,
    })
    expect(upload.status).toBe(500)
    const uploaded = (await upload.json()) as { success: number; error: string }
    expect(uploaded.success).toBe(0)
    expect(uploaded.error).toContain('The plugin sandbox is not installed beside the binary')
    await stop(server)
    // The start said so in its log.
    expect(await server.stderr()).toContain('plugin sandbox missing')
  }, 60_000)
})
