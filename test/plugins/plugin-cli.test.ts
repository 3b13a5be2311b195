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
    fetch: () => Response.json({ tags: ['artist:fake', 'language:english'] }),
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
  const proc = Bun.spawn([process.execPath, join(ROOT, 'src/plugins/cli.ts'), ...args], {
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
    expect(out.stdout).toMatch(new RegExp(`GET 127\\.0\\.0\\.1:${site.port} 200 \\d+ B \\d+ ms`))
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
    expect(out.stderr).toContain('broken.ts(')
  })

  it('reports an invalid pluginInfo()', async () => {
    const file = write('bad-info.ts', "export function pluginInfo() { return { name: 'x' } }")
    const out = await cli(['check', file])
    expect(out.code).toBe(1)
    expect(out.stderr).toContain('pluginInfo() is not valid')
  })
})
