// Books for duplicate tests: pages drawn from a seed as large flat shapes with a fine grain (what
// a perceptual hash sees in a real page: areas brighter than their neighbours), so pages of two
// seeds differ in about half their hash bits, and a resized, re-encoded copy in a few.
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import sharp, { type Sharp } from 'sharp'
import { buildZip, seededRandom, type Bytes } from '../helpers/fixtures.ts'

const WIDTH = 300
const HEIGHT = 425

/** A page of 14 coloured rectangles on paper, drawn from `seed`. */
export async function makeShapesPage(seed: number): Promise<Bytes> {
  const next = seededRandom(seed)
  const pixels = new Uint8Array(WIDTH * HEIGHT * 3).fill(235)
  for (let shape = 0; shape < 14; shape++) {
    const x0 = Math.floor(next() * WIDTH)
    const y0 = Math.floor(next() * HEIGHT)
    const w = 30 + Math.floor(next() * 150)
    const h = 30 + Math.floor(next() * 200)
    const colour = [next(), next(), next()].map((c) => Math.floor(c * 256))
    for (let y = y0; y < Math.min(HEIGHT, y0 + h); y++)
      for (let x = x0; x < Math.min(WIDTH, x0 + w); x++) {
        const grain = (((x * 7 + y * 13) % 17) - 8) * 3
        for (let c = 0; c < 3; c++)
          pixels[(y * WIDTH + x) * 3 + c] = Math.max(0, Math.min(255, colour[c]! + grain))
      }
  }
  const image = sharp(pixels, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
  return new Uint8Array(await image.jpeg({ quality: 88 }).toBuffer())
}

/** How a copy's pages are re-encoded (none: the pages as drawn). */
export type Reencode = (image: Sharp) => Sharp

export const smallerJpeg: Reencode = (image) => image.resize({ height: 230 }).jpeg({ quality: 55 })
export const largerWebp: Reencode = (image) => image.resize({ height: 640 }).webp({ quality: 70 })

/** A CBZ of pages drawn from `seeds`, each re-encoded by `reencode` when given. */
export async function writeBook(path: string, seeds: number[], reencode?: Reencode) {
  const entries = await Promise.all(
    seeds.map(async (seed, i) => {
      const page = await makeShapesPage(seed)
      const data = reencode ? new Uint8Array(await reencode(sharp(page)).toBuffer()) : page
      return { name: `${String(i + 1).padStart(3, '0')}.jpg`, data }
    }),
  )
  await mkdir(dirname(path), { recursive: true })
  await writeFile(path, buildZip(entries))
}
