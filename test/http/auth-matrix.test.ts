// Every registered route x every kind of credential gets the auth outcome its policy entry says.
// Only the auth outcome is asserted: refused -> 401/403 Env, allowed -> anything but 401/403 (the
// handler then answers 400/404 for dummy ids, which is fine). The expectation below is written from
// the spec's rules, not from caller.ts, so a wrong check in the code shows up as a mismatch.
import { describe, expect, it } from 'bun:test'
import { createApp } from '../../src/app.ts'
import type { Access } from '../../src/http/policy.ts'
import { areaPolicy } from '../../src/areas/assemble.ts'

const POLICY = areaPolicy().rows
import { signAccessToken } from '../../src/domain/auth/access-token.ts'
import { openSession, revokeSession } from '../../src/domain/auth/sessions.ts'
import { createApiToken, deleteApiToken } from '../../src/domain/auth/tokens.ts'
import { eq } from 'drizzle-orm'
import { apiTokens } from '../../src/db/schema/auth.ts'
import { startTestServer, type TestServer } from '../helpers/server.ts'

type Credential =
  | 'none'
  | 'guest token'
  | 'admin token'
  | 'expired token'
  | 'revoked token'
  | 'session'
  | 'expired session'
  | 'revoked session'
const CREDENTIALS: Credential[] = [
  'none',
  'guest token',
  'admin token',
  'expired token',
  'revoked token',
  'session',
  'expired session',
  'revoked session',
]
type Mode = {
  nofun_mode: boolean
  guest_mode: boolean
  authenticated_progress: boolean
  /** Password protection off (TANKOBUN_PASSWORD=''): every caller counts as a session. */
  protection_off?: true
}
type Outcome = 'allowed' | 401 | 403

/**
 * The spec's rules (part 5 and API-NOTES "Identity and auth"), independent of caller.ts.
 * `guestScope`: the policy says the route applies the guest-visitor scope (docs/auth.md).
 */
function expectedOutcome(
  access: Access,
  credential: Credential,
  mode: Mode,
  guestScope = false,
): Outcome {
  if (access === 'open' || mode.protection_off) return 'allowed'
  const isSession = credential === 'session'
  const isToken = credential === 'guest token' || credential === 'admin token'
  if (access === 'progress') {
    // SPEC lists progress updates as admin; anonymous readers may track progress only when
    // nofun_mode, guest_mode and authprogress are all off (SPEC part 5 item 8, LANraragi).
    if (isSession || credential === 'admin token') return 'allowed'
    if (credential === 'guest token') return 403
    const anonymousAllowed = !mode.nofun_mode && !mode.guest_mode && !mode.authenticated_progress
    return anonymousAllowed ? 'allowed' : 401
  }
  switch (access) {
    case 'session':
      return isSession ? 'allowed' : isToken ? 403 : 401
    case 'admin':
      if (isSession || credential === 'admin token') return 'allowed'
      return credential === 'guest token' ? 403 : 401
    case 'any':
      if (isSession || isToken) return 'allowed'
      // Guest mode confines anonymous callers to routes that apply the scope.
      if (mode.guest_mode) return guestScope ? 'allowed' : 401
      return mode.nofun_mode ? 401 : 'allowed'
  }
}

const ARCHIVE_ID = 'a'.repeat(40)
/** Syntactically valid dummies, chosen by the path segment before the parameter. */
function fillPath(path: string): string {
  const segments = path.split('/')
  return segments
    .map((segment, i) => {
      if (segment === '*') return 'x'
      if (!segment.startsWith(':')) return segment
      const name = segment.slice(1)
      const before = segments[i - 1]
      if (name === 'page') return '1'
      if (name === 'archive') return ARCHIVE_ID
      if (before === 'archives') return ARCHIVE_ID
      if (before === 'tankoubons') return 'TANK_0000000001'
      if (before === 'categories') return 'SET_0000000001'
      if (before === 'sessions') return '00000000-0000-4000-8000-000000000000'
      return '1'
    })
    .join('/')
}

/**
 * Routes that destroy every credential on the instance run after all others. The drop endpoint
 * deletes the preferences, password included (SPEC: "may lock the caller out").
 */
const RUN_LAST = new Set(['POST /api/database/drop'])

/** Open routes whose handler itself answers 401 about its own input (the refresh cookie). */
const HANDLER_ANSWERS_401 = new Set(['POST /api/token/refresh'])

type Probe = {
  route: string
  method: string
  path: string
  access: Access
  op: string
  guestScope?: true
}

function probes(app: TestServer): Probe[] {
  return createApp(app.deps)
    .routes.filter((r) => r.method !== 'WS')
    .map((r) => {
      const route = `${r.method} ${r.path}`
      const policy = POLICY[route]
      if (!policy) throw new Error(`${route} has no policy entry (see policy.test.ts)`)
      const method = r.method === 'ALL' ? 'GET' : r.method
      return { route, method, path: fillPath(r.path), ...policy }
    })
    .sort((a, b) => Number(RUN_LAST.has(a.route)) - Number(RUN_LAST.has(b.route)))
}

type Fixtures = { guest: string; admin: string; expired: string; revoked: string }

function tokenFixtures(app: TestServer): Fixtures {
  const make = (role: 'admin' | 'guest') => createApiToken(app.deps, { name: role, role })
  const expired = make('admin')
  const past = Math.floor(Date.now() / 1000) - 60
  app.deps.db
    .update(apiTokens)
    .set({ expiresAt: past })
    .where(eq(apiTokens.id, expired.token.id))
    .run()
  const revoked = make('admin')
  deleteApiToken(app.deps, revoked.token.id)
  return {
    guest: make('guest').secret,
    admin: make('admin').secret,
    expired: expired.secret,
    revoked: revoked.secret,
  }
}

/** Headers for one request; sessions are minted per request: a logout probe burns only its own. */
async function headersFor(
  app: TestServer,
  credential: Credential,
  f: Fixtures,
): Promise<Record<string, string>> {
  const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` })
  const meta = { ip: null, userAgent: 'matrix' }
  switch (credential) {
    case 'none':
      return {}
    case 'guest token':
      return bearer(f.guest)
    case 'admin token':
      return bearer(f.admin)
    case 'expired token':
      return bearer(f.expired)
    case 'revoked token':
      return bearer(f.revoked)
    case 'session':
      return { cookie: `tankobun_access=${(await openSession(app.deps, meta)).accessToken}` }
    case 'expired session': {
      const { familyId } = await openSession(app.deps, meta)
      const past = Math.floor(Date.now() / 1000) - 60
      const expired = await signAccessToken(app.deps.auth.sessionKeys, familyId, past)
      return { cookie: `tankobun_access=${expired}` }
    }
    case 'revoked session': {
      const grant = await openSession(app.deps, meta)
      revokeSession(app.deps, grant.familyId)
      return { cookie: `tankobun_access=${grant.accessToken}` }
    }
  }
}

type Result = { status: number; body: Record<string, unknown> | null }

async function send(
  app: TestServer,
  probe: Probe,
  headers: Record<string, string>,
): Promise<Result> {
  const res = await fetch(app.url + probe.path, { method: probe.method, headers })
  if (res.status !== 401 && res.status !== 403) {
    // Allowed: the handler ran. Streams may never end, so the body is not read.
    await res.body?.cancel()
    return { status: res.status, body: null }
  }
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

function judge(probe: Probe, credential: Credential, mode: Mode, result: Result): string | null {
  const want = expectedOutcome(probe.access, credential, mode, probe.guestScope)
  const where = `${probe.route} [${probe.access}] with ${credential}`
  if (want === 'allowed') {
    const handler401 = result.status === 401 && HANDLER_ANSWERS_401.has(probe.route)
    return (result.status === 401 && !handler401) || result.status === 403
      ? `${where}: expected to pass auth, got ${result.status}`
      : null
  }
  if (result.status !== want) return `${where}: expected ${want}, got ${result.status}`
  if (result.body?.success !== 0 || result.body.operation !== probe.op) {
    return `${where}: refusal is not an Env of ${probe.op}: ${JSON.stringify(result.body)}`
  }
  return null
}

/**
 * Runs the matrix for one settings mode. Refusals first (the handler never runs), then the allowed
 * requests, so a handler with side effects cannot change the outcome of a refusal.
 */
async function runMatrix(app: TestServer, mode: Mode, only?: (p: Probe) => boolean) {
  const { protection_off: _notASetting, ...settings } = mode
  app.deps.settings.update(settings)
  const fixtures = tokenFixtures(app)
  const cases = probes(app)
    .filter((p) => !only || only(p))
    .flatMap((probe) => CREDENTIALS.map((credential) => ({ probe, credential })))
  const allows = (c: (typeof cases)[number]) =>
    expectedOutcome(c.probe.access, c.credential, mode, c.probe.guestScope) === 'allowed'
  const refused = cases.filter((c) => !allows(c))
  const allowed = cases.filter(allows)
  const problems: string[] = []
  for (const batch of [refused, allowed]) {
    for (const { probe, credential } of batch) {
      const result = await send(app, probe, await headersFor(app, credential, fixtures))
      const problem = judge(probe, credential, mode, result)
      if (problem) problems.push(problem)
    }
  }
  return { problems, count: cases.length, refused: refused.length }
}

const DEFAULTS: Mode = { nofun_mode: true, guest_mode: false, authenticated_progress: false }

describe('access matrix: every route x every credential', () => {
  it('answers as the policy says with default settings (nofun_mode on)', async () => {
    await using app = await startTestServer()
    const { problems, count, refused } = await runMatrix(app, DEFAULTS)
    expect(problems).toEqual([])
    expect(count).toBeGreaterThan(CREDENTIALS.length * 10)
    expect(refused).toBeGreaterThan(0)
  })

  it('opens dash routes to anyone when nofun_mode is off, and nothing else', async () => {
    await using app = await startTestServer()
    const mode = { ...DEFAULTS, nofun_mode: false }
    const { problems } = await runMatrix(app, mode, (p) => p.access !== 'open')
    expect(problems).toEqual([])
  })

  it('lets anonymous guests read (scoped) in guest mode, and nothing more', async () => {
    await using app = await startTestServer()
    const mode = { ...DEFAULTS, guest_mode: true }
    const { problems } = await runMatrix(app, mode, (p) => p.access !== 'open')
    expect(problems).toEqual([])
  })

  it('keeps guest-mode visitors to scoped routes even with nofun_mode off', async () => {
    await using app = await startTestServer()
    const mode = { ...DEFAULTS, nofun_mode: false, guest_mode: true }
    const { problems } = await runMatrix(app, mode, (p) => p.access !== 'open')
    expect(problems).toEqual([])
  })

  it('lets every caller through everywhere while password protection is disabled', async () => {
    await using app = await startTestServer({ password: '' })
    const { problems, refused } = await runMatrix(app, { ...DEFAULTS, protection_off: true })
    expect(problems).toEqual([])
    expect(refused).toBe(0)
  })

  it('makes progress updates need a session or admin token when authprogress is on', async () => {
    await using app = await startTestServer()
    const mode = { ...DEFAULTS, nofun_mode: false, authenticated_progress: true }
    const progressRoutes = (p: Probe) => p.access === 'progress'
    const { problems, count } = await runMatrix(app, mode, progressRoutes)
    expect(problems).toEqual([])
    expect(count).toBeGreaterThan(0)
  })

  it('refuses before reading the body: 401/403 Env, not 400, for a malformed body', async () => {
    await using app = await startTestServer()
    const { guest } = tokenFixtures(app)
    const writes = probes(app).filter((p) => p.access !== 'open' && p.method !== 'GET')
    expect(writes.length).toBeGreaterThan(10)
    const problems: string[] = []
    for (const probe of writes) {
      for (const [credential, headers] of [
        ['none', {}],
        ['guest token', { authorization: `Bearer ${guest}` }],
      ] as const) {
        const res = await fetch(app.url + probe.path, {
          method: probe.method,
          headers: { ...headers, 'content-type': 'application/json' },
          body: '{"not json',
        })
        const result = { status: res.status, body: (await res.json()) as Record<string, unknown> }
        const problem = judge(probe, credential, DEFAULTS, result)
        if (problem) problems.push(problem)
      }
    }
    expect(problems).toEqual([])
  })

  it('refuses a guest token on every admin, session and progress route', async () => {
    await using app = await startTestServer()
    const { guest } = tokenFixtures(app)
    const guarded = probes(app).filter((p) => p.access !== 'open' && p.access !== 'any')
    expect(guarded.length).toBeGreaterThan(5)
    const reached: string[] = []
    for (const probe of guarded) {
      const result = await send(app, probe, { authorization: `Bearer ${guest}` })
      if (result.status !== 403) reached.push(`${probe.route}: ${result.status}`)
    }
    expect(reached).toEqual([])
  })
})
