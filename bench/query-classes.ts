// The query-class timing loop of bench/search.ts, shared by its in-process table and by this
// file run as its own process (`bun bench/query-classes.ts <plan.json>`): a client holding
// nothing but its requests, as a LANraragi client meets the server. In the bench script's own
// process the client shared a heap of a million catalogue rows, and its collections after each
// 21 MB answer were counted as the server's time.
import { percentile } from './stats.ts'

/** Query classes with their requests drawn in advance: a name and one path per run. */
export type QueryPlan = { url: string; cookie: string; classes: [string, string[]][] }

/**
 * Times every class `runs` times after 3 warm-ups, the search cache cleared before each request,
 * to the body's last byte (parsing it is the client's cost, not the server's: only the last answer
 * is parsed, for its count). `paths` of a class hold runs + 3 requests.
 */
export async function timeQueryClasses(
  classes: [string, string[]][],
  call: (path: string, method?: string) => Promise<Response>,
  where: string,
): Promise<void> {
  console.log(`query classes, ${where}`)
  console.log('query class                 p50 ms   p95 ms   results (last run)')
  for (const [name, paths] of classes) {
    const times: number[] = []
    let filtered = 0
    for (const [i, path] of paths.entries()) {
      await (await call('/api/search/cache', 'DELETE')).arrayBuffer()
      const t = performance.now()
      const res = await call(path)
      const bytes = await res.arrayBuffer()
      if (i >= 3) times.push(performance.now() - t)
      // Parsed once: 40 parses of a 21 MB answer were collections in the next timed requests.
      if (i < paths.length - 1) continue
      const body = JSON.parse(new TextDecoder().decode(bytes)) as { recordsFiltered: number }
      filtered = body.recordsFiltered
    }
    times.sort((a, b) => a - b)
    const p50 = percentile(times, 0.5).toFixed(2).padStart(8)
    const p95 = percentile(times, 0.95).toFixed(2).padStart(8)
    console.log(`${name.padEnd(26)}${p50} ${p95}   ${filtered}`)
  }
}

/** Runs a plan in a child process of its own and resolves once it has printed its table. */
export async function timeInOwnProcess(plan: QueryPlan, planFile: string): Promise<void> {
  await Bun.write(planFile, JSON.stringify(plan))
  const child = Bun.spawn([process.execPath, import.meta.path, planFile], {
    stdout: 'inherit',
    stderr: 'inherit',
  })
  if ((await child.exited) !== 0) throw new Error('query-class client failed')
}

if (import.meta.main) {
  const plan = (await Bun.file(process.argv[2]!).json()) as QueryPlan
  await timeQueryClasses(
    plan.classes,
    (path, method = 'GET') => fetch(plan.url + path, { method, headers: { cookie: plan.cookie } }),
    'server in its own process, client in another',
  )
}
