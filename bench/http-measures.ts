// The HTTP measures shared by bench/compare.ts and bench/run.ts: one server under test (a Side),
// timed requests, query classes drawn from a server's own tag statistics and archive list, search
// classes with the cache cleared and warm, throughput rounds, page URLs, covers, and a Tankobun
// started in its own process on a content folder (the base of a comparison).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer } from '../src/boot.ts'
import { tx } from '../src/db/client.ts'
import { listArchives, updateArchive, type ArchiveRow } from '../src/db/repos/archives.repo.ts'
import { normalizeTags } from '../src/model/tags.ts'
import { adminToken, benchConfig, sessionCookie, spawnServer } from './bench-server.ts'
import { bearer, writeLibraryFiles } from './compare-library.ts'

/** Namespaces that describe the file, not the work: not used to draw tag queries. */
const SKIPPED_NAMESPACES = new Set(['date_added', 'timestamp', 'source'])
const REQUEST_TIMEOUT_MS = 120_000
const COVER_WAIT_MS = 60_000

// ---- HTTP -----------------------------------------------------------------------------------

/** One server under test. `canClear` turns false when its cache cannot be cleared (not admin). */
export type Side = { name: string; url: string; headers: Record<string, string>; canClear: boolean }

export type Answer = { status: number; ms: number; bytes: Uint8Array }

/** Time to the last byte of one request; a network failure is status 0, never a throw. */
export async function request(side: Side, pathOrUrl: string, method = 'GET'): Promise<Answer> {
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

export async function getJson<T>(side: Side, path: string): Promise<T> {
  const answer = await request(side, path)
  if (answer.status !== 200) throw new Error(`${side.name}: GET ${path} answered ${answer.status}`)
  return JSON.parse(new TextDecoder().decode(answer.bytes)) as T
}

/** Alternates which server goes first, so neither always meets the other's leftovers. */
export const inTurn = <T>(items: readonly T[], i: number): T[] =>
  i % 2 === 0 ? [...items] : [...items].reverse()

// ---- Statistics -----------------------------------------------------------------------------

export { fixed, geomean, median, percentile } from './stats.ts'

/** Deterministic draws, so two runs against the same library send the same queries. */
export function seeded(seed: number) {
  return () => {
    seed ^= seed << 13
    seed ^= seed >>> 17
    seed ^= seed << 5
    return (seed >>> 0) / 2 ** 32
  }
}

// ---- The library as the target describes it -------------------------------------------------

export type TagStat = { namespace: string; text: string; weight: number }
/** An archive of `GET /api/archives` (LANraragi's field names). */
export type ListedArchive = {
  arcid: string
  title: string
  tags: string
  pagecount?: number | string
  isnew?: boolean | string
  filename?: string
}

export const tagText = (s: TagStat) => (s.namespace ? `${s.namespace}:${s.text}` : s.text)
/** A tag usable inside a filter: no quote, comma, wildcard or leading minus to reinterpret. */
export const plainTag = (tag: string) => /^[^",?_*%$-][^",?_*%$]*$/.test(tag)
/** A piece of a word: letters and digits only. */
export const wordPiece = (s: string) => /^[\p{L}\p{N}]+$/u.test(s)
export const tagsOf = (a: ListedArchive) =>
  (a.tags ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter(
      (t) => t && plainTag(t) && !SKIPPED_NAMESPACES.has(t.slice(0, t.indexOf(':')).toLowerCase()),
    )

/** A query class: how to draw its n-th request path, or null when the library cannot give one. */
export type QueryClass = { name: string; draw: () => string | null }

export function queryClasses(stats: TagStat[], list: ListedArchive[]): QueryClass[] {
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

/** Title, tags and new flag given to an archive of the base before it serves. */
export type BaseMetadata = { title: string; tags: string; isnew: boolean }

export type BaseOptions = {
  /** Log prefix and Side name (default `tankobun`). */
  name?: string
  /** An existing content folder (its files are left alone); else `generate` archives written. */
  content?: string
  /** Archives written by `writeLibraryFiles` when no `content` is given. */
  generate: number
  /** Metadata per archive row id, given every row sorted by path (a log line may be added). */
  metadata?: (rows: ArchiveRow[]) => { byId: Map<string, BaseMetadata>; note?: string }
}

/** A started base and what its set-up took: the scan of its content, then its covers. */
export type Base = {
  side: Side
  archives: number
  scanMs: number
  coversMs: number
  stop(): Promise<void>
}

/**
 * Starts a Tankobun base on `content` (or on generated archives), set up in this process (scan,
 * covers, metadata written onto its rows), then served from its own process so that this
 * script's client does not share its event loop.
 */
export async function startBase(options: BaseOptions): Promise<Base> {
  const name = options.name ?? 'tankobun'
  const root = mkdtempSync(join(tmpdir(), 'tankobun-bench-base-'))
  const content = options.content ?? join(root, 'content')
  if (!options.content) {
    console.log(`${name}: writing ${options.generate} generated archives`)
    await writeLibraryFiles(content, options.generate)
  }
  const config = benchConfig(root, content)
  let started = performance.now()
  const setup = await startServer(config, { announce: () => {} })
  let token: string
  let scanMs: number
  let coversMs: number
  let archives: number
  try {
    await setup.contentSync.idle()
    scanMs = performance.now() - started
    started = performance.now()
    const pending = setup.deps.jobs
      .list()
      .filter((j) => j.state !== 'finished' && j.state !== 'failed')
    if (pending.length) console.log(`${name}: waiting for its covers`)
    for (const job of pending) await setup.deps.jobs.waitFor(job.id)
    coversMs = performance.now() - started

    const rows = [...listArchives(setup.deps.db)].sort((a, b) => a.path.localeCompare(b.path))
    archives = rows.length
    if (options.metadata) {
      const { byId, note } = options.metadata(rows)
      tx(setup.deps.db, () => {
        for (const [id, source] of byId)
          updateArchive(setup.deps.db, id, { ...source, tags: normalizeTags(source.tags) })
      })
      console.log(`${name}: ${rows.length} archives; metadata written to ${byId.size}${note ?? ''}`)
    }
    token = await adminToken(setup.url, await sessionCookie(setup.url))
  } finally {
    await setup.stop()
  }

  const spawned = await spawnServer(config)
  const side: Side = { name, url: spawned.url, headers: bearer(token), canClear: true }
  // Boot builds the index (search answers 204 until then) and rescans unchanged files.
  for (let waited = 0; ; waited += 100) {
    const answer = await request(side, '/api/search?start=0')
    if (answer.status === 200) break
    if (waited > 600_000) throw new Error(`${name} search never ready: ${answer.status}`)
    await Bun.sleep(100)
  }
  await Bun.sleep(1000)
  return {
    side,
    archives,
    scanMs,
    coversMs,
    stop: async () => {
      await spawned.stop()
      rmSync(root, { recursive: true, force: true })
    },
  }
}

// ---- Measures -------------------------------------------------------------------------------

export type ClassFigures = {
  example: string
  results: Map<Side, number>
  cleared: Map<Side, number[]>
  warm: Map<Side, number[]>
  failed: Map<Side, string>
}

/** Timed requests per class and side (`runs`), after `warmups` untimed ones. */
export type ClassRuns = { runs: number; warmups: number }

export async function measureClass(
  sides: readonly Side[],
  klass: QueryClass,
  { runs, warmups }: ClassRuns,
): Promise<ClassFigures> {
  const paths: string[] = []
  for (let i = 0; i < warmups + runs; i++) {
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
      if (accept(side, answer) && i >= warmups) figures.cleared.get(side)!.push(answer.ms)
    }
  }
  // Warm: each query asked once untimed, then timed while its result is cached.
  for (let i = 0; i < paths.length; i++) {
    for (const side of sides) if (live(side)) await request(side, paths[i]!)
    for (const side of inTurn(sides, i)) {
      if (!live(side)) continue
      const answer = await request(side, paths[i]!)
      if (accept(side, answer) && i >= warmups) figures.warm.get(side)!.push(answer.ms)
    }
  }
  return figures
}

export type Rate = { perSec: number; mbPerSec: number; errors: number }

/** `clients` concurrent loops over `urls` for `seconds`, `rounds` times per server in turn. */
export async function throughput(
  sides: readonly Side[],
  urlsOf: Map<Side, string[]>,
  clients: number,
  clearFirst: boolean,
  { seconds, rounds }: { seconds: number; rounds: number },
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
      const until = started + seconds * 1000
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
export async function pageUrls(side: Side, id: string): Promise<string[] | null> {
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
export async function coverReady(side: Side, id: string): Promise<boolean> {
  const until = performance.now() + COVER_WAIT_MS
  while (performance.now() < until) {
    const answer = await request(side, `/api/archives/${id}/thumbnail?no_fallback=true`)
    if (answer.status === 200) return true
    if (answer.status !== 202) return false
    await Bun.sleep(250)
  }
  return false
}
