// Plugin sandbox round trips: the cold start (Node 24 child + first isolate), a warm trivial call
// (fresh isolate + module + call + IPC both ways), one with a bridged fetch, and a few in flight.
import { createSandboxHost } from '../src/plugins/host.ts'

const RUNS = Number(process.argv[2] ?? 200)
const body = new TextEncoder().encode('{"ok":true}')
const host = createSandboxHost({
  fetch: async (url) => ({ status: 200, headers: [], url, body }),
})
const ctx = { args: {}, oneshot: null }
const trivial = { source: 'export function runScript() { return { data: 1 } }', ctx }
const fetching = {
  source: `export async function runScript() {
    const r = await fetch('https://example.com/'); return { data: await r.json() }
  }`,
  ctx,
}

function percentile(samples: number[], p: number): string {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!.toFixed(2)
}

async function timeRuns(label: string, run: () => Promise<unknown>): Promise<void> {
  const samples: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now()
    await run()
    samples.push(performance.now() - t)
  }
  console.log(`${label}: p50 ${percentile(samples, 0.5)} ms, p90 ${percentile(samples, 0.9)} ms`)
}

let t = performance.now()
await host.run({ ...trivial, entry: 'runScript' })
console.log(`cold start (spawn Node 24 + first run): ${(performance.now() - t).toFixed(1)} ms`)

await timeRuns('warm trivial run', () => host.run({ ...trivial, entry: 'runScript' }))
await timeRuns('warm run with one bridged fetch', () =>
  host.run({ ...fetching, entry: 'runScript' }),
)

t = performance.now()
await Promise.all(Array.from({ length: RUNS }, () => host.run({ ...trivial, entry: 'runScript' })))
const elapsed = performance.now() - t
console.log(`${RUNS} trivial runs at once: ${((RUNS / elapsed) * 1000).toFixed(0)} runs/s`)
await host.close()
