// The side-by-side library: CBZs of 4-16 JPEG pages of 640x905 (16 distinct noisy pages reused),
// one `Archive NNNNN.cbz` each, written straight into a content folder.
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import sharp from 'sharp'
import { buildZip } from '../test/helpers/fixtures.ts'

async function page(seed: number, width: number, height: number): Promise<Uint8Array> {
  const noise = { type: 'gaussian' as const, mean: 90 + seed * 7, sigma: 25 }
  const create = { width, height, channels: 3 as const, background: '#000', noise }
  return new Uint8Array(await sharp({ create }).jpeg({ quality: 75 }).toBuffer())
}

export async function writeSmallLibrary(
  content: string,
  archives: number,
  size: { width: number; height: number } = { width: 640, height: 905 },
): Promise<void> {
  const distinct = await Promise.all(
    Array.from({ length: 16 }, (_, i) => page(i, size.width, size.height)),
  )
  for (let a = 0; a < archives; a++) {
    const count = 4 + (a % 13)
    const entries = [
      { name: 'id.txt', data: new TextEncoder().encode(`archive ${a}`) },
      ...Array.from({ length: count }, (_, i) => ({
        name: `${String(i + 1).padStart(3, '0')}.jpg`,
        data: distinct[(a + i) % 16]!,
      })),
    ]
    await writeFile(join(content, `Archive ${String(a).padStart(5, '0')}.cbz`), buildZip(entries))
  }
}
