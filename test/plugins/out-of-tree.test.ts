// The docs' recipe for a plugin written outside the repo, followed as written: an empty folder, the
// worked metadata plugin of docs/plugins.md in it, `npm --prefix <repo> run plugin -- check|run`
// typed in that folder. It checks without a copy of the SDK and with one (no duplicate
// identifiers), the folder's own tsconfig checks it as an editor would, and it runs on an archive
// named by a relative path.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { makeCbz } from '../helpers/fixtures.ts'

const ROOT = join(import.meta.dir, '..', '..')
let dir: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tankobun-out-of-tree-'))
  const doc = readFileSync(join(ROOT, 'docs/plugins.md'), 'utf8')
  const example = [...doc.matchAll(/```ts\n([\s\S]*?)```/g)]
    .map((match) => match[1]!)
    .find((code) => code.includes('// info-json.ts: uploaded'))!
  writeFileSync(join(dir, 'info-json.ts'), example)
  const info = JSON.stringify({ artist: 'someone', tags: ['tag one'] })
  await makeCbz(join(dir, 'Some Book.cbz'), {
    entries: [{ name: 'info.json', data: new TextEncoder().encode(info) }],
  })
})

afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
})

/** `npm --prefix <repo> run plugin -- ...` typed in the plugin's folder. */
async function npmPlugin(args: string[]) {
  const proc = Bun.spawn(['npm', '--prefix', ROOT, 'run', '--silent', 'plugin', '--', ...args], {
    cwd: dir,
    stdout: 'pipe',
    stderr: 'pipe',
    env: { ...process.env, INIT_CWD: '' },
  })
  const [stdout, stderr] = [
    await new Response(proc.stdout).text(),
    await new Response(proc.stderr).text(),
  ]
  return { code: await proc.exited, stdout, stderr }
}

describe('a plugin written outside the repo', () => {
  it('checks with no copy of the SDK beside it', async () => {
    const out = await npmPlugin(['check', 'info-json.ts'])
    expect(out.stderr).toBe('')
    expect(out.stdout).toContain('info-json.ts: metadata plugin "Info JSON" is valid')
    expect(out.code).toBe(0)
  })

  it('checks with sdk.d.ts and tsconfig.json copied beside it, and tsc there agrees', async () => {
    copyFileSync(join(ROOT, 'plugins/sdk.d.ts'), join(dir, 'sdk.d.ts'))
    copyFileSync(join(ROOT, 'plugins/tsconfig.json'), join(dir, 'tsconfig.json'))
    const out = await npmPlugin(['check', 'info-json.ts'])
    expect(out.stderr).toBe('')
    expect(out.code).toBe(0)
    // What an editor opening the folder sees.
    const tsc = Bun.spawnSync([join(ROOT, 'node_modules/.bin/tsc'), '--noEmit', '-p', dir], {
      stdout: 'pipe',
      stderr: 'pipe',
    })
    expect(tsc.stdout.toString() + tsc.stderr.toString()).toBe('')
    expect(tsc.exitCode).toBe(0)
  })

  it('runs on an archive beside it, named by a relative path', async () => {
    const out = await npmPlugin([
      'run',
      'info-json.ts',
      '--archive',
      'Some Book.cbz',
      '--arg',
      'ratings=',
    ])
    expect(out.stderr).toBe('')
    expect(out.code).toBe(0)
    expect(out.stdout).toContain('"tags": "tag one, artist:someone"')
  })
})
