// The benches in one go: generates a library (bench/compare-library.ts: small CBZs, one in 20
// with sixteen ~150 KB pages, titles and tags from the catalogue of bench/search.ts), starts
// Tankobun on it in its own process (bench/http-measures.ts), and times over HTTP: search (every
// query class of bench/compare.ts, cache cleared, then warm), a search mix and pages and covers
// under concurrent clients, tag suggestions, the archive list, metadata, the first page of a
// never-opened archive and the next pages of an opened one, plus the scan and covers of the set-up.
// With --target URL --key KEY the same HTTP measures run against that server too, on its own
// library, measure by measure in turn. Writes bench/results.json and the table between the
// bench:run markers of bench/README.md. Prints figures; asserts nothing.
// Usage: bun bench/run.ts [--archives N=2000] [--runs N=30] [--target URL --key KEY] (run-report.ts)
import { cpus, totalmem } from 'node:os'
import { readFileSync, writeFileSync } from 'node:fs'
import { setLogLevel } from '../src/log.ts'
import { bearer } from './compare-library.ts'
import { createCatalogue } from './catalogue.ts'
import {
  coverReady,
  getJson,
  measureClass,
  pageUrls,
  percentile,
  queryClasses,
  request,
  seeded,
  startBase,
  throughput,
  type BaseMetadata,
  type ListedArchive,
  type QueryClass,
  type Side,
  type TagStat,
} from './http-measures.ts'
import {
  parseRunArgs,
  replaceBlock,
  resultsTable,
  type Figure,
  type Measure,
  type RunArgs,
  type RunResults,
} from './run-report.ts'

/** Archives whose pages make up the opened-archive and page-throughput pool. */
const PAGE_POOL_ARCHIVES = 8
const WARMUPS = 3

/** What one server offers the measures: its library as it describes it, drawn once. */
type Library = {
  side: Side
  classes: QueryClass[]
  /** The throughput mix: every class's queries but unpaged ids. */
  mix: string[]
  tagQueries: string[]
  ids: string[]
  /** Archives by page count, longest first. */
  byPages: ListedArchive[]
}

async function describe(side: Side, runs: number): Promise<Library> {
  const stats = await getJson<TagStat[]>(side, '/api/database/stats?minweight=1')
  const list = await getJson<ListedArchive[]>(side, '/api/archives')
  const classes = queryClasses(stats, list)
  const mix: string[] = []
  for (let i = 0; i < runs; i++)
    for (const klass of classes.filter((c) => c.name !== 'unpaged ids')) {
      const path = klass.draw()
      if (path !== null) mix.push(path)
    }
  const random = seeded(20261125)
  const values = stats
    .map((s) => String(s.text))
    .filter((text) => /^[\p{L}\p{N}]{3}/u.test(text) && !/^\d+$/.test(text))
  const tagQueries = Array.from({ length: values.length ? runs + WARMUPS : 0 }, () => {
    const text = values[Math.floor(random() * values.length)]!
    return `/api/search/tags?${new URLSearchParams({ q: text.slice(0, 3) })}`
  })
  const byPages = [...list].sort((a, b) => (Number(b.pagecount) || 0) - (Number(a.pagecount) || 0))
  return { side, classes, mix, tagQueries, ids: list.map((a) => a.arcid), byPages }
}

/** p50, p95 and the one-client rate of timed requests; a failure's note when none succeeded. */
function figureOf(times: number[], failure?: string): Figure {
  if (times.length === 0) return { note: failure ?? 'nothing to time' }
  const total = times.reduce((s, t) => s + t, 0)
  return {
    p50: percentile(times, 0.5),
    p95: percentile(times, 0.95),
    rate: (times.length / total) * 1000,
    n: times.length,
    ...(failure ? { note: failure } : {}),
  }
}

/** Each path once in order, timed after `warmups`; stops at the first non-200. */
async function timeEach(side: Side, paths: string[], warmups = WARMUPS): Promise<Figure> {
  const times: number[] = []
  for (let i = 0; i < paths.length; i++) {
    const answer = await request(side, paths[i]!)
    if (answer.status !== 200) return figureOf(times, `HTTP ${answer.status}`)
    if (i >= warmups) times.push(answer.ms)
  }
  return figureOf(times)
}

async function rateOf(side: Side, urls: string[], clearFirst: boolean, args: RunArgs) {
  const rates = await throughput([side], new Map([[side, urls]]), args.clients, clearFirst, {
    seconds: args.seconds,
    rounds: 2,
  })
  const rate = rates.get(side)
  if (!rate) return { note: 'no successful request' }
  const errors = rate.errors ? `${rate.errors} failed requests` : undefined
  return {
    rate: rate.perSec,
    ...(errors ? { note: errors } : {}),
    mbPerSec: rate.mbPerSec,
  }
}

/** Runs every measure on each library in turn (measure by measure), collecting the figures. */
async function measureAll(libraries: Library[], args: RunArgs): Promise<Measure[]> {
  const measures: Measure[] = []
  const each = async (name: string, rateUnit: string, run: (lib: Library) => Promise<Figure>) => {
    if (process.stderr.isTTY) process.stderr.write(`  ${name}...`.padEnd(70) + '\r')
    const figures: Record<string, Figure> = {}
    for (const lib of libraries) figures[lib.side.name] = await run(lib)
    measures.push({ name, rateUnit, figures })
  }

  // Warm-up: one round of each server's search mix, so the JIT has seen the code paths.
  for (const lib of libraries) await rateOf(lib.side, lib.mix, true, { ...args, seconds: 1 })

  // Search: every query class with the cache cleared before each request, then warm.
  // Classes line up by position; a sort class is named after each library's own namespace.
  const classNames = libraries[0]!.classes.map((_, k) =>
    [...new Set(libraries.map((l) => l.classes[k]!.name))].join(' / '),
  )
  const warm = new Map<string, number[]>(libraries.map((l) => [l.side.name, []]))
  for (const [k, name] of classNames.entries())
    await each(`search: ${name}, cache cleared`, 'req/s', async (lib) => {
      const klass = lib.classes[k]!
      const f = await measureClass([lib.side], klass, { runs: args.runs, warmups: WARMUPS })
      warm.get(lib.side.name)!.push(...f.warm.get(lib.side)!)
      const figure = figureOf(f.cleared.get(lib.side)!, f.failed.get(lib.side))
      return { ...figure, example: f.example }
    })
  await each('search: every class, warm (cached result)', 'req/s', async (lib) =>
    figureOf(warm.get(lib.side.name)!),
  )
  await each(`search mix, ${args.clients} clients, cache cleared per round`, 'req/s', (lib) =>
    rateOf(lib.side, lib.mix, true, args),
  )
  await each('tag suggestions (/api/search/tags, 3 letters)', 'req/s', (lib) =>
    timeEach(lib.side, lib.tagQueries),
  )

  // Listing and metadata.
  const listRuns = Math.min(args.runs, 10)
  await each('archive list (GET /api/archives)', 'req/s', (lib) =>
    timeEach(lib.side, Array(listRuns + 1).fill('/api/archives'), 1),
  )
  await each('archive metadata (GET /api/archives/{id}/metadata)', 'req/s', (lib) => {
    const random = seeded(7)
    const paths = Array.from({ length: args.runs + WARMUPS }, () => {
      const id = lib.ids[Math.floor(random() * lib.ids.length)]
      return `/api/archives/${id}/metadata`
    })
    return timeEach(lib.side, lib.ids.length ? paths : [])
  })

  // Pages: the first page of archives never opened in this run (/files, then page 1), then the
  // next pages of the longest archives (opened first), then those pages under concurrent clients.
  await each('first page of a never-opened archive (/files + page)', 'req/s', async (lib) => {
    const fresh = lib.byPages.slice(PAGE_POOL_ARCHIVES, PAGE_POOL_ARCHIVES + args.runs)
    const times: number[] = []
    for (const archive of fresh) {
      const t = performance.now()
      const urls = await pageUrls(lib.side, archive.arcid)
      const page = urls?.[0] ? await request(lib.side, urls[0]) : null
      if (page?.status !== 200)
        return figureOf(times, page ? `HTTP ${page.status}` : '/files failed')
      times.push(performance.now() - t)
    }
    return figureOf(times)
  })
  const poolPages = new Map<string, string[]>()
  for (const lib of libraries) {
    const urls: string[] = []
    for (const archive of lib.byPages.slice(0, PAGE_POOL_ARCHIVES))
      urls.push(...((await pageUrls(lib.side, archive.arcid)) ?? []))
    poolPages.set(lib.side.name, urls)
  }
  await each('next pages of an opened archive', 'pages/s', (lib) => {
    const urls = poolPages.get(lib.side.name)!
    return timeEach(lib.side, urls.slice(0, args.runs * 2 + WARMUPS))
  })
  await each(`pages, ${args.clients} clients (~150 KB and tiny pages)`, 'pages/s', (lib) =>
    rateOf(lib.side, poolPages.get(lib.side.name)!, false, args),
  )

  // Covers: made first where missing (no_fallback until 200), then served.
  const coverPaths = new Map<string, string[]>()
  for (const lib of libraries) {
    const paths: string[] = []
    for (const id of lib.ids.slice(0, args.runs + WARMUPS))
      if (await coverReady(lib.side, id)) paths.push(`/api/archives/${id}/thumbnail`)
    coverPaths.set(lib.side.name, paths)
  }
  await each('existing cover (GET /api/archives/{id}/thumbnail)', 'req/s', (lib) =>
    timeEach(lib.side, coverPaths.get(lib.side.name)!),
  )
  await each(`covers, ${args.clients} clients`, 'req/s', (lib) =>
    rateOf(lib.side, coverPaths.get(lib.side.name)!, false, args),
  )
  return measures
}

function gitCommit(): string {
  const run = (cmd: string[]) => Bun.spawnSync(cmd).stdout.toString().trim()
  const commit = run(['git', 'rev-parse', '--short', 'HEAD']) || 'unknown'
  const dirty = run(['git', 'status', '--porcelain', '--untracked-files=no']) !== ''
  return dirty ? `${commit} (with uncommitted changes in the tree)` : commit
}

const loadAverage = () => {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')
  } catch {
    return '?'
  }
}

/** The catalogue's title, tags and new flag for each generated archive, by its number. */
function catalogueMetadata(rows: { id: string; path: string }[]) {
  const catalogue = createCatalogue()
  const numbered = rows
    .map((row) => ({ id: row.id, n: Number(row.path.match(/Archive (\d+)/)?.[1] ?? NaN) }))
    .filter((r) => Number.isFinite(r.n))
  const idOf = new Map(numbered.map((r) => [r.n, r.id]))
  const byId = new Map<string, BaseMetadata>()
  // Every number is drawn in order, present or not, as compare-library.ts's `tag` does.
  const last = Math.max(-1, ...numbered.map((r) => r.n))
  for (let i = 0; i <= last; i++) {
    const { title, tags, isnew } = catalogue.archive(i)
    const id = idOf.get(i)
    if (id) byId.set(id, { title, tags: tags.join(', '), isnew })
  }
  return { byId }
}

async function main() {
  let args: RunArgs
  try {
    args = parseRunArgs(process.argv.slice(2))
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`)
    process.exit(2)
  }
  setLogLevel('error')
  const loadStart = loadAverage()
  const started = performance.now()
  const base = await startBase({ generate: args.archives, metadata: catalogueMetadata })
  try {
    const sides: Side[] = [base.side]
    if (args.target)
      sides.push({
        name: args.targetName,
        url: args.target,
        headers: bearer(args.key!),
        canClear: true,
      })
    const libraries: Library[] = []
    for (const side of sides) libraries.push(await describe(side, args.runs))
    console.log(
      libraries.map((l) => `${l.side.name} ${l.side.url}: ${l.ids.length} archives`).join('; '),
    )
    const measures = await measureAll(libraries, args)
    const setupOnly = (note: string): Record<string, Figure> =>
      Object.fromEntries(sides.slice(1).map((s) => [s.name, { note }]))
    measures.push(
      {
        name: 'scan of the generated library (set-up, in process)',
        rateUnit: 'archives/s',
        figures: {
          [base.side.name]: { rate: (base.archives / base.scanMs) * 1000, n: base.archives },
          ...setupOnly('not measured over HTTP'),
        },
      },
      {
        name: 'covers made after the scan (set-up, in process)',
        rateUnit: 'covers/s',
        figures: {
          [base.side.name]: { rate: (base.archives / base.coversMs) * 1000, n: base.archives },
          ...setupOnly('not measured over HTTP'),
        },
      },
    )
    const cpu = cpus()
    const results: RunResults = {
      date: new Date().toISOString(),
      commit: gitCommit(),
      machine: {
        cpus: cpu.length,
        cpu: cpu[0]?.model.trim() ?? '?',
        memoryGiB: Math.round(totalmem() / 2 ** 30),
        platform: `${process.platform} ${process.arch}`,
        bun: Bun.version,
        loadStart,
        loadEnd: loadAverage(),
      },
      settings: {
        archives: args.archives,
        runs: args.runs,
        seconds: args.seconds,
        clients: args.clients,
        minutes: Math.round((performance.now() - started) / 600) / 100,
      },
      servers: libraries.map((l, i) => ({
        name: l.side.name,
        url: i === 0 ? 'started by bench/run.ts' : l.side.url,
        archives: l.ids.length,
        library:
          i === 0 ? 'generated by bench/compare-library.ts, catalogue tags' : 'its own library',
      })),
      measures,
    }
    writeFileSync(args.out, JSON.stringify(results, null, 2) + '\n')
    const table = resultsTable(results)
    console.log(`\n${table}\n\nwritten: ${args.out}`)
    if (args.readme) {
      writeFileSync(args.readme, replaceBlock(readFileSync(args.readme, 'utf8'), table))
      console.log(`table written to ${args.readme}`)
    }
  } finally {
    await base.stop()
  }
}

if (import.meta.main) await main()
