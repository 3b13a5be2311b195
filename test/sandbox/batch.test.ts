// The sandbox's batch path (Run Automatically over many archives) through the real Node child
// process: one isolate per batch and a fresh context per item, so items share no globals and a
// hostile item (a loop, a hang, an allocation bomb) fails alone while the others keep their results.
import { afterAll, describe, expect, it } from 'bun:test'
import {
  createSandboxHost,
  PluginRunError,
  type PluginBatchRequest,
  type PluginItemOutcome,
} from '../../src/plugins/host.ts'

type Tag = { arcid: string }
const entriesAsked: { name: string; arcid?: string }[] = []
const host = createSandboxHost<Tag>({
  async fetch(url) {
    return { status: 200, headers: [], url, body: new TextEncoder().encode('{}') }
  },
  // Each item's archive answers with its own id, so a wrong routing shows in the result.
  async entry(name, run) {
    entriesAsked.push({ name, arcid: run.tag?.arcid })
    return name === 'ComicInfo.xml'
      ? new TextEncoder().encode(`<Title>${run.tag?.arcid}</Title>`)
      : null
  },
})
afterAll(() => host.close())

const archive = (arcid: string) => ({
  arcid,
  title: `Title ${arcid}`,
  tags: '',
  summary: '',
  filename: `${arcid}.zip`,
  pagecount: 1,
})

/** Runs `source` over `count` items (item i: arcid `a<i>`, args.n = i); outcomes by index. */
async function batch(
  source: string,
  count: number,
  extra: Partial<PluginBatchRequest<Tag>> = {},
): Promise<PluginItemOutcome[]> {
  const outcomes: PluginItemOutcome[] = []
  let calls = 0
  await host.runBatch(
    {
      source,
      entry: 'runScript',
      items: Array.from({ length: count }, (_, n) => ({
        ctx: { args: { n }, oneshot: null, archive: archive(`a${n}`) },
        tag: { arcid: `a${n}` },
      })),
      ...extra,
    },
    (index, outcome) => {
      calls++
      expect(outcomes[index]).toBeUndefined()
      outcomes[index] = outcome
    },
  )
  expect(calls).toBe(count)
  return outcomes
}

const results = (outcomes: PluginItemOutcome[]) =>
  outcomes.map((o) => (o.ok ? o.result : { error: o.error }))

describe('plugin sandbox batches', () => {
  it('answers each item with its own ctx and its own archive entries', async () => {
    const outcomes = await batch(
      `export async function runScript(ctx) {
        const xml = new TextDecoder().decode(await ctx.entry('ComicInfo.xml'))
        console.log('item ' + ctx.args.n)
        return { arcid: ctx.archive.arcid, n: ctx.args.n, xml }
      }`,
      20,
    )
    outcomes.forEach((outcome, n) => {
      expect(outcome.ok).toBe(true)
      expect(outcome.ok && outcome.result).toEqual({
        arcid: `a${n}`,
        n,
        xml: `<Title>a${n}</Title>`,
      })
      expect(outcome.logs).toEqual([{ level: 'log', message: `item ${n}` }])
    })
  })

  it('gives every item fresh globals and a fresh module instance', async () => {
    const outcomes = await batch(
      `let calls = 0
      export function runScript(ctx) {
        const seen = globalThis.leaked ?? null
        globalThis.leaked = ctx.archive.arcid
        Array.prototype.leakedToo = ctx.args.n
        return { seen, proto: [].leakedToo ?? null, calls: ++calls }
      }`,
      30,
    )
    // No item sees another's global or built-in prototype change, nor its module state.
    outcomes.forEach((outcome, n) =>
      expect(outcome.ok && outcome.result).toEqual({ seen: null, proto: n, calls: 1 }),
    )
  })

  it('fails only the item whose synchronous code never yields', async () => {
    const outcomes = await batch(
      `export function runScript(ctx) {
        if (ctx.args.n === 3) for (;;) {}
        return { n: ctx.args.n }
      }`,
      10,
      { limits: { syncTimeoutMs: 200 } },
    )
    outcomes.forEach((outcome, n) => {
      if (n === 3) expect(outcome.ok ? '' : outcome.error).toContain('without yielding')
      else expect(outcome.ok && outcome.result).toEqual({ n })
    })
  })

  it('fails only the item that loops after an await, past its wall clock', async () => {
    const outcomes = await batch(
      `export async function runScript(ctx) {
        await sleep(5)
        if (ctx.args.n === 2) for (;;) {}
        await sleep(20)
        return { n: ctx.args.n }
      }`,
      12,
      { limits: { wallMs: 800 } },
    )
    outcomes.forEach((outcome, n) => {
      if (n === 2) expect(outcome.ok ? '' : outcome.error).toBe('plugin timed out after 800 ms')
      else expect(outcome.ok && outcome.result).toEqual({ n })
    })
  })

  it('fails only the item whose promise never settles', async () => {
    const outcomes = await batch(
      `export async function runScript(ctx) {
        if (ctx.args.n === 0) await new Promise(() => {})
        return { n: ctx.args.n }
      }`,
      5,
      { limits: { wallMs: 500 } },
    )
    expect(results(outcomes)).toEqual([
      { error: 'plugin timed out after 500 ms' },
      { n: 1 },
      { n: 2 },
      { n: 3 },
      { n: 4 },
    ])
  })

  it('keeps the other items when one exceeds the memory limit', async () => {
    const outcomes = await batch(
      `export async function runScript(ctx) {
        await sleep(10)
        if (ctx.args.n === 4) {
          const hoard = []
          for (;;) hoard.push(new Array(100000).fill(ctx.args.n))
        }
        await sleep(10)
        return { n: ctx.args.n }
      }`,
      16,
      { limits: { memoryMb: 32 } },
    )
    outcomes.forEach((outcome, n) => {
      if (n === 4) expect(outcome.ok ? '' : outcome.error).toContain('memory limit (32 MB)')
      else expect(outcome.ok && outcome.result).toEqual({ n })
    })
  })

  it('reports a thrown error per item, with the plugin file and line', async () => {
    const outcomes = await batch(
      `export function runScript(ctx) {
        if (ctx.args.n % 2) throw new Error('odd ' + ctx.args.n)
        return { n: ctx.args.n }
      }`,
      4,
      { filename: 'metadata/odd.ts' },
    )
    expect(results(outcomes)).toEqual([
      { n: 0 },
      { error: 'metadata/odd.ts:2: Error: odd 1' },
      { n: 2 },
      { error: 'metadata/odd.ts:2: Error: odd 3' },
    ])
  })

  it('fails every item when the module throws as it loads', async () => {
    const outcomes = await batch(
      `throw new Error('broken at load')
      export function runScript() { return 1 }`,
      3,
    )
    for (const outcome of outcomes)
      expect(outcome.ok ? '' : outcome.error).toContain('broken at load')
  })

  it('refuses a plugin that does not compile before anything runs', async () => {
    const err = await batch('export function runScript( {', 2).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(PluginRunError)
    expect((err as Error).message).toContain('plugin does not compile')
  })

  it('runs a batch longer than one isolate keeps (a fresh isolate takes over)', async () => {
    const outcomes = await batch(
      `export function runScript(ctx) { globalThis.count = (globalThis.count ?? 0) + 1; return [ctx.args.n, globalThis.count] }`,
      1_100,
    )
    outcomes.forEach((outcome, n) => expect(outcome.ok && outcome.result).toEqual([n, 1]))
  })

  it('still runs single plugins after hostile batches', async () => {
    const out = await host.run({
      source: 'export function runScript() { return { data: 7 } }',
      entry: 'runScript',
      ctx: { args: {}, oneshot: null },
    })
    expect(out.result).toEqual({ data: 7 })
  })
})
