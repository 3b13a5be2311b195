// The outside world of download tests: a fake site on 127.0.0.1 serving archives, slow and
// truncated streams, redirects and 500s; a test download plugin (and a metadata one) sideloaded
// into <dataDir>/plugins/custom as the plugin tests do; and a server allowed to reach the site.
import { afterAll, beforeAll } from 'bun:test'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { makeCbz, type Bytes } from '../helpers/fixtures.ts'
import { startTestServer, type JsonAnswer, type TestServer, type Wire } from '../helpers/server.ts'

export const PLUGIN = 'custom/download/fake'
export const METADATA_PLUGIN = 'custom/metadata/fake'

/**
 * Answers the URL itself by default. Query parameters of the queued URL steer it: `name` (the
 * filename hint), `part` (repeated: several resources, relative to the URL), `vh` (JSON
 * version_history), `fail` (the plugin refuses).
 */
const DOWNLOAD_PLUGIN = `
export function pluginInfo() {
  return {
    name: 'Fake site', author: 'tests', description: 'downloads from the fake site', version: '1',
    type: 'download', url_regex: '^http://127\\\\.0\\\\.0\\\\.1:\\\\d+/',
    login_from: 'custom/login/fake',
  }
}
export function execDownload(ctx) {
  const url = new URL(ctx.url)
  if (url.searchParams.get('fail')) return { error: 'the fake site refused' }
  const parts = url.searchParams.getAll('part')
  const name = url.searchParams.get('name')
  const downloads = parts.length > 0
    ? parts.map((part) => ({ url: new URL(part, url).href, filename_hint: part.split('/').pop() }))
    : [{ url: ctx.url, ...(name ? { filename_hint: name } : {}) }]
  const vh = url.searchParams.get('vh')
  return { downloads, ...(vh ? { version_history: JSON.parse(vh) } : {}) }
}
`

/** A member cookie for 127.0.0.1, which the queue sends with the download plugin's resources. */
const LOGIN = `
export function pluginInfo() {
  return { name: 'Fake login', author: 'tests', description: 'a member cookie', version: '1', type: 'login', hosts: ['127.0.0.1'] }
}
export function execLogin() {
  return { cookies: [{ name: 'member', value: '42', domain: '127.0.0.1' }] }
}
`

/** Tags every URL of the fake site with `fake:<last path segment>`. */
const METADATA = `
export function pluginInfo() {
  return {
    name: 'Fake metadata', author: 'tests', description: 'tags from the fake site', version: '1',
    type: 'metadata', url_regex: '^http://127\\\\.0\\\\.0\\\\.1:\\\\d+/',
  }
}
export function execMetadata(ctx) {
  const url = new URL(ctx.oneshot)
  return { tags: ['fake:' + url.pathname.split('/').pop().replace(/\\.[a-z]+$/, ''), 'from:plugin'] }
}
`

export type FakeSite = {
  base: string
  /** Bytes served at /files/<name> (and /slow, /truncated, /redirect/<name>). */
  files: Map<string, Bytes>
  /** Requests seen, as `METHOD /path`. */
  seen: string[]
  /** The Cookie header of each request to /files ('' without one). */
  cookies: string[]
  /** Slow streams wait for this between chunks. */
  slowChunkMs: number
  stop(): void
}

/**
 * A node:http server, which sends exactly the Content-Length it is told (Bun.serve turns a
 * streamed body into a chunked one): slow streams announce their length, and a truncated body
 * announces more than it sends before the connection is cut.
 */
export async function startFakeSite(): Promise<FakeSite> {
  const files = new Map<string, Bytes>()
  const seen: string[] = []
  const sockets = new Set<Socket>()
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    seen.push(`${req.method} ${url.pathname}`)
    const [, kind, name = ''] = url.pathname.split('/')
    if (kind === 'files') site.cookies.push(req.headers.cookie ?? '')
    const bytes = files.get(decodeURIComponent(name))
    if (kind === 'error') return res.writeHead(500).end('server error')
    if (!bytes) return res.writeHead(404).end('not found')
    if (kind === 'redirect') return res.writeHead(302, { location: `/files/${name}` }).end()
    res.writeHead(200, { 'content-length': String(bytes.byteLength) })
    if (kind === 'files') return res.end(bytes)
    if (kind === 'truncated') {
      res.write(bytes.subarray(0, Math.floor(bytes.byteLength / 2)))
      setTimeout(() => res.destroy(), 20)
      return
    }
    // slow: 4 KiB per slowChunkMs until done or the client goes away.
    let at = 0
    const timer = setInterval(() => {
      if (res.destroyed) return clearInterval(timer)
      res.write(bytes.subarray(at, at + 4096))
      at += 4096
      if (at >= bytes.byteLength) {
        clearInterval(timer)
        res.end()
      }
    }, site.slowChunkMs)
    res.on('close', () => clearInterval(timer))
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const site: FakeSite = {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    files,
    seen,
    cookies: [],
    slowChunkMs: 100,
    stop() {
      for (const socket of sockets) socket.destroy()
      server.close()
    },
  }
  return site
}

/** Writes the test plugins (download, its login, metadata) where the server sideloads them. */
export function sideloadPlugins(contentDir: string): void {
  const custom = join(contentDir, '..', 'data', 'plugins', 'custom')
  mkdirSync(join(custom, 'download'), { recursive: true })
  mkdirSync(join(custom, 'metadata'), { recursive: true })
  mkdirSync(join(custom, 'login'), { recursive: true })
  writeFileSync(join(custom, 'download', 'fake.ts'), DOWNLOAD_PLUGIN)
  writeFileSync(join(custom, 'login', 'fake.ts'), LOGIN)
  writeFileSync(join(custom, 'metadata', 'fake.ts'), METADATA)
}

/** A server with the test plugins, allowed to fetch from 127.0.0.1. */
export function startDownloadServer(root?: string): Promise<TestServer> {
  return startTestServer({
    ...(root ? { root } : {}),
    config: { fetchAllowPrivate: ['127.0.0.1'] },
    beforeStart: sideloadPlugins,
  })
}

/** Adds one URL with the fake plugin; answers the new item. */
export async function addItem(
  app: TestServer,
  cookie: string,
  url: string,
  extra: Record<string, unknown> = {},
): Promise<Wire> {
  const { status, body } = await app.json('/api/download_queue', {
    method: 'POST',
    cookie,
    json: { items: [{ url, plugin_namespace: PLUGIN, ...extra }] },
  })
  if (status !== 200 || body.added.length !== 1)
    throw new Error(`add failed: ${status} ${JSON.stringify(body)}`)
  return body.added[0]
}

export async function getItem(
  app: TestServer,
  cookie: string,
  id: string,
): Promise<Wire | undefined> {
  const { body } = await app.json('/api/download_queue', { cookie })
  return (body.items as Wire[]).find((item) => item.id === id)
}

/** Polls the item until `done` says so (20 s at most); answers it. */
export async function waitForItem(
  app: TestServer,
  cookie: string,
  id: string,
  done: (item: Wire) => boolean,
): Promise<Wire> {
  let item: Wire | undefined
  for (let waited = 0; waited < 20_000; waited += 25) {
    item = await getItem(app, cookie, id)
    if (item && done(item)) return item
    await Bun.sleep(25)
  }
  throw new Error(`item ${id} never got there: ${JSON.stringify(item)}`)
}

export const inState =
  (...states: string[]) =>
  (item: Wire) =>
    states.includes(item.state)

/** Staged downloads left in the server's temp folder. */
export function stagedDownloads(app: TestServer): string[] {
  return readdirSync(app.deps.config.tempDir).filter((name) => name.startsWith('download-'))
}

/**
 * One download test file's setting, made before its tests and removed after them: the fake site,
 * a server with the test plugins, an admin session, and a scratch folder for the archives the site
 * serves. The fields are filled once the file's first hook has run.
 */
export type DownloadTestWorld = {
  app: TestServer
  cookie: string
  site: FakeSite
  /** Writes a CBZ and serves it at /files/<name>; answers its bytes. */
  serveCbz(name: string, pages?: number, seed?: number): Promise<Bytes>
  /** POST as the admin session, with a JSON body when given. */
  post(path: string, json?: unknown): Promise<JsonAnswer<Wire>>
}

export function useDownloadTestWorld(): DownloadTestWorld {
  const scratch = mkdtempSync(join(tmpdir(), 'tankobun-dl-'))
  const world: DownloadTestWorld = {
    app: undefined as unknown as TestServer,
    cookie: '',
    site: undefined as unknown as FakeSite,
    async serveCbz(name, pages = 3, seed) {
      const path = await makeCbz(join(scratch, name), { pages, ...(seed ? { seed } : {}) })
      const bytes: Bytes = new Uint8Array(await readFile(path))
      world.site.files.set(name, bytes)
      return bytes
    },
    post: (path, json) =>
      world.app.json(path, {
        method: 'POST',
        cookie: world.cookie,
        ...(json === undefined ? {} : { json }),
      }),
  }
  beforeAll(async () => {
    world.site = await startFakeSite()
    world.app = await startDownloadServer()
    world.cookie = await world.app.login()
  })
  afterAll(async () => {
    await world.app?.[Symbol.asyncDispose]()
    world.site?.stop()
    rmSync(scratch, { recursive: true, force: true })
  })
  return world
}
