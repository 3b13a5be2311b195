import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createPageCache, type Manifest } from '../../src/archive/page-cache.ts'

let root: string

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tankobun-page-cache-'))
})

afterAll(async () => {
  await rm(root, { recursive: true, force: true })
})

/** A fill that writes one page of `bytes` bytes and counts its calls. */
function filler(bytes: number) {
  const fill = async (dir: string): Promise<Manifest> => {
    fill.calls++
    await writeFile(join(dir, '0.jpg'), new Uint8Array(bytes))
    return { pages: [{ name: 'a.jpg', file: '0.jpg' }], bytes }
  }
  fill.calls = 0
  return fill
}

describe('page cache', () => {
  it('fills a key once for concurrent callers', async () => {
    const cache = createPageCache({ dir: join(root, 'once'), maxBytes: 10_000 })
    const fill = filler(100)
    const [a, b] = await Promise.all([cache.obtain('k', fill), cache.obtain('k', fill)])
    expect(fill.calls).toBe(1)
    expect(a.dir).toBe(b.dir)
    expect(await readdir(a.dir)).toContain('0.jpg')
  })

  it('evicts least recently used folders past its byte bound', async () => {
    const dir = join(root, 'lru')
    const cache = createPageCache({ dir, maxBytes: 250 })
    await cache.obtain('a', filler(100))
    await cache.obtain('b', filler(100))
    await cache.obtain('a', filler(100)) // touch: b is now the oldest
    await cache.obtain('c', filler(100))
    expect((await readdir(dir)).sort()).toEqual(['a', 'c'])
    expect(cache.size()).toBe(200)
  })

  it('does not keep a folder whose fill failed', async () => {
    const dir = join(root, 'failed')
    const cache = createPageCache({ dir, maxBytes: 1000 })
    const broken = async () => {
      throw new Error('bad archive')
    }
    await expect(cache.obtain('x', broken)).rejects.toThrow('bad archive')
    expect(await readdir(dir)).toEqual([])
  })

  it('adopts finished folders after a restart and removes interrupted ones', async () => {
    const dir = join(root, 'restart')
    const first = createPageCache({ dir, maxBytes: 1000 })
    await first.obtain('done', filler(100))
    await mkdir(join(dir, 'half.tmp-123'), { recursive: true })
    await mkdir(join(dir, 'no-manifest'), { recursive: true })
    const second = createPageCache({ dir, maxBytes: 1000 })
    const fill = filler(100)
    await second.obtain('done', fill)
    expect(fill.calls).toBe(0)
    expect(second.size()).toBe(100)
    expect(await readdir(dir)).toEqual(['done'])
  })
})
