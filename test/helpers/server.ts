// startTestServer(): a real server on port 0 with a fresh temp data and content folder.
// `await using app = await startTestServer()` stops it and removes the folders afterwards.
import { mkdtempSync, rmSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig, type Config } from '../../src/config.ts'
import { startServer, type Server } from '../../src/boot.ts'
import { setLogLevel } from '../../src/log.ts'
import { openSettings, type Settings } from '../../src/domain/settings.ts'
import { openDb } from '../../src/db/client.ts'
import type { Deps } from '../../src/deps.ts'
import type { Thumbnailer } from '../../src/images/types.ts'
import type { AnyArea } from '../../src/areas/area.ts'

export const TEST_PASSWORD = 'test-password'

/** A JSON answer as tests read it: loose on purpose, the assertions check the shape. */
export type Wire = Record<string, any>

type RequestOptions = RequestInit & { json?: unknown; cookie?: string; token?: string }

/** What `json()` gives back: the status, the parsed body (null when empty) and the headers. */
export type JsonAnswer<T> = { status: number; body: T; headers: Headers }

export type TestServer = Server & {
  root: string
  contentDir: string
  /** fetch relative to the server, JSON bodies encoded for you. */
  req(path: string, init?: RequestOptions): Promise<Response>
  /** `req`, then the body parsed as JSON. */
  json<T = Wire>(path: string, init?: RequestOptions): Promise<JsonAnswer<T>>
  /** A session cookie header value for the admin password. */
  login(): Promise<string>
  /** Archive ids by title, as `GET /api/archives` lists them (titles are file names in tests). */
  idsByTitle(cookie: string): Promise<Record<string, string>>
  /** Waits for the initial scan (and any rescan in flight) to finish. */
  idle(): Promise<void>
  /** Waits until no job is queued or running (covers made after a scan, plugin runs). */
  jobsDone(): Promise<void>
  [Symbol.asyncDispose](): Promise<void>
}

export async function startTestServer(
  options: {
    config?: Partial<Config>
    password?: string | null
    beforeStart?: (contentDir: string) => Promise<void> | void
    /** Reuse the folders of an earlier server (restart tests); they are then left in place. */
    root?: string
    /** The server's areas, when a test adds one (test/fixtures/toy-area). */
    areas?: readonly AnyArea[]
  } = {},
): Promise<TestServer> {
  setLogLevel('silent')
  const root = options.root ?? mkdtempSync(join(tmpdir(), 'tankobun-test-'))
  const contentDir = join(root, 'content')
  mkdirSync(contentDir, { recursive: true })
  await options.beforeStart?.(contentDir)
  const password = options.password === undefined ? TEST_PASSWORD : options.password
  const dataDir = join(root, 'data')
  // The default password is stored as the configured one would be, at a cost tests can afford.
  if (options.password === undefined) await storeTestPassword(dataDir)
  const config = loadConfig({}, [], {
    port: 0,
    host: '127.0.0.1',
    dataDir,
    contentDir,
    watch: false,
    // Tests start from an empty library; the first-install category has its own tests.
    favoritesCategory: false,
    logLevel: 'silent',
    ...(password === null || options.password === undefined ? {} : { password }),
    ...options.config,
  })
  const server = await startServer(config, { announce: () => {}, areas: options.areas })
  const req: TestServer['req'] = (path, init = {}) => {
    const headers = new Headers(init.headers)
    let body = init.body
    if (init.json !== undefined) {
      headers.set('content-type', 'application/json')
      body = JSON.stringify(init.json)
    }
    if (init.cookie) headers.set('cookie', init.cookie)
    if (init.token) headers.set('authorization', `Bearer ${init.token}`)
    return fetch(server.url + path, { ...init, headers, body })
  }
  const json = async <T = Wire>(path: string, init?: RequestOptions) => {
    const res = await req(path, init)
    const text = await res.text()
    return { status: res.status, body: (text ? JSON.parse(text) : null) as T, headers: res.headers }
  }
  return {
    ...server,
    root,
    contentDir,
    req,
    json,
    async login() {
      const res = await req('/api/login', { method: 'POST', json: { password: password ?? '' } })
      if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`)
      return res.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ')
    },
    async idsByTitle(cookie) {
      const { body } = await json<{ title: string; arcid: string }[]>('/api/archives', { cookie })
      return Object.fromEntries(body.map((a) => [a.title, a.arcid]))
    },
    idle: () => server.contentSync.idle(),
    async jobsDone() {
      const live = () =>
        server.deps.jobs.list().some((job) => job.state === 'queued' || job.state === 'active')
      for (let waited = 0; live() && waited < 20_000; waited += 20) await Bun.sleep(20)
    },
    async [Symbol.asyncDispose]() {
      await server.stop()
      if (!options.root) rmSync(root, { recursive: true, force: true })
    },
  }
}

/**
 * TEST_PASSWORD's argon2id hash at the lowest cost: at the server's cost (64 MiB, 2 passes) hashing
 * it at every start and checking it at every login took 2-4 s of each test server on a loaded
 * 2-core machine. Verifying reads the cost from the hash, so logins are as cheap. Made once.
 */
let testPasswordHash: Promise<string> | undefined

/**
 * What a configured password does at start (src/domain/auth/password.ts ensureAdminPassword):
 * replaces the stored hash and drops a generated password not yet shown. Tests that configure
 * their own password (`options.password`) still go through the configured path.
 */
async function storeTestPassword(dataDir: string): Promise<void> {
  testPasswordHash ??= Bun.password.hash(TEST_PASSWORD, {
    algorithm: 'argon2id',
    memoryCost: 8,
    timeCost: 1,
  })
  const hash = await testPasswordHash
  mkdirSync(dataDir, { recursive: true })
  const db = openDb(join(dataDir, 'db.sqlite'))
  try {
    const settings = openSettings(db)
    settings.setInternal('password_hash', hash)
    if (settings.getInternal<string>('generated_password_pending'))
      settings.setInternal('generated_password_pending', null)
  } finally {
    db.$client.close()
  }
}

/** Runs `run` with `patch` applied to the server's settings, then puts every setting back. */
export async function withSettings<T>(
  app: Pick<TestServer, 'deps'>,
  patch: Partial<Settings>,
  run: () => Promise<T>,
): Promise<T> {
  const before = app.deps.settings.all()
  app.deps.settings.update(patch)
  try {
    return await run()
  } finally {
    app.deps.settings.update(before)
  }
}

/**
 * The server's deps with some Thumbnailer calls replaced, to stage what happens while the real
 * pool works (a delete landing, calls counted); the other calls are the real pool's.
 */
export function withThumbnailer(deps: Deps, calls: Partial<Thumbnailer>): Deps {
  return { ...deps, thumbnailer: { ...deps.thumbnailer, ...calls } }
}
