// A batch item whose code loops after an await holds the isolate's thread until its watchdog
// disposes the isolate. Another item ending just before must not wedge the sandbox process: the
// next item's setup has to wait without blocking Node's event loop, or the watchdog never fires
// and the host gives up on the whole process (every item, and any single run in it, fails).
import { afterAll, describe, expect, it } from 'bun:test'
import { createSandboxHost, type PluginItemOutcome } from '../../src/plugins/host.ts'

type Tag = { n: number }
/** Item 0 ends right before item 1 starts looping: both entries are answered in one tick. */
let release!: () => void
const gate = new Promise<void>((resolve) => (release = resolve))
const asked = new Set<number>()
const host = createSandboxHost<Tag>({
  async fetch() {
    throw new Error('no fetches here')
  },
  async entry(_name, run) {
    const n = run.tag!.n
    if (n > 1) return new TextEncoder().encode(String(n))
    asked.add(n)
    if (asked.size === 2) release()
    await gate
    return new TextEncoder().encode(String(n))
  },
})
afterAll(() => host.close())

const source = `export async function execMetadata(ctx) {
  const body = new TextDecoder().decode(await ctx.entry('ComicInfo.xml'))
  if (ctx.args.n === 1) while (true) {}
  return { tags: 'n:' + body }
}`

describe('plugin sandbox batch with an item looping after an await', () => {
  it('fails that item alone and answers every other item', async () => {
    const count = 40
    const outcomes = new Map<number, PluginItemOutcome>()
    await host.runBatch(
      {
        source,
        entry: 'execMetadata',
        limits: { wallMs: 1_000 },
        items: Array.from({ length: count }, (_, n) => ({
          ctx: { args: { n }, oneshot: null },
          tag: { n },
        })),
      },
      (index, outcome) => outcomes.set(index, outcome),
    )
    expect(outcomes.size).toBe(count)
    const looping = outcomes.get(1)!
    expect(looping.ok).toBe(false)
    expect(looping.ok ? '' : looping.error).toContain('timed out after 1 s')
    for (let n = 0; n < count; n++) {
      if (n === 1) continue
      expect(outcomes.get(n)).toMatchObject({ ok: true, result: { tags: `n:${n}` } })
    }
    // The process lived through it: a single run right after is answered by it.
    const single = await host.run({
      source: 'export function runScript() { return { data: 7 } }',
      entry: 'runScript',
      ctx: { args: {}, oneshot: null },
    })
    expect(single.result).toEqual({ data: 7 })
  }, 30_000)
})
