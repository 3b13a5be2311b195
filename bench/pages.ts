// Prints how fast the archive reader serves pages of a 200-page, ~100 MB CBZ and tar (no asserts).
// Run: bun bench/pages.ts [--pages 200] [--7z]   (--7z also times a solid 7z: slow to build)
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import sharp from 'sharp'
import { createArchiveReader } from '../src/archive/reader.ts'
import { buildTar, buildZip, make7z, type Entry } from '../test/helpers/fixtures.ts'

const { values } = parseArgs({
  options: { pages: { type: 'string', default: '200' }, '7z': { type: 'boolean', default: false } },
})
const PAGE_COUNT = Number(values.pages)
const DISTINCT = 8
const READERS = 4
const CONCURRENT_MS = 2000

/** Noise compresses like a scan: ~0.5 MB per 1400x2000 page at quality 70. */
async function noisePage(seed: number): Promise<Uint8Array> {
  const noise = { type: 'gaussian' as const, mean: 100 + seed * 10, sigma: 20 }
  const create = { width: 1400, height: 2000, channels: 3 as const, background: '#000', noise }
  const bytes = await sharp({ create }).jpeg({ quality: 70 }).toBuffer()
  return new Uint8Array(bytes)
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
const ms = (n: number) => `${n.toFixed(2)} ms`

async function measure(label: string, path: string, tempDir: string) {
  const reader = createArchiveReader({ tempDir })
  try {
    let t = performance.now()
    const pages = await reader.listPages(path)
    const listed = performance.now() - t
    t = performance.now()
    await reader.readPage(path, pages[0]!)
    const first = performance.now() - t
    const later: number[] = []
    for (const page of pages.slice(1)) {
      t = performance.now()
      await reader.readPage(path, page)
      later.push(performance.now() - t)
    }
    let served = 0
    const until = performance.now() + CONCURRENT_MS
    const started = performance.now()
    await Promise.all(
      Array.from({ length: READERS }, async () => {
        while (performance.now() < until) {
          await reader.readPage(path, pages[Math.floor(Math.random() * pages.length)]!)
          served++
        }
      }),
    )
    const rate = served / ((performance.now() - started) / 1000)
    const row = [
      label.padEnd(10),
      `list ${ms(listed).padStart(11)}`,
      `first page ${ms(first).padStart(11)}`,
      `later p50 ${ms(median(later)).padStart(9)}`,
      `${READERS} readers ${rate.toFixed(0)} pages/s`,
    ]
    console.log(row.join('  '))
  } finally {
    await reader.close()
  }
}

const dir = await mkdtemp(join(tmpdir(), 'tankobun-bench-pages-'))
try {
  const distinct = await Promise.all(Array.from({ length: DISTINCT }, (_, i) => noisePage(i)))
  const entries: Entry[] = Array.from({ length: PAGE_COUNT }, (_, i) => ({
    name: `${String(i + 1).padStart(3, '0')}.jpg`,
    data: distinct[i % DISTINCT]!,
  }))
  const zip = buildZip(entries)
  console.log(`${PAGE_COUNT} pages of 1400x2000, ${(zip.length / 1024 ** 2).toFixed(1)} MB`)
  await writeFile(join(dir, 'bench.cbz'), zip)
  await writeFile(join(dir, 'bench.cbt'), buildTar(entries))
  // Warm module loading on a throwaway archive so the first row times the archive, not imports.
  await writeFile(join(dir, 'warm.cbz'), buildZip(entries.slice(0, 2)))
  await measure('(warm-up)', join(dir, 'warm.cbz'), join(dir, 'tmp-warm'))
  await measure('cbz', join(dir, 'bench.cbz'), join(dir, 'tmp-zip'))
  await measure('tar', join(dir, 'bench.cbt'), join(dir, 'tmp-tar'))
  if (values['7z']) {
    await make7z(join(dir, 'bench.cb7'), { pages: 0, entries })
    await measure('7z solid', join(dir, 'bench.cb7'), join(dir, 'tmp-7z'))
  }
} finally {
  await rm(dir, { recursive: true, force: true })
}
