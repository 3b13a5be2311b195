// Tankobun against any LANraragi-compatible server: the same query classes (drawn from the
// target's own tag statistics and archive list), pages and covers, measured on both with requests
// interleaved so the machine's noise hits both alike; prints target time / Tankobun time.
// Usage: bun bench/compare.ts --target URL --key KEY [--base URL --base-key KEY]
//          [--content DIR] [--archives N] [--runs N] [--seconds S]   (bench/README.md)
import { setLogLevel } from '../src/log.ts'
import { bearer } from './compare-library.ts'
import {
  coverReady,
  fixed,
  geomean,
  getJson,
  inTurn,
  measureClass,
  median,
  pageUrls,
  queryClasses,
  request,
  seeded,
  startBase,
  throughput,
  type BaseMetadata,
  type ClassFigures,
  type ListedArchive,
  type QueryClass,
  type Rate,
  type Side,
  type TagStat,
} from './http-measures.ts'

const USAGE = `usage: bun bench/compare.ts --target URL --key KEY [options]
  --target URL      the server compared (LANraragi or any server of its API)
  --key KEY         its API key (admin: clearing the search cache needs it)
  --base URL        a running Tankobun to compare against (default: one started here)
  --base-key KEY    its API key (a tkb_ token)
  --content DIR     content folder of the started Tankobun: the target's own, for equal files
                    (default: generated archives given the target's titles and tags)
  --archives N      most archives generated without --content (default 20000)
  --runs N          timed requests per measure and server (default 20)
  --seconds S       length of one throughput round (default 2; 3 rounds per server)
`

const WARMUPS = 3
const ROUNDS = 3
/** Archives whose pages make up the page-throughput pool. */
const PAGE_POOL_ARCHIVES = 8

// ---- Arguments ----------------------------------------------------------------------------

function parseArgs(argv: string[]): Record<string, string> {
  const out: Record<string, string> = {}
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i]!
    const value = argv[i + 1]
    if (!name.startsWith('--') || value === undefined) {
      process.stderr.write(USAGE)
      process.exit(2)
    }
    out[name.slice(2)] = value
  }
  return out
}

const args = parseArgs(process.argv.slice(2))
if (!args.target || !args.key || (args.base && !args['base-key'])) {
  process.stderr.write(USAGE)
  process.exit(2)
}
const RUNS = Number(args.runs ?? 20)
const SECONDS = Number(args.seconds ?? 2)
const GENERATED_CAP = Number(args.archives ?? 20_000)
setLogLevel('error')
const classRuns = { runs: RUNS, warmups: WARMUPS }
const rounds = { seconds: SECONDS, rounds: ROUNDS }

/**
 * The target's titles, tags and new flags for the base's rows: onto the same ids, the rest onto
 * the other rows in path order (generated archives: in order).
 */
const copyTarget = (targetList: ListedArchive[]) => (rows: { id: string }[]) => {
  const byTargetId = new Map(targetList.map((a) => [a.arcid, a]))
  const rowIds = new Set(rows.map((r) => r.id))
  const unmatched = targetList.filter((a) => !rowIds.has(a.arcid))
  const byId = new Map<string, BaseMetadata>()
  let next = 0
  for (const row of rows) {
    const source = byTargetId.get(row.id) ?? unmatched[next++]
    if (!source) continue
    byId.set(row.id, {
      title: String(source.title),
      tags: source.tags ?? '',
      isnew: String(source.isnew) === 'true',
    })
  }
  const sameIds = rows.filter((r) => byTargetId.has(r.id)).length
  return { byId, note: `, ${sameIds} with the target's ids` }
}

// ---- Main -----------------------------------------------------------------------------------

const target: Side = {
  name: 'target',
  url: args.target.replace(/\/$/, ''),
  headers: bearer(args.key),
  canClear: true,
}
console.log(`target ${target.url}: reading its tag statistics and archive list`)
const stats = await getJson<TagStat[]>(target, '/api/database/stats?minweight=1')
const targetList = await getJson<ListedArchive[]>(target, '/api/archives')
console.log(`target: ${targetList.length} archives, ${stats.length} tags`)

let stopBase = async () => {}
let base: Side
if (args.base) {
  base = {
    name: 'tankobun',
    url: args.base.replace(/\/$/, ''),
    headers: bearer(args['base-key']!),
    canClear: true,
  }
} else {
  const started = await startBase({
    content: args.content,
    generate: Math.max(1, Math.min(targetList.length, GENERATED_CAP)),
    metadata: copyTarget(targetList),
  })
  base = started.side
  stopBase = started.stop
}

try {
  const sides: [Side, Side] = [target, base]
  const baseList = await getJson<ListedArchive[]>(base, '/api/archives')
  console.log(`tankobun ${base.url}: ${baseList.length} archives`)
  const loadAverage = (
    await Bun.file('/proc/loadavg')
      .text()
      .catch(() => '?')
  ).trim()
  console.log(
    `${new Date().toISOString()}  load average ${loadAverage}  runs ${RUNS}, ` +
      `throughput ${ROUNDS} x ${SECONDS} s per server`,
  )

  // Every class's queries (unpaged ids aside) in turn: the throughput mix, and first a warm-up of
  // both servers with it, since a base started here has not run its code paths (JIT) yet.
  const classes = queryClasses(stats, targetList)
  const mix: string[] = []
  const draws = classes.filter((c) => c.name !== 'unpaged ids')
  for (let i = 0; i < RUNS; i++)
    for (const klass of draws) {
      const path = klass.draw()
      if (path !== null) mix.push(path)
    }
  const searchUrls = new Map(sides.map((s) => [s, mix]))
  await throughput(sides, searchUrls, 4, true, { seconds: SECONDS, rounds: 1 })

  // 1. Search classes: cache cleared, then warm.
  const classFigures: [QueryClass, ClassFigures][] = []
  for (const klass of classes) {
    process.stderr.write(`  measuring ${klass.name}...`.padEnd(60) + '\r')
    classFigures.push([klass, await measureClass(sides, klass, classRuns)])
  }

  // 2. Search throughput over the same mix, cache cleared before each round; what a server caches
  // within a round is its own business.
  const searchFigures: [number, Map<Side, Rate>][] = []
  for (const clients of [4, 16])
    searchFigures.push([clients, await throughput(sides, searchUrls, clients, true, rounds)])

  // Archives of both servers paired by id, else by title (a base on generated files).
  const baseById = new Map(baseList.map((a) => [a.arcid, a]))
  const baseByTitle = new Map(baseList.map((a) => [String(a.title), a]))
  const pairs = targetList
    .map((a) => [a, baseById.get(a.arcid) ?? baseByTitle.get(String(a.title))] as const)
    .filter((p): p is readonly [ListedArchive, ListedArchive] => p[1] !== undefined)
    .map(([t, b]) => ({
      ids: new Map([
        [target, t.arcid],
        [base, b.arcid],
      ]),
      pages: Math.max(Number(t.pagecount) || 0, Number(b.pagecount) || 0),
    }))
    .sort((a, b) => b.pages - a.pages)
  const random = seeded(Date.now() | 1)
  const shuffle = <T>(items: T[]) => {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1))
      ;[items[i], items[j]] = [items[j]!, items[i]!]
    }
    return items
  }

  // 3. Pages throughput over the pages of the longest archives (opened first: warm).
  const pool = pairs.slice(0, PAGE_POOL_ARCHIVES)
  const pageUrlsOf = new Map<Side, string[]>(sides.map((s) => [s, []]))
  for (const pair of pool)
    for (const side of sides) {
      const urls = await pageUrls(side, pair.ids.get(side)!)
      if (urls) pageUrlsOf.get(side)!.push(...urls)
    }
  for (const side of sides) shuffle(pageUrlsOf.get(side)!)
  const pageFigures: [number, Map<Side, Rate>][] = []
  for (const clients of [4, 16])
    pageFigures.push([clients, await throughput(sides, pageUrlsOf, clients, false, rounds)])

  // 4. First page of a never-opened archive: /files then the first page, as a reader opens one.
  // Drawn at random among the longer remaining archives, since an earlier run opened some.
  const rest = pairs.slice(PAGE_POOL_ARCHIVES)
  const fresh = shuffle(rest.slice(0, Math.max(RUNS * 3, Math.ceil(rest.length / 4)))).slice(
    0,
    RUNS,
  )
  const firstPage = new Map<Side, number[]>(sides.map((s) => [s, []]))
  const firstFailed = new Map<Side, string>()
  for (let i = 0; i < fresh.length; i++)
    for (const side of inTurn(sides, i)) {
      if (firstFailed.has(side)) continue
      const t = performance.now()
      const urls = await pageUrls(side, fresh[i]!.ids.get(side)!)
      const page = urls?.[0] ? await request(side, urls[0]) : null
      if (page?.status === 200) firstPage.get(side)!.push(performance.now() - t)
      else firstFailed.set(side, page ? `HTTP ${page.status}` : '/files failed')
    }

  // 5. An existing cover: made first where missing, then timed.
  const coverPairs: typeof pairs = []
  for (const pair of shuffle(pairs.slice(PAGE_POOL_ARCHIVES)).slice(0, RUNS * 2)) {
    if (coverPairs.length >= RUNS) break
    let ready = true
    for (const side of sides) ready = ready && (await coverReady(side, pair.ids.get(side)!))
    if (ready) coverPairs.push(pair)
  }
  const covers = new Map<Side, number[]>(sides.map((s) => [s, []]))
  for (let i = 0; i < coverPairs.length; i++)
    for (const side of inTurn(sides, i)) {
      const answer = await request(side, `/api/archives/${coverPairs[i]!.ids.get(side)}/thumbnail`)
      if (answer.status === 200) covers.get(side)!.push(answer.ms)
    }

  // ---- Report ----
  const ratio = (t: number, b: number) => fixed(t / b)
  console.log('\nsearch, p50 ms (ratio = target / tankobun; above 1: tankobun is faster)')
  console.log(
    `${'class'.padEnd(26)}${'results t/b'.padStart(20)}` +
      `${'cleared t'.padStart(11)}${'b'.padStart(8)}${'ratio'.padStart(7)}` +
      `${'warm t'.padStart(9)}${'b'.padStart(8)}${'ratio'.padStart(7)}`,
  )
  const clearedRatios: number[] = []
  const warmRatios: number[] = []
  for (const [klass, f] of classFigures) {
    const cell = (side: Side, times: number[]) =>
      f.failed.has(side) && times.length === 0 ? 'n/a' : fixed(median(times))
    const results = sides
      .map((s) => (f.failed.has(s) ? 'n/a' : String(f.results.get(s) ?? '?')))
      .join(' / ')
    const [ct, cb] = sides.map((s) => median(f.cleared.get(s)!))
    const [wt, wb] = sides.map((s) => median(f.warm.get(s)!))
    if (Number.isFinite(ct! / cb!)) clearedRatios.push(ct! / cb!)
    if (Number.isFinite(wt! / wb!)) warmRatios.push(wt! / wb!)
    console.log(
      `${klass.name.padEnd(26)}${results.padStart(20)}` +
        `${cell(target, f.cleared.get(target)!).padStart(11)}` +
        `${cell(base, f.cleared.get(base)!).padStart(8)}${ratio(ct!, cb!).padStart(7)}` +
        `${cell(target, f.warm.get(target)!).padStart(9)}` +
        `${cell(base, f.warm.get(base)!).padStart(8)}${ratio(wt!, wb!).padStart(7)}`,
    )
  }
  for (const [klass, f] of classFigures) {
    const notes = sides.filter((s) => f.failed.has(s)).map((s) => `${s.name} ${f.failed.get(s)}`)
    console.log(`  ${klass.name}: ${f.example}${notes.length ? `  [${notes.join(', ')}]` : ''}`)
  }

  console.log(
    '\nmeasure                                   target   tankobun   ratio (target time / tankobun time)',
  )
  const row = (name: string, t: string, b: string, r: string) =>
    console.log(`${name.padEnd(40)}${t.padStart(9)}${b.padStart(11)}${r.padStart(8)}`)
  row('search p50 cache cleared (geomean)', '', '', fixed(geomean(clearedRatios)))
  row('search p50 warm (geomean)', '', '', fixed(geomean(warmRatios)))
  const rateRows = (what: string, figures: [number, Map<Side, Rate>][], unit: string) => {
    for (const [clients, rates] of figures) {
      const [t, b] = sides.map((s) => rates.get(s))
      const show = (r: Rate | undefined) =>
        r ? `${Math.round(r.perSec)}${r.errors ? '!' : ''}` : 'n/a'
      // Time per request is 1 / rate: the time ratio is the inverse of the rate ratio.
      row(
        `${what} ${clients} clients (${unit})`,
        show(t),
        show(b),
        t && b ? fixed(b.perSec / t.perSec) : 'n/a',
      )
    }
  }
  rateRows('search throughput', searchFigures, 'req/s')
  rateRows('pages throughput', pageFigures, 'pages/s')
  for (const [clients, rates] of pageFigures)
    console.log(
      `  pages ${clients} clients MB/s: ` +
        sides.map((s) => `${s.name} ${fixed(rates.get(s)?.mbPerSec ?? NaN, 1)}`).join(', '),
    )
  const msRow = (name: string, times: Map<Side, number[]>) => {
    const [t, b] = sides.map((s) => median(times.get(s)!))
    row(name, fixed(t!), fixed(b!), ratio(t!, b!))
  }
  msRow('first page, never-opened archive (ms)', firstPage)
  msRow('existing cover (ms)', covers)
  const pageNotes = sides.map((s) => `${s.name} ${pageUrlsOf.get(s)!.length}`).join(', ')
  console.log(
    `\npage pool: ${pool.length} archives (${pageNotes} pages); never-opened: ${fresh.length}` +
      ` archives${[...firstFailed].map(([s, why]) => `, ${s.name} failed: ${why}`).join('')};` +
      ` covers timed on ${coverPairs.length} archives`,
  )
  for (const [clients, rates] of [...searchFigures, ...pageFigures])
    for (const [side, rate] of rates)
      if (rate.errors)
        console.log(`! ${side.name}, ${clients} clients: ${rate.errors} failed requests`)
  if (!args.content && !args.base)
    console.log(
      "note: the base serves generated files with the target's metadata; pages and covers " +
        'compare different files (give --content for the same ones)',
    )
} finally {
  await stopBase()
}
