// The signature message as the duplicate scan calls it (the hash alone: sharpness height 0), and
// the cover hash the thumbnail call takes of the pixels it encodes.
import { afterAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createThumbnailer } from '../../src/images/thumbnailer.ts'
import { makeShapesPage } from './books.ts'

const thumbnailer = createThumbnailer({ workers: 1 })

afterAll(async () => {
  await thumbnailer.close()
})

describe('Thumbnailer.signature with sharpness height 0', () => {
  it('gives the same hash as a full signature and skips the sharpness', async () => {
    const page = await makeShapesPage(7)
    const full = await thumbnailer.signature(page, { hash: true, sharpnessHeight: 64 })
    const hashOnly = await thumbnailer.signature(page, { hash: true, sharpnessHeight: 0 })
    expect(full.sharpness).toBeGreaterThan(0)
    expect(hashOnly).toEqual({ hash: full.hash, sharpness: 0 })
    expect(hashOnly.hash).toMatch(/^[0-9a-f]{16}$/)
  })
})

describe('Thumbnailer.thumbnail with hash', () => {
  it('answers the hash of the thumbnail it wrote, the same a signature of that file reads', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tankobun-thumb-hash-'))
    try {
      for (const seed of [3, 7, 11]) {
        const page = await makeShapesPage(seed)
        for (const format of ['webp', 'jpeg'] as const) {
          const out = join(dir, `${seed}.${format}`)
          const { hash } = await thumbnailer.thumbnail(page, out, { format, hash: true })
          expect(hash).toMatch(/^[0-9a-f]{16}$/)
          const ofFile = await thumbnailer.signature(await Bun.file(out).bytes(), {
            hash: true,
            sharpnessHeight: 0,
          })
          expect(hash).toBe(ofFile.hash)
        }
      }
      const plainPath = join(dir, 'p.webp')
      const plain = await thumbnailer.thumbnail(await makeShapesPage(5), plainPath, {
        format: 'webp',
      })
      // No dHash unless asked; the SHA-1 of the file written always.
      const fileSha1 = new Bun.CryptoHasher('sha1').update(await Bun.file(plainPath).bytes())
      expect(plain).toEqual({ hash: null, sha1: fileSha1.digest('hex') })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
