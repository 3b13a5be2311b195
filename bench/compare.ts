// Tankobun against any LANraragi-compatible server: the same query classes (drawn from the
// target's own tag statistics and archive list), pages and covers, measured on both with requests
// interleaved so the machine's noise hits both alike; prints target time / Tankobun time.
// Usage: bun bench/compare.ts --target URL --key KEY [--base URL --base-key KEY]
//          [--content DIR] [--archives N] [--runs N] [--seconds S]   (bench/README.md)
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer } from '../src/boot.ts'
import { tx } from '../src/db/client.ts'
import { listArchives, updateArchive } from '../src/db/repos/archives.repo.ts'
import { setLogLevel } from '../src/log.ts'
import { normalizeTags } from '../src/model/tags.ts'
import { adminToken, benchConfig, sessionCookie, spawnServer } from './bench-server.ts'
import { bearer, writeLibraryFiles } from './compare-library.ts'

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

/** Namespaces that describe the file, not the work: not used to draw tag queries. */
const SKIPPED_NAMESPACES = new Set(['date_added', 'timestamp', 'source'])
const WARMUPS = 3
const ROUNDS = 3
const REQUEST_TIMEOUT_MS = 120_000
/** Archives whose pages make up the page-throughput pool. */
const PAGE_POOL_ARCHIVES = 8
const COVER_WAIT_MS = 60_000

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

// ---- HTTP -----------------------------------------------------------------------------------

/** One server under test. `canClear` turns false when its cache cannot be cleared (not admin). */
type Side = { name: string; url: string; headers: Record<string, string>; canClear: boolean }

type Answer = { status: number; ms: number; bytes: Uint8Array }

/** Time to the last byte of one request; a network failure is status 0, never a throw. */
async function request(side: Side, pathOrUrl: string, method = 'GET'): Promise<Answer> {
  const url = pathOrUrl.startsWith('http') ? pathOrUrl : side.url + pathOrUrl
  const t = performance.now()
  try {
    const res = await fetch(url, {
      method,
      headers: side.headers,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    })
    const bytes = new Uint8Array(await res.arrayBuffer())
    return { status: res.status, ms: performance.now() - t, bytes }
  } catch {
    return { status: 0, ms: performance.now() - t, bytes: new Uint8Array() }
  }
}

async function getJson<T>(side: Side, path: string): Promise<T> {
  const answer = await request(side, path)
  if (answer.status !== 200) throw new Error(`${side.name}: GET ${path} answered ${answer.status}`)
  return JSON.parse(new TextDecoder().decode(answer.bytes)) as T
}

/** Alternates which server goes first, so neither always meets the other's leftovers. */
const inTurn = <T>(pair: [T, T], i: number): [T, T] => (i % 2 === 0 ? pair : [pair[1], pair[0]])

// ---- Statistics -----------------------------------------------------------------------------

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return NaN
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!
}
const median = (values: number[]) => percentile(values, 0.5)
const geomean = (values: number[]) =>
  values.length === 0 ? NaN : Math.exp(values.reduce((s, v) => s + Math.log(v), 0) / values.length)
const fixed = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a')

/** Deterministic draws, so two runs against the same library send the same queries. */
function seeded(seed: number) {
  return () => {
    seed ^= seed << 13
    seed ^= seed >>> 17
    seed ^= seed << 5
    return (seed >>> 0) / 2 ** 32
  }
}

// ---- The library as the target describes it -------------------------------------------------

type TagStat = { namespace: string; text: string; weight: number }
/** An archive of `GET /api/archives` (LANraragi's field names). */
type ListedArchive = {
  arcid: string
  title: string
  tags: string
  pagecount?: number | string
  isnew?: boolean | string
  filename?: string
}

const tagText = (s: TagStat) => (s.namespace ? `${s.namespace}:${s.text}` : s.text)
/** A tag usable inside a filter: no quote, comma, wildcard or leading minus to reinterpret. */
const plainTag = (tag: string) => /^[^",?_*%$-][^",?_*%$]*$/.test(tag)
/** A piece of a word: letters and digits only. */
const wordPiece = (s: string) => /^[\p{L}\p{N}]+$/u.test(s)
const tagsOf = (a: ListedArchive) =>
  (a.tags ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter(
      (t) => t && plainTag(t) && !SKIPPED_NAMESPACES.has(t.slice(0, t.indexOf(':')).toLowerCase()),
    )

/** A query class: how to draw its n-th request path, or null when the library cannot give one. */
type QueryClass = { name: string; draw: () => string | null }

function queryClasses(stats: TagStat[], list: ListedArchive[]): QueryClass[] {
  const random = seeded(20261123)
  const pick = <T>(items: T[]): T | undefined =>
    items.length ? items[Math.floor(random() * items.length)] : undefined
  const tags = stats
    .map((s) => ({ ...s, weight: Number(s.weight), namespace: s.namespace ?? '' }))
    .filter((s) => s.namespace && !SKIPPED_NAMESPACES.has(s.namespace) && plainTag(tagText(s)))
    .sort((a, b) => b.weight - a.weight)
  // The namespace with the most distinct tags (artist in most libraries) draws prefixes and sorts.
  const perNamespace = new Map<string, TagStat[]>()
  for (const s of tags) {
    const known = perNamespace.get(s.namespace)
    if (known) known.push(s)
    else perNamespace.set(s.namespace, [s])
  }
  const [namespace, nsTags] = [...perNamespace].sort((a, b) => b[1].length - a[1].length)[0] ?? [
    '',
    [],
  ]
  const common = tags.slice(0, Math.max(1, Math.ceil(tags.length / 4)))
  const tagged = list.filter((a) => tagsOf(a).length >= 3)
  const search = (filter: string, extra: Record<string, string> = {}) =>
    `/api/search?${new URLSearchParams({ filter, start: '0', ...extra })}`
  const withText = (min: number, piece: (text: string) => string) =>
    nsTags.filter((s) => s.text.length >= min && wordPiece(piece(s.text)))
  const prefixTags = withText(3, (t) => t.slice(0, 3))
  const substringTags = tags.filter((s) => s.text.length >= 5 && wordPiece(s.text.slice(1, 5)))
  const wildcardTags = withText(4, (t) => t.slice(0, 2) + t.slice(3, 4))
  const titleWords = (a: ListedArchive) =>
    String(a.title)
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length >= 3)
  const titled = list.filter((a) => titleWords(a).length > 0)
  const or = <T>(value: T | undefined, make: (v: T) => string) =>
    value === undefined ? null : make(value)

  return [
    {
      name: 'namespace prefix',
      draw: () => or(pick(prefixTags), (s) => search(`${s.namespace}:${s.text.slice(0, 3)}`)),
    },
    { name: 'exact tag', draw: () => or(pick(common), (s) => search(`${tagText(s)}$`)) },
    { name: 'substring', draw: () => or(pick(substringTags), (s) => search(s.text.slice(1, 5))) },
    {
      name: 'title word',
      draw: () => or(pick(titled), (a) => search(pick(titleWords(a))!)),
    },
    {
      name: '3-term AND',
      draw: () =>
        or(pick(tagged), (a) => {
          const own = tagsOf(a)
          const start = Math.floor(random() * (own.length - 2))
          return search(own.slice(start, start + 3).join(', '))
        }),
    },
    {
      name: 'exclusion',
      draw: () =>
        tags.length < 2
          ? null
          : or(pick(common.slice(1).length ? common.slice(1) : tags.slice(1)), (s) =>
              search(`${tagText(tags[0]!)}, -${tagText(s)}`),
            ),
    },
    {
      name: 'wildcard',
      draw: () =>
        or(pick(wildcardTags), (s) =>
          search(`${s.namespace}:${s.text.slice(0, 2)}?${s.text.slice(3, 4)}*`),
        ),
    },
    {
      name: `sort by ${namespace || 'namespace'}`,
      draw: () => (namespace ? search('', { sortby: namespace }) : null),
    },
    {
      name: 'sort by date_added desc',
      draw: () => search('', { sortby: 'date_added', order: 'desc' }),
    },
    { name: 'newonly', draw: () => search('', { newonly: 'true' }) },
    {
      name: 'unpaged ids',
      draw: () =>
        or(
          tags[1] ?? tags[0],
          (s) => `/api/search/ids?${new URLSearchParams({ filter: tagText(s), start: '-1' })}`,
        ),
    },
  ]
}

// ---- The Tankobun base ----------------------------------------------------------------------

/**
 * Starts the base: a Tankobun on `--content` (or on generated archives), set up in this process
 * (scan, covers, the target's titles, tags and new flags copied onto the same ids, or onto
 * generated archives in order), then served from its own process so that this script's client
 * does not share its event loop.
 */
async function startBase(
  targetList: ListedArchive[],
): Promise<{ side: Side; stop(): Promise<void> }> {
  const root = mkdtempSync(join(tmpdir(), 'tankobun-bench-compare-'))
  const content = args.content ?? join(root, 'content')
  if (!args.content) {
    const count = Math.max(1, Math.min(targetList.length, GENERATED_CAP))
    console.log(`base: writing ${count} generated archives (no --content given)`)
    await writeLibraryFiles(content, count)
  }
  const config = benchConfig(root, content)
  const setup = await startServer(config, { announce: () => {} })
  let token: string
  try {
    await setup.contentSync.idle()
    const pending = setup.deps.jobs
      .list()
      .filter((j) => j.state !== 'finished' && j.state !== 'failed')
    if (pending.length) console.log('base: waiting for its covers')
    for (const job of pending) await setup.deps.jobs.waitFor(job.id)

    const rows = listArchives(setup.deps.db)
    const byId = new Map(targetList.map((a) => [a.arcid, a]))
    const rowIds = new Set(rows.map((r) => r.id))
    const unmatched = targetList.filter((a) => !rowIds.has(a.arcid))
    let copied = 0
    let next = 0
    tx(setup.deps.db, () => {
      for (const row of [...rows].sort((a, b) => a.path.localeCompare(b.path))) {
        const source = byId.get(row.id) ?? unmatched[next++]
        if (!source) continue
        updateArchive(setup.deps.db, row.id, {
          title: String(source.title),
          tags: normalizeTags(source.tags ?? ''),
          isnew: String(source.isnew) === 'true',
        })
        copied++
      }
    })
    const sameIds = rows.filter((r) => byId.has(r.id)).length
    console.log(
      `base: ${rows.length} archives, ${sameIds} with the target's ids; metadata copied to ${copied}`,
    )
    token = await adminToken(setup.url, await sessionCookie(setup.url))
  } finally {
    await setup.stop()
  }

  const spawned = await spawnServer(config)
  const side: Side = { name: 'tankobun', url: spawned.url, headers: bearer(token), canClear: true }
  // Boot builds the index (search answers 204 until then) and rescans unchanged files.
  for (let waited = 0; ; waited += 100) {
    const answer = await request(side, '/api/search?start=0')
    if (answer.status === 200) break
    if (waited > 600_000) throw new Error(`base search never ready: ${answer.status}`)
    await Bun.sleep(100)
  }
  await Bun.sleep(1000)
  return {
    side,
    stop: async () => {
      await spawned.stop()
      rmSync(root, { recursive: true, force: true })
    },
  }
}

// ---- Measures -------------------------------------------------------------------------------

type ClassFigures = {
  example: string
  results: Map<Side, number>
  cleared: Map<Side, number[]>
  warm: Map<Side, number[]>
  failed: Map<Side, string>
}

async function measureClass(sides: [Side, Side], klass: QueryClass): Promise<ClassFigures> {
  const paths: string[] = []
  for (let i = 0; i < WARMUPS + RUNS; i++) {
    const path = klass.draw()
    if (path === null) break
    paths.push(path)
  }
  const figures: ClassFigures = {
    example: paths[0] ? decodeURIComponent(paths[0]) : 'n/a (the library gives no such query)',
    results: new Map(),
    cleared: new Map(sides.map((s) => [s, []])),
    warm: new Map(sides.map((s) => [s, []])),
    failed: new Map(),
  }
  if (paths.length === 0) {
    for (const side of sides) figures.failed.set(side, 'no query')
    return figures
  }
  const accept = (side: Side, answer: Answer): boolean => {
    if (answer.status === 200) {
      try {
        const body = JSON.parse(new TextDecoder().decode(answer.bytes)) as {
          recordsFiltered?: number
        }
        figures.results.set(side, Number(body.recordsFiltered))
        return true
      } catch {
        figures.failed.set(side, 'not JSON')
        return false
      }
    }
    figures.failed.set(side, answer.status === 0 ? 'no answer' : `HTTP ${answer.status}`)
    return false
  }
  const live = (side: Side) => !figures.failed.has(side)

  // Cache cleared before every request.
  for (let i = 0; i < paths.length; i++) {
    for (const side of inTurn(sides, i)) {
      if (!live(side) || !side.canClear) continue
      const cleared = await request(side, '/api/search/cache', 'DELETE')
      if (cleared.status !== 200) {
        side.canClear = false
        console.log(`${side.name}: DELETE /api/search/cache answered ${cleared.status}`)
        continue
      }
      const answer = await request(side, paths[i]!)
      if (accept(side, answer) && i >= WARMUPS) figures.cleared.get(side)!.push(answer.ms)
    }
  }
  // Warm: each query asked once untimed, then timed while its result is cached.
  for (let i = 0; i < paths.length; i++) {
    for (const side of sides) if (live(side)) await request(side, paths[i]!)
    for (const side of inTurn(sides, i)) {
      if (!live(side)) continue
      const answer = await request(side, paths[i]!)
      if (accept(side, answer) && i >= WARMUPS) figures.warm.get(side)!.push(answer.ms)
    }
  }
  return figures
}

type Rate = { perSec: number; mbPerSec: number; errors: number }

/** `clients` concurrent loops over `urls` for SECONDS, `rounds` times per server in turn. */
async function throughput(
  sides: [Side, Side],
  urlsOf: Map<Side, string[]>,
  clients: number,
  clearFirst: boolean,
  rounds = ROUNDS,
): Promise<Map<Side, Rate>> {
  const totals = new Map(sides.map((s) => [s, { served: 0, bytes: 0, errors: 0, secs: 0 }]))
  for (let round = 0; round < rounds; round++) {
    for (const side of inTurn(sides, round)) {
      const urls = urlsOf.get(side) ?? []
      if (urls.length === 0) continue
      if (clearFirst && side.canClear) await request(side, '/api/search/cache', 'DELETE')
      const total = totals.get(side)!
      let cursor = 0
      const started = performance.now()
      const until = started + SECONDS * 1000
      await Promise.all(
        Array.from({ length: clients }, async () => {
          while (performance.now() < until) {
            const answer = await request(side, urls[cursor++ % urls.length]!)
            if (answer.status === 200) {
              total.served++
              total.bytes += answer.bytes.byteLength
            } else total.errors++
          }
        }),
      )
      total.secs += (performance.now() - started) / 1000
    }
  }
  const rates = new Map<Side, Rate>()
  for (const [side, t] of totals)
    if (t.secs > 0 && t.served > 0)
      rates.set(side, {
        perSec: t.served / t.secs,
        mbPerSec: t.bytes / t.secs / 2 ** 20,
        errors: t.errors,
      })
  return rates
}

/** Page URLs of an archive from its `/files` answer, absolute (LANraragi answers `./api/...`). */
async function pageUrls(side: Side, id: string): Promise<string[] | null> {
  const answer = await request(side, `/api/archives/${id}/files`)
  if (answer.status !== 200) return null
  try {
    const body = JSON.parse(new TextDecoder().decode(answer.bytes)) as { pages?: string[] }
    return (body.pages ?? []).map((p) => new URL(p, side.url + '/').href)
  } catch {
    return null
  }
}

/** Waits until the archive's cover exists on the server (202 means a job is making it). */
async function coverReady(side: Side, id: string): Promise<boolean> {
  const until = performance.now() + COVER_WAIT_MS
  while (performance.now() < until) {
    const answer = await request(side, `/api/archives/${id}/thumbnail?no_fallback=true`)
    if (answer.status === 200) return true
    if (answer.status !== 202) return false
    await Bun.sleep(250)
  }
  return false
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
  const started = await startBase(targetList)
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
  await throughput(sides, searchUrls, 4, true, 1)

  // 1. Search classes: cache cleared, then warm.
  const classFigures: [QueryClass, ClassFigures][] = []
  for (const klass of classes) {
    process.stderr.write(`  measuring ${klass.name}...`.padEnd(60) + '\r')
    classFigures.push([klass, await measureClass(sides, klass)])
  }

  // 2. Search throughput over the same mix, cache cleared before each round; what a server caches
  // within a round is its own business.
  const searchFigures: [number, Map<Side, Rate>][] = []
  for (const clients of [4, 16])
    searchFigures.push([clients, await throughput(sides, searchUrls, clients, true)])

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
    pageFigures.push([clients, await throughput(sides, pageUrlsOf, clients, false)])

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
