// Writes N small CBZs, each a page and a ComicInfo.xml (title, series, writer, genre), into
// folders of 500 under `content`: the library the Run Automatically benches catalogue.
import { mkdirSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { buildZip, makeJpeg } from '../test/helpers/fixtures.ts'

export async function writeComicInfoLibrary(
  content: string,
  count: number,
  series: string,
  prefix = 'Auto',
): Promise<void> {
  const page = await makeJpeg(32, 48, 1)
  const writes: Promise<void>[] = []
  for (let i = 0; i < count; i++) {
    const dir = join(content, `${prefix}-d${Math.floor(i / 500)}`)
    if (i % 500 === 0) mkdirSync(dir, { recursive: true })
    const xml =
      `<?xml version="1.0"?><ComicInfo><Title>Bench ${i}</Title><Series>${series}</Series>` +
      `<Writer>Writer ${i % 50}</Writer><Genre>genre${i % 7}</Genre></ComicInfo>`
    const zip = buildZip([
      { name: 'ComicInfo.xml', data: new TextEncoder().encode(xml) },
      { name: '001.jpg', data: page },
    ])
    writes.push(writeFile(join(dir, `${prefix} ${i}.cbz`), zip))
    if (writes.length >= 256) await Promise.all(writes.splice(0))
  }
  await Promise.all(writes)
}
