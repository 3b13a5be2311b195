import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createArchiveReader } from '../../src/archive/reader.ts'
import type { ArchiveReader } from '../../src/archive/types.ts'
import { createThumbnailer } from '../../src/images/thumbnailer.ts'
import type { Thumbnailer } from '../../src/images/types.ts'
import {
  alignPages,
  hammingDistance,
  recommend,
  SAME_PAGE_MAX_DISTANCE,
  unmatchedPages,
} from '../../src/domain/downloads/compare-align.ts'
import {
  runComparison,
  type CompareSides,
  type SampleEvent,
} from '../../src/domain/downloads/compare.ts'
import { makeComparisonCbz, makeTexturedPage, numbered, type PageSpec } from './pages.ts'

let dir: string
let reader: ArchiveReader
let thumbnailer: Thumbnailer

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tankobun-compare-'))
  reader = createArchiveReader({ tempDir: join(dir, 'temp') })
  thumbnailer = createThumbnailer()
})

afterAll(async () => {
  await thumbnailer.close()
  await reader.close()
  await rm(dir, { recursive: true, force: true })
})

async function compare(a: PageSpec[], b: PageSpec[]) {
  const aPath = await makeComparisonCbz(join(dir, `${crypto.randomUUID()}-a.cbz`), a)
  const bPath = await makeComparisonCbz(join(dir, `${crypto.randomUUID()}-b.cbz`), b)
  const events: SampleEvent[] = []
  const sides = { aPath, bPath } as CompareSides
  const result = await runComparison({ reader, thumbnailer }, sides, (e) => events.push(e))
  return { result, events }
}

describe('page signatures', () => {
  it('gives the same page re-encoded at another size a near hash, another page a far one', async () => {
    const options = { hash: true, sharpnessHeight: 128 }
    const page = await thumbnailer.signature(await makeTexturedPage(1), options)
    const rescaled = await thumbnailer.signature(await makeTexturedPage(1, { scale: 2 }), options)
    const other = await thumbnailer.signature(await makeTexturedPage(2), options)
    expect(page.hash).toMatch(/^[0-9a-f]{16}$/)
    expect(hammingDistance(page.hash!, rescaled.hash!)).toBeLessThanOrEqual(SAME_PAGE_MAX_DISTANCE)
    expect(hammingDistance(page.hash!, other.hash!)).toBeGreaterThan(2 * SAME_PAGE_MAX_DISTANCE)
  })

  it('measures a blurred page less sharp than its original', async () => {
    const options = { hash: false, sharpnessHeight: 512 }
    const sharp = await thumbnailer.signature(await makeTexturedPage(3), options)
    const blurred = await thumbnailer.signature(await makeTexturedPage(3, { blur: 2 }), options)
    expect(sharp.hash).toBeNull()
    expect(blurred.sharpness).toBeLessThan(sharp.sharpness / 2)
  })

  it('refuses bytes that are not an image as unprocessable', async () => {
    const err = await thumbnailer
      .signature(new TextEncoder().encode('not an image'), { hash: true, sharpnessHeight: 64 })
      .catch((e: unknown) => e as { code?: string })
    expect(err).toMatchObject({ code: 'unprocessable' })
  })
})

describe('alignPages', () => {
  const h = (n: number) => n.toString(16).padStart(16, '0')
  it('pairs equal sequences one to one', () => {
    const pages = [h(0x0f), h(0xf0f0), h(0xffff0000)]
    expect(alignPages(pages, pages).map((p) => [p.a, p.b])).toEqual([
      [0, 0],
      [1, 1],
      [2, 2],
    ])
  })

  it('leaves a page inserted on one side unmatched and anchors it between its neighbours', () => {
    const b = [h(0x0f), h(0xf0f0), h(0xffff0000)]
    const a = [b[0]!, b[1]!, 'ffffffffffffffff', b[2]!]
    const pairs = alignPages(a, b)
    expect(pairs.map((p) => [p.a, p.b])).toEqual([
      [0, 0],
      [1, 1],
      [3, 2],
    ])
    expect(unmatchedPages('a', ['1', '2', 'x', '3'], ['p1', 'p2', 'p3'], pairs)).toEqual([
      { index: 2, filename: 'x', afterFilename: 'p2', beforeFilename: 'p3' },
    ])
  })

  it('never pairs pages past the distance threshold or without a hash', () => {
    expect(alignPages(['0000000000000000', null], ['ffffffffffffffff', null])).toEqual([])
  })
})

describe('recommend', () => {
  it('keeps the existing archive with insertions when the download only adds pages', () => {
    expect(recommend({ better: ['same', 'b'], unmatchedA: 1, unmatchedB: 0 }).recommendation).toBe(
      'keep_b_with_insertions',
    )
    expect(recommend({ better: ['a', 'a'], unmatchedA: 0, unmatchedB: 0 }).recommendation).toBe(
      'keep_a',
    )
    expect(recommend({ better: [], unmatchedA: 2, unmatchedB: 2 }).recommendation).toBe('different')
  })
})

describe('runComparison', () => {
  it('pairs the same pages and recommends keeping the existing archive', async () => {
    const pages = numbered([11, 12, 13, 14])
    const { result, events } = await compare(pages, pages)
    expect(result.pairs.map((p) => [p.aIndex, p.bIndex])).toEqual([
      [0, 0],
      [1, 1],
      [2, 2],
      [3, 3],
    ])
    expect(result.pairs.every((p) => p.distance === 0 && p.better === 'same')).toBe(true)
    expect(result).toMatchObject({ aTotal: 4, bTotal: 4, unmatchedA: [], unmatchedB: [] })
    expect(result.recommendation).toBe('keep_b')
    // Coarse samples for every pair first, then a precise replacement for each.
    expect(events.map((e) => e.phase)).toEqual([
      ...Array(4).fill('coarse'),
      ...Array(4).fill('precise'),
    ])
    expect(new Set(events.filter((e) => e.phase === 'precise').map((e) => e.sampleIndex))).toEqual(
      new Set([0, 1, 2, 3]),
    )
  })

  it('finds a page the download inserted and where it goes in the existing archive', async () => {
    const b = numbered([21, 22, 23, 24])
    const a = numbered([21, 22, 99, 23, 24])
    const { result } = await compare(a, b)
    expect(result.pairs).toHaveLength(4)
    expect(result.unmatchedA).toEqual([
      { index: 2, filename: '003.jpg', afterFilename: '002.jpg', beforeFilename: '003.jpg' },
    ])
    expect(result.unmatchedB).toEqual([])
    expect(result.recommendation).toBe('keep_b_with_insertions')
  })

  it('finds a page the download lacks', async () => {
    const b = numbered([31, 32, 33, 34])
    const a = numbered([31, 33, 34])
    const { result } = await compare(a, b)
    expect(result.unmatchedA).toEqual([])
    expect(result.unmatchedB).toEqual([
      { index: 1, filename: '002.jpg', afterFilename: '001.jpg', beforeFilename: '002.jpg' },
    ])
  })

  it('rates a blurred page of the download as worse than the existing one', async () => {
    const b = numbered([41, 42, 43])
    const a = numbered([41, { seed: 42, blur: 2 }, 43])
    const { result } = await compare(a, b)
    expect(result.pairs).toHaveLength(3)
    expect(result.pairs.map((p) => p.better)).toEqual(['same', 'b', 'same'])
    expect(result.pairs[1]!.bSharpness).toBeGreaterThan(result.pairs[1]!.aSharpness)
    expect(result.recommendation).toBe('keep_b')
  })
})
