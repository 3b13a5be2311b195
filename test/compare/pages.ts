// Page images for comparison tests: textured (blocks of grey levels with fine stripes), so their
// perceptual hashes differ by seed and a blurred copy measures less sharp than its original.
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import sharp from 'sharp'
import { buildZip, seededRandom, type Bytes } from '../helpers/fixtures.ts'

const WIDTH = 240
const HEIGHT = 340

/** A page drawn from `seed`; `blur` (sigma) softens it, `scale` stores it at another size. */
export async function makeTexturedPage(
  seed: number,
  options: { blur?: number; scale?: number } = {},
): Promise<Bytes> {
  const next = seededRandom(seed)
  const pixels = new Uint8Array(WIDTH * HEIGHT * 3)
  for (let block = 0; block < 24; block++) {
    const x0 = Math.floor(next() * WIDTH)
    const y0 = Math.floor(next() * HEIGHT)
    const w = 20 + Math.floor(next() * 120)
    const h = 20 + Math.floor(next() * 160)
    const level = Math.floor(next() * 256)
    for (let y = y0; y < Math.min(HEIGHT, y0 + h); y++)
      for (let x = x0; x < Math.min(WIDTH, x0 + w); x++) {
        // Fine stripes: the detail a blur takes away.
        const value = (x + y) % 4 < 2 ? level : 255 - level
        pixels.fill(value, (y * WIDTH + x) * 3, (y * WIDTH + x) * 3 + 3)
      }
  }
  let image = sharp(pixels, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
  if (options.blur) image = image.blur(options.blur)
  if (options.scale) image = image.resize({ height: Math.round(HEIGHT * options.scale) })
  return new Uint8Array(await image.jpeg({ quality: 90 }).toBuffer())
}

export type PageSpec = { name: string; seed: number; blur?: number; scale?: number }

/** A CBZ of the given pages (stored). Returns `path`. */
export async function makeComparisonCbz(path: string, pages: PageSpec[]): Promise<string> {
  const entries = await Promise.all(
    pages.map(async (p) => ({ name: p.name, data: await makeTexturedPage(p.seed, p) })),
  )
  await mkdir(dirname(path), { recursive: true })
  await writeFile(path, buildZip(entries))
  return path
}

/** Pages 001.jpg.. with seeds `seeds` (names follow position). */
export function numbered(seeds: (number | Omit<PageSpec, 'name'>)[]): PageSpec[] {
  return seeds.map((s, i) => ({
    name: `${String(i + 1).padStart(3, '0')}.jpg`,
    ...(typeof s === 'number' ? { seed: s } : s),
  }))
}
