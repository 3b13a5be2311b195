// The authoring CLI (`npm run plugin -- check|run`): a real sandbox, the real fetch rules, a fake
// site on loopback, and the exit codes a script or an editor task relies on.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { makeCbz } from '../helpers/fixtures.ts'
import { rescan } from '../helpers/rescan.ts'
import { startTestServer, type Wire } from '../helpers/server.ts'

const ROOT = join(import.meta.dir, '..', '..')
const dir = mkdtempSync(join(tmpdir(), 'tankobun-plugin-cli-'))
let site: ReturnType<typeof Bun.serve>

beforeAll(() => {
  site = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: (req) => {
      if (new URL(req.url).pathname === '/members' && req.headers.get('cookie') !== 'sid=abc123')
        return new Response('members only', { status: 403 })
      return Response.json({ tags: ['artist:fake', 'language:english'] })
    },
  })
})

afterAll(() => {
  site.stop(true)
  rmSync(dir, { recursive: true, force: true })
})

function write(name: string, source: string): string {
  const path = join(dir, name)
  writeFileSync(path, source)
  return path
}

async function cli(args: string[], env: Record<string, string> = {}) {
  const proc = Bun.spawn([process.execPath, join(ROOT, 'src/cli/plugin.ts'), ...args], {
    stdout: 'pipe',
    stderr: 'pipe',
    env: { ...process.env, ...env },
  })
  const [stdout, stderr] = [
    await new Response(proc.stdout).text(),
    await new Response(proc.stderr).text(),
  ]
  return { code: await proc.exited, stdout, stderr }
}

const fetching = `
export function pluginInfo() {
  return { name: 'Fake lookup', type: 'metadata', author: 'test', description: 'asks a fake site',
    version: '1.0', hosts: ['127.0.0.1'] }
}
export async function execMetadata(ctx: PluginContext) {
  console.log('looking up', ctx.oneshot)
  const res = await fetch(String(ctx.oneshot))
  const body = (await res.json()) as { tags: string[] }
  return { tags: body.tags.join(', ') }
}
`

describe('npm run plugin -- run', () => {
  it('runs a plugin against a local site and prints its result, log and fetches', async () => {
    const file = write('fetching.ts', fetching)
    const url = `http://127.0.0.1:${site.port}/lookup`
    const out = await cli(['run', file, '--oneshot', url], {
      TANKOBUN_FETCH_ALLOW_PRIVATE: '127.0.0.1',
    })
    expect(out.code).toBe(0)
    expect(out.stdout).toContain('"tags": "artist:fake, language:english"')
    expect(out.stdout).toContain('log: looking up')
    expect(out.stdout).toMatch(
      new RegExp(`GET 127\\.0\\.0\\.1:${site.port}/lookup 200 \\d+ B \\d+ ms`),
    )
  })

  it('refuses the same fetch without the private-host allowance, and exits 1', async () => {
    const file = write('fetching-refused.ts', fetching)
    const out = await cli(['run', file, '--oneshot', `http://127.0.0.1:${site.port}/lookup`], {
      TANKOBUN_FETCH_ALLOW_PRIVATE: '',
    })
    expect(out.code).toBe(1)
    expect(out.stdout).toContain('error:')
    expect(out.stdout).toContain('refused')
  })
})

describe('npm run plugin -- run --archive', () => {
  const echo = write(
    'echo-archive.ts',
    `export function pluginInfo() {
      return { name: 'Echo', type: 'metadata', author: 't', description: 'd', version: '1' }
    }
    export function execMetadata(ctx: PluginContext) { return { summary: JSON.stringify(ctx.archive) } }`,
  )

  it('takes the id of a catalogued archive: its stored metadata, read while the server runs', async () => {
    await using app = await startTestServer()
    await app.idle()
    const cookie = await app.login()
    await makeCbz(join(app.contentDir, 'sub', 'Some Book.cbz'), { pages: 3 })
    await rescan(app, cookie)
    const archive = (await app.json<Wire[]>(`/api/archives`, { cookie })).body[0]!
    await app.json(`/api/archives/${archive.arcid}/metadata`, {
      method: 'PUT',
      cookie,
      json: { tags: 'artist:someone', summary: 'kept' },
    })
    const env = { TANKOBUN_DATA_DIR: join(app.root, 'data'), TANKOBUN_CONTENT_DIR: app.contentDir }
    const out = await cli(['run', echo, '--archive', archive.arcid], env)
    expect(out.stderr).toBe('')
    expect(out.code).toBe(0)
    const summary = JSON.parse(
      JSON.parse(out.stdout.split('result:\n')[1]!.split('\nlog:')[0]!).summary,
    )
    expect(summary).toEqual({
      arcid: archive.arcid,
      title: 'Some Book',
      tags: expect.stringContaining('artist:someone'),
      summary: 'kept',
      filename: 'Some Book',
      pagecount: 3,
    })

    const unknown = await cli(['run', echo, '--archive', 'f'.repeat(40)], env)
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain('no archive with that id')
  })
})

describe('npm run plugin -- check', () => {
  it('accepts a valid plugin', async () => {
    const out = await cli(['check', write('valid.ts', fetching)])
    expect(out.stderr).toBe('')
    expect(out.stdout).toContain('metadata plugin "Fake lookup" is valid')
    expect(out.code).toBe(0)
  })

  it('names the file and line of a type error, and exits 1', async () => {
    const broken = fetching.replace(
      'const body =',
      'const pages: number = ctx.oneshot\n  const body =',
    )
    const file = write('broken.ts', broken)
    const out = await cli(['check', file])
    expect(out.code).toBe(1)
    expect(out.stderr).toMatch(/broken\.ts:9:9: error TS2322/)
  })

  it('names a syntax error by file:line:col once, then the type checker goes on', async () => {
    const file = write('syntax.ts', fetching.replace('const body =', 'const body = ;\n  const b ='))
    const out = await cli(['check', file])
    expect(out.code).toBe(1)
    const lines = out.stderr.split('\n')
    expect(lines[0]).toBe(`${file}:9:16: SyntaxError: Unexpected ;`)
    expect(lines[1]).toBe('    const body = ;')
    expect(lines[2]).toBe('                 ^')
    expect(out.stderr).toContain(`${file}:9:16: error TS1109`)
    expect(out.stderr.split(file).length - 1).toBe(2)
    expect(out.stderr).not.toContain('Parse error')
  })

  it('names every error of a file Bun reports as "Parse error"', async () => {
    const file = write(
      'parse.ts',
      fetching.replace('const body =', 'const f = (a: number => a\n  const body ='),
    )
    const out = await cli(['check', file])
    expect(out.code).toBe(1)
    expect(out.stderr).toContain(`${file}:9:24: SyntaxError: Expected ")" but found "=>"`)
    expect(out.stderr).not.toContain('Parse error')
  })

  it('type-checks a file whose pluginInfo() fails', async () => {
    const file = write(
      'both.ts',
      "export function pluginInfo() { return { name: 'x' } }\nconst n: number = 'a'\n",
    )
    const out = await cli(['check', file])
    expect(out.code).toBe(1)
    expect(out.stderr).toContain('pluginInfo() is not valid')
    expect(out.stderr).toContain(`${file}:2:7: error TS2322`)
  })

  it('reports an invalid pluginInfo()', async () => {
    const file = write('bad-info.ts', "export function pluginInfo() { return { name: 'x' } }")
    const out = await cli(['check', file])
    expect(out.code).toBe(1)
    expect(out.stderr).toContain('pluginInfo() is not valid')
  })
})

describe('npm run plugin -- run, options', () => {
  const env = { TANKOBUN_FETCH_ALLOW_PRIVATE: '127.0.0.1' }

  it('--timeout sets the wall clock', async () => {
    const file = write(
      'slow.ts',
      fetching.replace("console.log('looking up', ctx.oneshot)", 'await sleep(3000)'),
    )
    const out = await cli(['run', file, '--oneshot', 'x', '--timeout', '500'], env)
    expect(out.code).toBe(1)
    expect(out.stdout).toContain('error: plugin timed out after 500 ms')
    const bad = await cli(['run', file, '--timeout', 'soon'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--timeout takes milliseconds')
  })

  it('--login runs a login plugin first and fetches with its session', async () => {
    const login = write(
      'login.ts',
      `export function pluginInfo() {
        return { name: 'Login', type: 'login', author: 't', description: 'd', version: '1',
          hosts: ['127.0.0.1'], parameters: [{ name: 'sid', type: 'string', desc: 'session id' }] }
      }
      export function execLogin(ctx: PluginContext) {
        return { cookies: [{ name: 'sid', value: String(ctx.args.sid), domain: '127.0.0.1' }] }
      }`,
    )
    const file = write('members.ts', fetching)
    const url = `http://127.0.0.1:${site.port}/members`
    const without = await cli(['run', file, '--oneshot', url], env)
    expect(without.code).toBe(1)
    const out = await cli(
      ['run', file, '--oneshot', url, '--login', login, '--login-arg', 'sid=abc123'],
      env,
    )
    expect(out.stderr).toBe('')
    expect(out.code).toBe(0)
    expect(out.stdout).toContain('login: ')
    expect(out.stdout).toContain('"tags": "artist:fake, language:english"')
    expect(out.stdout).toContain(`GET 127.0.0.1:${site.port}/members 200`)
  })

  it("prints the log of a failed run, with each line's level", async () => {
    const file = write(
      'failing.ts',
      fetching.replace(
        "console.log('looking up', ctx.oneshot)",
        "console.info('an info'); console.debug('a debug'); console.warn('a warning'); throw new Error('gave up')",
      ),
    )
    const out = await cli(['run', file, '--oneshot', 'x'], env)
    expect(out.code).toBe(1)
    expect(out.stdout).toContain('log:\n  info: an info\n  debug: a debug\n  warn: a warning\n')
    expect(out.stdout).toContain('error: ')
    expect(out.stdout).toContain('gave up')
  })
})
