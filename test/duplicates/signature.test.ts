// The signature message as the duplicate scan calls it: the hash alone (sharpness height 0).
import { afterAll, describe, expect, it } from 'bun:test'
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
