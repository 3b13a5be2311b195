// A stranger's plugin against the real sandbox process: memory outside the isolate's limit, host
// calls left pending, a body that cannot fit, a crash beside a good plugin's batch, the child's
// environment and what a host error shows. The plugins are the files in fixtures/hostile/.
import { afterAll, describe, expect, it } from 'bun:test'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { createSandboxHost, PluginRunError, type PluginRunRequest } from '../../src/plugins/host.ts'
import { MAX_SANDBOX_PROCESSES } from '../../src/plugins/sandbox-pool.ts'
import { sandboxPids } from '../helpers/plugins.ts'

const FIXTURES = join(import.meta.dir, 'fixtures', 'hostile')
const MB = 1024 * 1024
/** The outbound cap of a response body (src/net): the largest body a plugin can be handed. */
const BODY_CAP = 32 * MB
/** What the child may see: Node's needs, the allocator setting, and Bun's IPC channel. */
const ALLOWED_ENV = ['PATH', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ', 'TMPDIR', 'MALLOC_MMAP_THRESHOLD_']
const IPC_ENV = /^NODE_CHANNEL_/

// Set before the host starts any process: the child must not inherit it.
process.env.TANKOBUN_PASSWORD = 'hostile-test-password'
process.env.TANKOBUN_LLM_API_KEY = 'hostile-test-key'

/** Fetches the host is answering at once, and the most seen. */
const fetching = { now: 0, most: 0 }

const host = createSandboxHost({
  async fetch(url) {
    if (url.includes('refused')) throw new Error('refused: private address')
    if (url.includes('slow')) {
      fetching.most = Math.max(fetching.most, ++fetching.now)
      await Bun.sleep(20)
      fetching.now--
    }
    const size = url.includes('big') ? BODY_CAP : 10
    return { status: 200, headers: {}, url, body: new Uint8Array(size) }
  },
})
afterAll(() => host.close())

const ctx = { args: {}, oneshot: null }
const fixture = (name: string) => readFileSync(join(FIXTURES, `${name}.ts`), 'utf8')
const runFixture = (name: string, extra: Partial<PluginRunRequest> = {}) =>
  host.run({ source: fixture(name), entry: 'runScript', ctx, filename: `${name}.ts`, ...extra })
const failure = (promise: Promise<unknown>) =>
  promise.then(
    (out) => {
      throw new Error(`the run should have failed: ${JSON.stringify(out)}`)
    },
    (err: unknown) => {
      expect(err).toBeInstanceOf(PluginRunError)
      return (err as Error).message
    },
  )

/** Resident size in bytes, read from the OS; undefined once the process is gone. */
function rssOf(pid: number): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
    return kb === undefined ? undefined : Number(kb) * 1024
  } catch {
    return undefined
  }
}

/** The pid a trivial run of `filename` lands on (its plugin's own process). */
async function pidOf(filename: string): Promise<number> {
  const before = new Set(sandboxPids())
  await host.run({
    source: 'export function runScript() { return 1 }',
    entry: 'runScript',
    ctx,
    filename,
  })
  const fresh = sandboxPids().filter((pid) => !before.has(pid))
  if (fresh.length === 1) return fresh[0]!
  throw new Error(`no single new sandbox process for ${filename}: ${fresh.join(', ')}`)
}

/** The sandbox process that appears besides `known` (polled: a spawn takes a moment). */
async function newSandboxPid(known: Set<number>): Promise<number> {
  for (let tries = 0; tries < 200; tries++) {
    const fresh = sandboxPids().find((pid) => !known.has(pid))
    if (fresh !== undefined) return fresh
    await Bun.sleep(20)
  }
  throw new Error('no new sandbox process appeared')
}

/**
 * Waits until the process is gone or back within `slackBytes` of `idle`; answers what it saw
 * last. Polls, so no timing is asserted: only where the memory ends up.
 */
async function settledRss(pid: number, idle: number, slackBytes: number): Promise<number> {
  let rss = rssOf(pid) ?? 0
  for (let i = 0; i < 100 && rss > idle + slackBytes; i++) {
    await Bun.sleep(100)
    rss = rssOf(pid) ?? 0
  }
  return rss
}

describe('a hostile plugin against the sandbox', () => {
  it('cannot reach WebAssembly, resizable or shared buffers (memory outside its limit)', async () => {
    expect(await failure(runFixture('wasm-memory'))).toContain('WebAssembly is not defined')
    expect(await failure(runFixture('resizable-buffer'))).toContain(
      'resizable ArrayBuffers are not available to plugins',
    )
    expect(await failure(runFixture('growable-shared-buffer'))).toContain(
      'SharedArrayBuffer is not defined',
    )
    // Plain buffers still work and still count against the limit.
    const plain = await host.run({
      source: `export function runScript() {
        const b = new ArrayBuffer(8); const c = b.slice(0, 4)
        return [b.byteLength, c.byteLength, c instanceof ArrayBuffer, ArrayBuffer.isView(new Uint8Array(b))]
      }`,
      entry: 'runScript',
      ctx,
    })
    expect(plain.result).toEqual([8, 4, true, true])
  })

  it('bounds pending host calls, and its process returns to its idle size after the run', async () => {
    const pid = await pidOf('pending-sleeps.ts')
    await Bun.sleep(200)
    const idle = rssOf(pid)!
    const message = await failure(runFixture('pending-sleeps'))
    expect(message).toMatch(/memory limit|without yielding/)
    // The process is replaced or collected: within a few MB of what it was idle.
    expect(await settledRss(pid, idle, 8 * MB)).toBeLessThanOrEqual(idle + 8 * MB)
    // A run that awaits its calls is refused past the bound with a clear message.
    const bounded = await host.run({
      source: `export async function runScript() {
        const calls = []
        for (let i = 0; i < 100; i++) calls.push(sleep(1).then(() => 'ok', (e) => e.message))
        return [...new Set(await Promise.all(calls))]
      }`,
      entry: 'runScript',
      ctx,
    })
    expect(bounded.result).toEqual([
      'ok',
      'too many host calls in flight (32): await some before starting more',
    ])
  })

  it('hands over a body at the size cap, and one that cannot fit fails the run, not the process', async () => {
    const read = await host.run({
      source: `export async function runScript() {
        return (await (await fetch('https://big.example/')).bytes()).length
      }`,
      entry: 'runScript',
      ctx,
      filename: 'body-at-cap.ts',
    })
    expect(read.result).toBe(BODY_CAP)
    const pid = await pidOf('body-near-limit.ts')
    const out = await runFixture('body-near-limit')
    expect(out.result).toEqual({
      error: 'RangeError: Array buffer allocation failed',
      kept: 40 * MB,
    })
    // The same process lives on and answers the next run.
    expect(sandboxPids()).toContain(pid)
  })

  // Each hostile run in turn: its plugin's process ends within a few MB of its idle size (or is
  // replaced, which gives everything back to the machine).
  for (const name of ['heap-bomb', 'body-near-limit', 'wasm-memory', 'resizable-buffer'])
    it(`leaves its process at its idle size after ${name}`, async () => {
      const filename = `${name}-rss.ts`
      const pid = await pidOf(filename)
      await Bun.sleep(200)
      const idle = rssOf(pid)!
      await runFixture(name, { filename }).catch(() => undefined)
      expect(await settledRss(pid, idle, 8 * MB)).toBeLessThanOrEqual(idle + 8 * MB)
    })

  it('sends its fetches to the server six at a time, the rest waiting their turn', async () => {
    const out = await host.run({
      source: `export async function runScript() {
        const all = []
        for (let i = 0; i < 30; i++) all.push(fetch('https://slow.example/' + i).then((r) => r.status))
        return (await Promise.all(all)).filter((status) => status === 200).length
      }`,
      entry: 'runScript',
      ctx,
    })
    expect(out.result).toBe(30)
    expect(fetching.most).toBe(6)
  })

  it('cannot hand the server a result past 1 MB', async () => {
    const message = await failure(
      host.run({
        source: `export function runScript() { return { data: 'x'.repeat(2 * 1024 * 1024) } }`,
        entry: 'runScript',
        ctx,
      }),
    )
    expect(message).toBe('plugin result is larger than 1 MB')
  })

  it("shows a refused fetch's message with the plugin's frames only", async () => {
    const stack = String((await runFixture('refused-fetch-stack')).result)
    expect(stack).toStartWith('Error: refused: private address')
    expect(stack).toContain('refused-fetch-stack.ts')
    expect(stack).not.toContain('node:internal')
    expect(stack).not.toContain(process.cwd())
    expect(stack).not.toContain('sandbox/')
  })

  it("reads isolated-vm's options from objects a plugin cannot reach", async () => {
    expect((await runFixture('polluted-prototype')).result).toBe(10)
  })

  it('starts its process with none of the server environment', async () => {
    await host.run({ source: 'export function runScript() {}', entry: 'runScript', ctx })
    for (const pid of sandboxPids()) {
      const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean)
      const names = environ.map((line) => line.slice(0, line.indexOf('=')))
      expect(environ.join('\n')).not.toContain('hostile-test')
      expect(names.filter((name) => name.startsWith('TANKOBUN'))).toEqual([])
      for (const name of names.filter((name) => !IPC_ENV.test(name)))
        expect(ALLOWED_ENV).toContain(name)
    }
  })

  it('runs every thread of its process at a lower CPU priority than the server', async () => {
    await host.run({
      source: 'export async function runScript() { await sleep(1); return 1 }',
      entry: 'runScript',
      ctx,
      filename: 'nice.ts',
    })
    const nice = (stat: string) => Number(stat.split(') ')[1]!.split(' ')[16])
    for (const pid of sandboxPids())
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')
        expect(nice(stat)).toBeGreaterThan(nice(readFileSync('/proc/self/stat', 'utf8')))
      }
  })

  it("fails only the crashing plugin's runs, never a good plugin's batch beside it", async () => {
    const good = `export async function execMetadata(ctx) {
      await sleep(5)
      return { tags: 'item:' + ctx.args.n }
    }`
    const outcomes: boolean[] = []
    const known = new Set(sandboxPids())
    const batch = host.runBatch(
      {
        source: good,
        entry: 'execMetadata',
        filename: 'good.ts',
        items: Array.from({ length: 300 }, (_, n) => ({ ctx: { args: { n }, oneshot: null } })),
      },
      (_, outcome) => outcomes.push(outcome.ok),
    )
    const goodPid = await newSandboxPid(known)
    known.add(goodPid)
    // Three hostile runs, each in its own process, each killed as a crash would end it.
    const hostile = `export async function runScript() { await sleep(10_000) }`
    for (let i = 0; i < 3; i++) {
      const run = host.run({ source: hostile, entry: 'runScript', ctx, filename: `crash-${i}.ts` })
      const crashed = await newSandboxPid(known)
      known.add(crashed)
      process.kill(crashed, 'SIGKILL')
      expect(await failure(run)).toContain('plugin sandbox exited')
    }
    expect(sandboxPids()).toContain(goodPid)
    await batch
    expect(outcomes.length).toBe(300)
    expect(outcomes.filter((ok) => !ok).length).toBe(0)
  })

  it(`keeps at most ${MAX_SANDBOX_PROCESSES} processes, however many plugins run at once`, async () => {
    const runs = Array.from({ length: MAX_SANDBOX_PROCESSES + 3 }, (_, i) =>
      host.run({
        source: 'export async function runScript() { await sleep(200); return 1 }',
        entry: 'runScript',
        ctx,
        filename: `many-${i}.ts`,
      }),
    )
    let most = 0
    let done = false
    const all = Promise.all(runs).finally(() => (done = true))
    while (!done) {
      most = Math.max(most, sandboxPids().length)
      await Bun.sleep(10)
    }
    expect((await all).map((out) => out.result)).toEqual(runs.map(() => 1))
    expect(most).toBeLessThanOrEqual(MAX_SANDBOX_PROCESSES)
  })
})
