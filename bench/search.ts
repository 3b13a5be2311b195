// Search at scale: a generated 100,000-archive catalogue (Zipf-distributed tags), index build time
// and heap, per-query-class latency over HTTP with the cache cleared before each request, and an
// edit followed by a search that must see it. Prints figures; asserts nothing.
// Usage: bun bench/search.ts [archives=100000] [runs=40]
import { heapStats } from 'bun:jsc'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer } from '../src/boot.ts'
import { tx } from '../src/db/client.ts'
import { findArchive, insertArchive } from '../src/db/repos/archives.repo.ts'
import { setLogLevel } from '../src/log.ts'
import { benchConfig, sessionCookie } from './bench-server.ts'

const ARCHIVES = Number(process.argv[2] ?? 100_000)
const RUNS = Number(process.argv[3] ?? 40)
const VOCABULARY = 50_000
const TAGS_PER_ARCHIVE = 14
setLogLevel('error')

// Deterministic pseudo-random numbers, so two runs search the same library.
let seed = 42
const random = () => {
  seed ^= seed << 13
  seed ^= seed >>> 17
  seed ^= seed << 5
  return (seed >>> 0) / 2 ** 32
}
const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!

const SYLLABLES = (
  'ka ki ku ke ko sa shi su se so ta chi tsu te to na ni nu ne no ha hi fu he ho ' +
  'ma mi mu me mo ya yu yo ra ri ru re ro wa n'
).split(' ')
const word = () => {
  const length = 2 + Math.floor(random() * 3)
  return Array.from({ length }, () => pick(SYLLABLES)).join('')
}

/** Index sampler for 1/rank weights: rank 0 is the most frequent. */
function zipf(n: number): () => number {
  const cdf = new Float64Array(n)
  let sum = 0
  for (let k = 0; k < n; k++) cdf[k] = sum += 1 / (k + 1)
  return () => {
    const x = random() * sum
    let lo = 0
    let hi = n - 1
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (cdf[mid]! < x) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}

const NAMESPACES = [
  'artist',
  'parody',
  'group',
  'character',
  'language',
  'female',
  'male',
  'series',
]
const vocabulary: string[] = []
const seenTags = new Set<string>()
while (vocabulary.length < VOCABULARY) {
  const ns = vocabulary.length < 40 ? 'language' : pick(NAMESPACES)
  const tag = `${ns}:${word()}${random() < 0.4 ? ' ' + word() : ''}`
  if (seenTags.has(tag)) continue
  seenTags.add(tag)
  vocabulary.push(tag)
}
const titleWords = Array.from({ length: 8000 }, word)
const nextTag = zipf(VOCABULARY)
const nextWord = zipf(titleWords.length)

const root = mkdtempSync(join(tmpdir(), 'tankobun-bench-search-'))
const config = benchConfig(root)
const server = await startServer(config, { announce: () => {} })
try {
  await server.contentSync.idle()
  const { deps } = server

  // 1. The catalogue, written through the repos in one transaction.
  let started = performance.now()
  const ids: string[] = []
  const sampleTags: string[][] = []
  tx(deps.db, () => {
    for (let i = 0; i < ARCHIVES; i++) {
      const id = new Bun.CryptoHasher('sha1').update(`archive ${i}`).digest('hex')
      const tags = new Set<string>()
      while (tags.size < TAGS_PER_ARCHIVE) tags.add(vocabulary[nextTag()]!)
      const list = [...tags, `date_added:${1_600_000_000 + Math.floor(random() * 100_000_000)}`]
      const title = Array.from({ length: 6 }, () => titleWords[nextWord()]!).join(' ')
      const pagecount = 10 + Math.floor(random() * 290)
      insertArchive(
        deps.db,
        {
          id,
          path: `bench/${id}.cbz`,
          filename: title,
          extension: 'cbz',
          title,
          tags: list.join(', '),
          isnew: random() < 0.2,
          progress: random() < 0.3 ? Math.floor(random() * pagecount) : 0,
          pagecount,
          lastreadtime: random() < 0.3 ? 1_700_000_000 + i : 0,
          size: 1000,
          mtimeMs: 0,
          createdAt: 0,
        },
        [],
      )
      ids.push(id)
      if (i % 997 === 0) sampleTags.push(list)
    }
  })
  const written = Math.round(performance.now() - started)
  console.log(`catalogue: ${ARCHIVES} archives written in ${written} ms`)

  // 2. Index build (what boot does), time and retained heap.
  Bun.gc(true)
  const heapBefore = heapStats().heapSize
  started = performance.now()
  await deps.search.build()
  const buildMs = performance.now() - started
  Bun.gc(true)
  const heapMb = (heapStats().heapSize - heapBefore) / 2 ** 20
  console.log(`index build: ${Math.round(buildMs)} ms, +${heapMb.toFixed(1)} MB heap`)

  // 3. Query classes over HTTP, cache cleared before every request.
  const cookie = await sessionCookie(server.url)
  const call = (path: string, method = 'GET') =>
    fetch(server.url + path, { method, headers: { cookie } })
  const value = (tag: string) => tag.slice(tag.indexOf(':') + 1)
  const tagOf = (ns: string) => {
    for (;;) {
      const found = pick(sampleTags).find((t) => t.startsWith(ns + ':'))
      if (found) return found
    }
  }
  const q = (filter: string, extra = '') =>
    `/api/search?filter=${encodeURIComponent(filter)}${extra}`
  const wildcard = () => {
    const artist = value(tagOf('artist'))
    return `artist:${artist.slice(0, 2)}?${artist.slice(3, 4)}*`
  }
  const classes: [string, () => string][] = [
    ['namespace prefix', () => q(tagOf('artist').slice(0, 'artist:'.length + 3))],
    ['exact tag', () => q(tagOf('female') + '$')],
    ['substring', () => q(value(tagOf('character')).slice(1, 5))],
    ['title word', () => q(titleWords[nextWord()]!)],
    ['3-term AND', () => q(pick(sampleTags).slice(0, 3).join(', '))],
    ['exclusion', () => q(`${vocabulary[0]}, -${tagOf('female')}`)],
    ['wildcard', () => q(wildcard())],
    ['pages range', () => q('pages:>100, pages:<150')],
    ['sort by artist', () => q('', '&sortby=artist')],
    ['sort by date_added desc', () => q('', '&sortby=date_added&order=desc')],
    ['newonly', () => q('', '&newonly=true')],
    ['unpaged ids', () => `/api/search/ids?start=-1&filter=${encodeURIComponent(vocabulary[1]!)}`],
  ]
  const percentile = (sorted: number[], p: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!
  console.log('query class                 p50 ms   p95 ms   results (last run)')
  for (const [name, next] of classes) {
    const times: number[] = []
    let filtered = 0
    for (let i = 0; i < RUNS + 3; i++) {
      await call('/api/search/cache', 'DELETE')
      const path = next()
      const t = performance.now()
      const res = await call(path)
      // Time to the last byte: parsing the body is the client's cost, not the server's.
      const bytes = await res.arrayBuffer()
      if (i >= 3) times.push(performance.now() - t)
      const body = JSON.parse(new TextDecoder().decode(bytes)) as { recordsFiltered: number }
      filtered = body.recordsFiltered
    }
    times.sort((a, b) => a - b)
    const p50 = percentile(times, 0.5).toFixed(2).padStart(8)
    const p95 = percentile(times, 0.95).toFixed(2).padStart(8)
    console.log(`${name.padEnd(26)}${p50} ${p95}   ${filtered}`)
  }

  // 4. An edit (over HTTP) followed by a search that must see it.
  const edits: number[] = []
  const after: number[] = []
  let seen = 0
  for (let i = 0; i < RUNS; i++) {
    const id = pick(ids)
    const marker = `misc:bench edit ${i}`
    let t = performance.now()
    const edit = await call(
      `/api/archives/${id}/metadata?tags=${encodeURIComponent(marker)}`,
      'PUT',
    )
    await edit.arrayBuffer()
    edits.push(performance.now() - t)
    t = performance.now()
    const search = await call(`/api/search/ids?filter=${encodeURIComponent(marker + '$')}`)
    const found = (await search.json()) as { data: string[] }
    after.push(performance.now() - t)
    if (found.data.length === 1 && found.data[0] === id) seen++
  }
  edits.sort((a, b) => a - b)
  after.sort((a, b) => a - b)
  const ms = (sorted: number[], p: number) => percentile(sorted, p).toFixed(2)
  console.log(
    `edit then search: edit p50 ${ms(edits, 0.5)} ms, p95 ${ms(edits, 0.95)} ms;` +
      ` search p50 ${ms(after, 0.5)} ms; seen ${seen}/${RUNS}`,
  )

  // 5. The index's own share of an edit: upsertArchive of an edited row, in process.
  const upserts: number[] = []
  for (let i = 0; i < 1000; i++) {
    const row = findArchive(deps.db, pick(ids))!
    const edited = { ...row, tags: `${row.tags}, misc:upsert ${i}` }
    const t = performance.now()
    deps.search.upsertArchive(edited)
    upserts.push(performance.now() - t)
  }
  upserts.sort((a, b) => a - b)
  const us = (p: number) => (percentile(upserts, p) * 1000).toFixed(0)
  console.log(`index upsert alone: p50 ${us(0.5)} us, p95 ${us(0.95)} us`)
} finally {
  await server.stop()
  rmSync(root, { recursive: true, force: true })
}
