// A library for bench/compare.ts: writes small CBZs (one in 20 with sixteen ~150 KB pages, for the
// page and cover measures), and tags the archives of any LANraragi-compatible server with the
// generated catalogue through its API, so a fresh LANraragi (or Tankobun) holds a searchable copy.
// Usage: bun bench/compare-library.ts write DIR [archives=2000]
//        bun bench/compare-library.ts tag URL KEY     (rewrites every archive's title and tags!)
import { mkdirSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import sharp from 'sharp'
import { buildZip, makeJpeg, type Entry } from '../test/helpers/fixtures.ts'
import { createCatalogue } from './catalogue.ts'

/** One archive in this many holds reading-size pages; the rest hold two thumbnail-size ones. */
const BIG_EVERY = 20
const BIG_PAGES = 16
const FILES_PER_FOLDER = 500

/** `Archive 000042`: the file name (and default title) of archive 42. */
export const archiveName = (i: number) => `Archive ${String(i).padStart(6, '0')}`

/** The number in a generated archive's file name, or undefined for any other name. */
export const archiveNumber = (name: string) => {
  const match = name.match(/Archive (\d{6})/)
  return match ? Number(match[1]) : undefined
}

/** ~150 KB 1000x1400 JPEGs: noise at quality 55 (a solid colour would flatter every decoder). */
async function readingPage(seed: number): Promise<Uint8Array> {
  const noise = { type: 'gaussian' as const, mean: 100 + seed * 10, sigma: 20 }
  const create = { width: 1000, height: 1400, channels: 3 as const, background: '#000', noise }
  return new Uint8Array(await sharp({ create }).jpeg({ quality: 55 }).toBuffer())
}

/** Writes `count` CBZs under `dir` (in subfolders of 500); each file's bytes, so its id, differ. */
export async function writeLibraryFiles(dir: string, count: number): Promise<void> {
  const tiny = await makeJpeg(64, 96, 1)
  const big = await Promise.all(Array.from({ length: 8 }, (_, i) => readingPage(i)))
  const writes: Promise<void>[] = []
  for (let i = 0; i < count; i++) {
    const folder = join(dir, `d${Math.floor(i / FILES_PER_FOLDER)}`)
    if (i % FILES_PER_FOLDER === 0) mkdirSync(folder, { recursive: true })
    const pages: Entry[] =
      i % BIG_EVERY === 0
        ? Array.from({ length: BIG_PAGES }, (_, p) => ({
            name: `${String(p + 1).padStart(3, '0')}.jpg`,
            data: big[(i + p) % big.length]!,
          }))
        : [
            { name: '001.jpg', data: tiny },
            { name: '002.jpg', data: tiny },
          ]
    const zip = buildZip([
      { name: 'id.txt', data: new TextEncoder().encode(`archive ${i}`) },
      ...pages,
    ])
    writes.push(writeFile(join(folder, `${archiveName(i)}.cbz`), zip))
    if (writes.length >= 64) await Promise.all(writes.splice(0))
  }
  await Promise.all(writes)
}

/** LANraragi's API key header: `Bearer` and the key in base64 (Tankobun takes it too). */
export const bearer = (key: string) => ({ authorization: `Bearer ${btoa(key)}` })

/**
 * Gives every generated archive on the server (found by its file name) the catalogue's title
 * and tags for its number, through `PUT /api/archives/{id}/metadata`. Answers how many it tagged.
 */
export async function tagServer(url: string, key: string): Promise<number> {
  const headers = bearer(key)
  const res = await fetch(`${url}/api/archives`, { headers })
  if (res.status !== 200) throw new Error(`GET /api/archives answered ${res.status}`)
  const list = (await res.json()) as { arcid: string; filename?: string; title: string }[]
  const byNumber = new Map<number, string>()
  for (const a of list) {
    const n = archiveNumber(a.filename ?? a.title) ?? archiveNumber(a.title)
    if (n !== undefined) byNumber.set(n, a.arcid)
  }
  const last = Math.max(-1, ...byNumber.keys())
  const catalogue = createCatalogue()
  const edits: [string, string, string][] = []
  // Every number is drawn in order, present or not, so archive i always gets the same tags.
  for (let i = 0; i <= last; i++) {
    const { title, tags } = catalogue.archive(i)
    const id = byNumber.get(i)
    if (id) edits.push([id, title, tags.join(', ')])
  }
  let next = 0
  const worker = async () => {
    while (next < edits.length) {
      const [id, title, tags] = edits[next++]!
      const query = new URLSearchParams({ title, tags })
      const put = await fetch(`${url}/api/archives/${id}/metadata?${query}`, {
        method: 'PUT',
        headers,
      })
      if (put.status !== 200) throw new Error(`PUT metadata of ${id} answered ${put.status}`)
      await put.arrayBuffer()
    }
  }
  await Promise.all(Array.from({ length: 4 }, worker))
  return edits.length
}

if (import.meta.main) {
  const [command, first, second] = process.argv.slice(2)
  if (command === 'write' && first) {
    const count = Number(second ?? 2000)
    const t = performance.now()
    await writeLibraryFiles(first, count)
    console.log(`${count} archives written to ${first} in ${Math.round(performance.now() - t)} ms`)
  } else if (command === 'tag' && first && second) {
    const t = performance.now()
    const tagged = await tagServer(first.replace(/\/$/, ''), second)
    console.log(`${tagged} archives tagged in ${Math.round(performance.now() - t)} ms`)
  } else {
    console.error(
      'usage: bun bench/compare-library.ts write DIR [archives]  |  tag URL KEY  (see bench/README.md)',
    )
    process.exit(2)
  }
}
