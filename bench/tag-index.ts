// Tag suggestions (GET /api/search/tags) at scale: the search index built in process from the
// generated catalogue of bench/search.ts (100,000 archives, 50,000 Zipf-drawn tags plus one
// date_added each), then the tag suggestion index it builds on the first lookup: build time and
// retained heap, per-query-shape latency (p50, p95), and the cost of a new tag after the build.
// Prints figures; asserts nothing.
// Usage: bun bench/tag-index.ts [archives=100000] [runs=200]
import { heapStats } from 'bun:jsc'
import { createSearchIndex } from '../src/search/index.ts'
import type { IndexArchive } from '../src/search/types.ts'
import { createCatalogue } from './catalogue.ts'

const ARCHIVES = Number(process.argv[2] ?? 100_000)
const RUNS = Number(process.argv[3] ?? 200)

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!
const heapMb = () => {
  Bun.gc(true)
  return heapStats().heapSize / 2 ** 20
}

const { pick, vocabulary, archive } = createCatalogue()
const rows: IndexArchive[] = []
for (let i = 0; i < ARCHIVES; i++) {
  const { title, tags, isnew, progress, pagecount, lastreadtime } = archive(i)
  rows.push({ id: `a${i}`, title, tags: tags.join(', '), isnew, progress, pagecount, lastreadtime })
}
const distinct = new Set(
  rows.flatMap((row) => row.tags.split(', ').filter((tag) => !tag.startsWith('date_added:'))),
).size
const index = createSearchIndex({ listArchives: () => rows, listTankoubons: () => [] })
await index.build()

// The first lookup builds the suggestion index over every distinct tag (date_added left out).
const before = heapMb()
let started = performance.now()
index.suggestTags('a', 10, null)
const buildMs = performance.now() - started
const grown = heapMb() - before
// A second lookup after a write computes the tag weights again; this one only reads them.
started = performance.now()
index.suggestTags('b', 10, null)
const warmMs = performance.now() - started
console.log(
  `${ARCHIVES} archives, ${distinct} distinct tags besides date_added: suggestion index built on the ` +
    `first lookup in ${Math.round(buildMs)} ms, +${grown.toFixed(1)} MB heap ` +
    `(a lookup after it: ${warmMs.toFixed(2)} ms)`,
)

const value = (tag: string) => tag.slice(tag.indexOf(':') + 1)
const typo = (text: string) => {
  const at = 1 + Math.floor(text.length / 2)
  return text.slice(0, at) + (text[at] === 'x' ? 'y' : 'x') + text.slice(at + 1)
}
// Drawn from the most used third of the vocabulary, as a user types what exists.
const common = () => vocabulary[Math.floor(Math.random() * (vocabulary.length / 3))]!
const shapes: [string, () => string][] = [
  ['2 letters', () => value(common()).slice(0, 2)],
  ['4 letters', () => value(common()).slice(0, 4)],
  ['whole value', () => value(common())],
  ['value with a typo', () => typo(value(common()))],
  ['namespace:3 letters', () => common().slice(0, common().indexOf(':') + 4)],
  [
    'namespace only (ns:)',
    () => {
      const tag = pick(vocabulary)
      return tag.slice(0, tag.indexOf(':') + 1)
    },
  ],
]
console.log('query shape               p50 ms   p95 ms   tags (last run)')
for (const [name, next] of shapes) {
  const times: number[] = []
  let found = 0
  for (let i = 0; i < RUNS + 5; i++) {
    const q = next()
    const t = performance.now()
    found = index.suggestTags(q, 10, null).length
    if (i >= 5) times.push(performance.now() - t)
  }
  times.sort((a, b) => a - b)
  const p50 = percentile(times, 0.5).toFixed(3).padStart(8)
  const p95 = percentile(times, 0.95).toFixed(3).padStart(8)
  console.log(`${name.padEnd(24)}${p50} ${p95}   ${found}`)
}

// A write that brings a new tag: the upsert, then the next lookup (weights recomputed, the new
// tag added to the suggestion index) must find it.
const writes: number[] = []
let seen = 0
for (let i = 0; i < 20; i++) {
  const row = { ...rows[i]!, tags: `${rows[i]!.tags}, misc:fresh tag ${i}` }
  const t = performance.now()
  index.upsertArchive(row)
  const found = index.suggestTags(`fresh tag ${i}`, 10, null)
  writes.push(performance.now() - t)
  if (found.some((s) => s.tag === `misc:fresh tag ${i}`)) seen++
}
writes.sort((a, b) => a - b)
console.log(
  `new tag then lookup: p50 ${percentile(writes, 0.5).toFixed(2)} ms, ` +
    `max ${writes.at(-1)!.toFixed(2)} ms; seen ${seen}/20`,
)
