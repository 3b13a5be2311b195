// A batch item that only waits past its wall clock (a site that never answers, a long sleep) holds
// no thread: it fails alone and the isolate goes on, so the other items in flight are not run a
// second time; and the waiting item's code never runs again once it was reported.
import { afterAll, describe, expect, it } from 'bun:test'
import { createSandboxHost, type PluginItemOutcome } from '../../src/plugins/host.ts'

type Tag = { n: number; batch: string; gated: boolean }
let firstReported!: Record<string, () => void>
const reported: Record<string, Promise<void>> = {}
const asked: Record<string, number[]> = {}
const fetched: string[] = []
/** The entries of a batch's items 1.. are answered once its item 0 was reported. */
function trackBatch(batch: string): void {
  asked[batch] = []
  reported[batch] = new Promise<void>((resolve) => (firstReported = { [batch]: resolve }))
}
const host = createSandboxHost<Tag>({
  async fetch(url) {
    fetched.push(url)
    return { status: 200, headers: [], url, body: new Uint8Array() }
  },
  async entry(_name, run) {
    const { n, batch, gated } = run.tag!
    asked[batch]!.push(n)
    if (gated) await reported[batch]
    return new TextEncoder().encode(String(n))
  },
})
afterAll(() => host.close())

/** `gated`: the items whose entry is answered only once item 0 was reported. */
async function runBatch(
  batch: string,
  source: string,
  count: number,
  gated: (n: number) => boolean,
) {
  trackBatch(batch)
  const outcomes = new Map<number, PluginItemOutcome>()
  await host.runBatch(
    {
      source,
      entry: 'execMetadata',
      limits: { wallMs: 4_000 },
      items: Array.from({ length: count }, (_, n) => ({
        ctx: { args: { n }, oneshot: null },
        tag: { n, batch, gated: gated(n) },
      })),
    },
    (index, outcome) => {
      outcomes.set(index, outcome)
      if (index === 0) firstReported[batch]!()
    },
  )
  return outcomes
}

describe('plugin sandbox batch with an item waiting past its budget', () => {
  it('fails that item alone and runs the items in flight with it once', async () => {
    // Item 0 sleeps past its budget; items 1-7 hold the other slots for over half of it, so items
    // 8-12 start later and are in flight, waiting on their entry, when item 0 runs out of time.
    // Their own budgets then have ~2 s left: room for a loaded machine to report item 0 late.
    const outcomes = await runBatch(
      'sleeping',
      `export async function execMetadata(ctx) {
        const n = ctx.args.n
        if (n === 0) await sleep(10000)
        if (n > 0 && n < 8) await sleep(2000)
        return { tags: 'n:' + new TextDecoder().decode(await ctx.entry('ComicInfo.xml')) }
      }`,
      13,
      (n) => n >= 8,
    )
    expect(outcomes.get(0)).toMatchObject({ ok: false, error: 'plugin timed out after 4 s' })
    for (let n = 1; n < 13; n++)
      expect(outcomes.get(n)).toMatchObject({ ok: true, result: { tags: `n:${n}` } })
    // Each item asked for its entry once: none was run a second time.
    expect(asked.sleeping!.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
  }, 30_000)

  it('never resumes the code of an item reported as timed out', async () => {
    const outcomes = await runBatch(
      'resuming',
      `export async function execMetadata(ctx) {
        await ctx.entry('ComicInfo.xml')
        if (ctx.args.n === 0) await fetch('https://resumed.example/')
        return { tags: 'n:' + ctx.args.n }
      }`,
      3,
      (n) => n === 0,
    )
    expect(outcomes.get(0)).toMatchObject({ ok: false, error: 'plugin timed out after 4 s' })
    expect(outcomes.get(1)).toMatchObject({ ok: true, result: { tags: 'n:1' } })
    expect(outcomes.get(2)).toMatchObject({ ok: true, result: { tags: 'n:2' } })
    // Item 0's entry is answered once it was reported: its code must not go on to fetch.
    await Bun.sleep(300)
    expect(fetched).toEqual([])
  }, 30_000)
})
