import { beforeAll, describe, expect, it } from 'bun:test'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import sharp from 'sharp'
import { makeImageBomb, makeJpeg } from '../helpers/fixtures.ts'
import { refusal, thumbnailerForFile } from '../helpers/reader-setup.ts'

const { dir, thumbnailer } = thumbnailerForFile('tankobun-thumbs-')
let page: Uint8Array

beforeAll(async () => {
  page = await makeJpeg(1400, 2000, 7)
})

describe('thumbnail', () => {
  it.each(['webp', 'jpeg'] as const)('makes a 500 px tall %s in a new folder', async (format) => {
    const out = join(dir, format, 'deep', `cover.${format}`)
    await thumbnailer.thumbnail(page, out, { format })
    const meta = await sharp(out).metadata()
    expect(meta.format).toBe(format)
    expect(meta.height).toBe(500)
    expect(meta.width).toBe(350)
    // Written aside and renamed: no temporary file is left behind.
    expect(await readdir(join(dir, format, 'deep'))).toEqual([`cover.${format}`])
  })

  it('honours the height option and never enlarges', async () => {
    const tall = join(dir, 'h300.webp')
    await thumbnailer.thumbnail(page, tall, { format: 'webp', height: 300 })
    expect((await sharp(tall).metadata()).height).toBe(300)
    const small = join(dir, 'small.jpeg')
    await thumbnailer.thumbnail(await makeJpeg(40, 60), small, { format: 'jpeg' })
    expect((await sharp(small).metadata()).height).toBe(60)
  })

  it('overwrites an existing thumbnail', async () => {
    const out = join(dir, 'again.webp')
    await thumbnailer.thumbnail(await makeJpeg(40, 60), out, { format: 'webp' })
    await thumbnailer.thumbnail(page, out, { format: 'webp' })
    expect((await sharp(out).metadata()).height).toBe(500)
  })

  it('refuses a decompression-bomb image by its pixel count', async () => {
    const out = join(dir, 'bomb.webp')
    const err = await refusal(thumbnailer.thumbnail(makeImageBomb(), out, { format: 'webp' }))
    expect(err.code).toBe('unprocessable')
    expect(err.message).toContain('pixel limit')
    expect(await Bun.file(out).exists()).toBe(false)
  })

  it('refuses an image with a side past the limit from its header, before decoding it', async () => {
    // 1 x 99,000,000: under the pixel cap, but a decode per row held a worker half a minute.
    const out = join(dir, 'tall.webp')
    const err = await refusal(
      thumbnailer.thumbnail(makeImageBomb(1, 99_000_000), out, { format: 'webp' }),
    )
    expect(err.code).toBe('unprocessable')
    expect(err.message).toContain('side exceeds')
    expect(await Bun.file(out).exists()).toBe(false)
    const dims = await refusal(thumbnailer.dimensions(makeImageBomb(99_000_000, 1)))
    expect(dims.message).toContain('side exceeds')
    // A long webtoon strip is still a page.
    const strip = join(dir, 'strip.webp')
    await thumbnailer.thumbnail(await makeJpeg(100, 20_000), strip, { format: 'webp' })
    expect((await sharp(strip).metadata()).height).toBe(500)
  })

  it('refuses bytes that are not an image', async () => {
    const text = new TextEncoder().encode('nope')
    const err = await refusal(thumbnailer.thumbnail(text, join(dir, 'x.webp'), { format: 'webp' }))
    expect(err.code).toBe('unprocessable')
  })

  it('still renders a JPEG whose tail is cut off', async () => {
    const cut = page.subarray(0, Math.floor(page.length * 0.8))
    const out = join(dir, 'cut.jpeg')
    await thumbnailer.thumbnail(cut, out, { format: 'jpeg' })
    expect((await sharp(out).metadata()).height).toBe(500)
  })

  it('serves several calls at once', async () => {
    const outs = Array.from({ length: 6 }, (_, i) => join(dir, 'many', `${i}.webp`))
    await Promise.all(outs.map((out) => thumbnailer.thumbnail(page, out, { format: 'webp' })))
    expect((await readdir(join(dir, 'many'))).sort()).toEqual(outs.map((_, i) => `${i}.webp`))
  })
})

describe('dimensions', () => {
  it('reads the natural size from the header', async () => {
    expect(await thumbnailer.dimensions(page)).toEqual({ width: 1400, height: 2000 })
  })

  it('reports the EXIF-rotated size', async () => {
    const upright = await makeJpeg(30, 20)
    const rotated = await sharp(upright).withMetadata({ orientation: 6 }).jpeg().toBuffer()
    expect(await thumbnailer.dimensions(new Uint8Array(rotated))).toEqual({ width: 20, height: 30 })
  })

  it('refuses undecodable input and bombs', async () => {
    expect((await refusal(thumbnailer.dimensions(new Uint8Array(10)))).code).toBe('unprocessable')
    expect((await refusal(thumbnailer.dimensions(makeImageBomb()))).code).toBe('unprocessable')
  })
})
