// Search at scale: a generated catalogue (100,000 archives by default, Zipf-distributed tags),
// index build time, heap and RSS, per-query-class latency over HTTP with the cache cleared before
// each request, /api/info and the full archive list, and an edit followed by a search that must
// see it. Prints figures; asserts nothing.
// Usage: bun bench/search.ts [archives=100000] [runs=40]   (1,000,000 takes 6-10 min and ~7 GB
// of RAM: ~2.5 GB here, up to ~4.5 GB in the booted server while it answers the full list)
import { heapStats } from 'bun:jsc'
import {
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { startServer } from '../src/boot.ts'
import { tx } from '../src/db/client.ts'
import { findArchive, insertArchive, listIndexArchives } from '../src/db/repos/archives.repo.ts'
import { setLogLevel } from '../src/log.ts'
import { buildZip, makeJpeg } from '../test/helpers/fixtures.ts'
import { benchConfig, sessionCookie, spawnServer } from './bench-server.ts'
import { createCatalogue } from './catalogue.ts'
import { timeInOwnProcess, timeQueryClasses } from './query-classes.ts'

const ARCHIVES = Number(process.argv[2] ?? 100_000)
const RUNS = Number(process.argv[3] ?? 40)
const WRITE_BATCH = 50_000
const FILES_PER_FOLDER = 1000
setLogLevel('error')

const { random, pick, vocabulary, titleWords, nextWord, archive } = createCatalogue()

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!
const mb = (bytes: number) => Math.round(bytes / 2 ** 20)
/** The process's peak resident set (VmHWM), in bytes. */
const peakRss = () => {
  const line = readFileSync('/proc/self/status', 'utf8').match(/VmHWM:\s+(\d+) kB/)
  return line ? Number(line[1]) * 1024 : NaN
}

const root = mkdtempSync(join(tmpdir(), 'tankobun-bench-search-'))
const config = benchConfig(root)
// One small CBZ per folder, hard-linked under every name of that folder (a file takes at most
// 65,000 links on ext4); all copies share one size and one time, which every row records.
const sourceBytes = buildZip([{ name: '001.jpg', data: await makeJpeg(8, 8) }])
const SOURCE_TIME = new Date(1_700_000_000_000)
const stamps = { size: sourceBytes.length, mtimeMs: SOURCE_TIME.getTime() }
const pathOf = (i: number, id: string) => `d${Math.floor(i / FILES_PER_FOLDER)}/${id}.cbz`
const ids: string[] = []
/** The query classes: a name and its requests' paths (drawn from the catalogue), per table. */
let classes: [string, () => string][] = []
const drawPaths = () =>
  classes.map(([name, next]): [string, string[]] => [name, Array.from({ length: RUNS + 3 }, next)])
const server = await startServer(config, { announce: () => {} })
try {
  await server.contentSync.idle()
  const { deps } = server

  // 1. The catalogue, written through the repos, one transaction per batch (one transaction of
  // a million rows would hold its whole journal until the end). Every row names its own file,
  // a hard link to a small CBZ made before step 6, with that file's size and time: a server
  // booted on this database then finds its files unchanged instead of hiding a million rows.
  let started = performance.now()
  const sampleTags: string[][] = []
  for (let batch = 0; batch < ARCHIVES; batch += WRITE_BATCH)
    tx(deps.db, () => {
      for (let i = batch; i < Math.min(ARCHIVES, batch + WRITE_BATCH); i++) {
        const id = new Bun.CryptoHasher('sha1').update(`archive ${i}`).digest('hex')
        const { title, tags, ...counters } = archive(i)
        insertArchive(
          deps.db,
          {
            id,
            path: pathOf(i, id),
            filename: title,
            extension: 'cbz',
            title,
            tags: tags.join(', '),
            ...counters,
            size: stamps.size,
            mtimeMs: Math.floor(stamps.mtimeMs),
            createdAt: 0,
          },
          [],
        )
        ids.push(id)
        if (i % 997 === 0) sampleTags.push(tags)
      }
    })
  const written = Math.round(performance.now() - started)
  console.log(`catalogue: ${ARCHIVES} archives written in ${written} ms`)

  // 2. Index build (what boot does), time and retained heap. Reading the rows alone is timed
  // first, to split the build into its database and index shares.
  started = performance.now()
  let rowsRead = 0
  for (const _ of listIndexArchives(deps.db)) rowsRead++
  const readMs = performance.now() - started
  Bun.gc(true)
  const heapBefore = heapStats().heapSize
  started = performance.now()
  await deps.search.build()
  const buildMs = performance.now() - started
  Bun.gc(true)
  const heapMb = (heapStats().heapSize - heapBefore) / 2 ** 20
  console.log(
    `index build: ${Math.round(buildMs)} ms (reading the ${rowsRead} rows alone: ` +
      `${Math.round(readMs)} ms), +${heapMb.toFixed(1)} MB heap`,
  )
  console.log(
    `after build: heap ${mb(heapStats().heapSize)} MB, RSS ${mb(process.memoryUsage().rss)} MB,` +
      ` peak RSS so far ${mb(peakRss())} MB`,
  )

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
  classes = [
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
  await timeQueryClasses(drawPaths(), call, 'in process (client and server share one thread)')

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
}

// 6. The same database booted by src/main.ts in its own process, as a user's server starts: time
// to a searchable index, the server's own RSS (this script's generated catalogue and HTTP bodies
// not counted), what clients poll (/api/info) and the whole library at once (GET /api/archives).
try {
  let started = performance.now()
  for (let i = 0; i < ARCHIVES; i++) {
    const path = join(config.contentDir, pathOf(i, ids[i]!))
    const source = join(root, `source-${Math.floor(i / FILES_PER_FOLDER)}.cbz`)
    if (i % FILES_PER_FOLDER === 0) {
      mkdirSync(dirname(path), { recursive: true })
      writeFileSync(source, sourceBytes)
      utimesSync(source, SOURCE_TIME, SOURCE_TIME)
    }
    linkSync(source, path)
  }
  console.log(`${ARCHIVES} hard links made in ${Math.round(performance.now() - started)} ms`)
  started = performance.now()
  const child = await spawnServer(config)
  try {
    const cookie = await sessionCookie(child.url)
    const call = (path: string) => fetch(child.url + path, { headers: { cookie } })
    for (;;) {
      const res = await call('/api/search?start=0')
      await res.arrayBuffer()
      if (res.status === 200) break
      await Bun.sleep(50)
    }
    const readyMs = performance.now() - started
    const memory = () => {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8')
      const kb = (name: string) => Number(status.match(new RegExp(`${name}:\\s+(\\d+) kB`))?.[1])
      return `RSS ${mb(kb('VmRSS') * 1024)} MB, peak ${mb(kb('VmHWM') * 1024)} MB`
    }
    console.log(`own process: searchable ${Math.round(readyMs)} ms after spawn; ${memory()}`)
    // Freed memory goes back to the system over a few seconds: the same figure once it has.
    await Bun.sleep(3000)
    console.log(`own process, 3 s later: ${memory()}`)
    // Boot's rescan (after the build) walks and stats every file; it must find them unchanged.
    type Job = { id: string; name: string; state: string; result: unknown }
    for (;;) {
      const { jobs } = (await (await call('/api/jobs')).json()) as { jobs: Job[] }
      const rescan = jobs.filter((j) => j.name === 'rescan').sort((a, b) => +b.id - +a.id)[0]
      if (rescan && jobs.length > 1 && (rescan.state === 'finished' || rescan.state === 'failed')) {
        const done = performance.now() - started
        console.log(
          `boot rescan ${rescan.state} ${Math.round(done)} ms after spawn: ` +
            `${JSON.stringify(rescan.result)}; ${memory()}`,
        )
        break
      }
      await Bun.sleep(200)
    }
    // The same query classes against the server in its own process, from a client in another,
    // as clients meet it: receiving and answering no longer share one thread, and the client's
    // heap is not this script's million rows.
    const plan = { url: child.url, cookie, classes: drawPaths() }
    await timeInOwnProcess(plan, join(root, 'query-plan.json'))
    const timeGet = async (path: string, runs: number) => {
      const times: number[] = []
      let bytes = 0
      for (let i = 0; i < runs; i++) {
        const t = performance.now()
        const res = await call(path)
        bytes = (await res.arrayBuffer()).byteLength
        times.push(performance.now() - t)
      }
      times.sort((a, b) => a - b)
      return { p50: percentile(times, 0.5), p95: percentile(times, 0.95), bytes }
    }
    const info = await timeGet('/api/info', RUNS)
    console.log(
      `/api/info: p50 ${info.p50.toFixed(2)} ms, p95 ${info.p95.toFixed(2)} ms (${RUNS} runs)`,
    )
    // A handful of runs: at a million archives one answer is hundreds of MB.
    const listRuns = ARCHIVES > 200_000 ? 3 : 10
    started = performance.now()
    const list = await timeGet('/api/archives', listRuns)
    console.log(
      `GET /api/archives: p50 ${Math.round(list.p50)} ms, max ${Math.round(list.p95)} ms` +
        ` (${listRuns} runs), ${mb(list.bytes)} MB of JSON; server after it: ${memory()}`,
    )
  } finally {
    await child.stop()
  }
} finally {
  rmSync(root, { recursive: true, force: true })
}
