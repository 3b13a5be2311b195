// On-disk cache of pages extracted from archives without random access (RAR, 7z, .tar.gz),
// bounded in bytes with least-recently-used eviction; one folder per archive version.
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { createLogger } from '../log.ts'

const log = createLogger('archive.page-cache')
const MANIFEST = 'manifest.json'

/** What an extraction left in a folder: entry name -> file inside that folder, in page order. */
export type Manifest = { pages: { name: string; file: string }[]; bytes: number }
export type CachedPages = { dir: string; manifest: Manifest }

export type PageCache = {
  /** The pages of `key`, filled by `fill(tmpDir)` on a miss; concurrent callers share one fill. */
  obtain(key: string, fill: (dir: string) => Promise<Manifest>): Promise<CachedPages>
  drop(key: string): Promise<void>
  /** Removes every cached folder; fills in flight still complete. */
  clear(): Promise<void>
  /** Bytes currently held (for tests and /api/info-style reporting). */
  size(): number
}

export function createPageCache(options: { dir: string; maxBytes: number }): PageCache {
  const held = new Map<string, CachedPages>() // insertion order = least recently used first
  const filling = new Map<string, Promise<CachedPages>>()
  let total = 0
  let loaded: Promise<void> | null = null

  // Folders survive restarts; finished ones are adopted, interrupted fills are removed.
  async function load(): Promise<void> {
    await mkdir(options.dir, { recursive: true })
    const found: { key: string; mtime: number; cached: CachedPages }[] = []
    for (const key of await readdir(options.dir)) {
      const dir = join(options.dir, key)
      const manifest = await Bun.file(join(dir, MANIFEST))
        .json()
        .catch(() => null)
      if (key.includes('.tmp-') || !manifest) {
        await rm(dir, { recursive: true, force: true })
        continue
      }
      found.push({ key, mtime: (await stat(dir)).mtimeMs, cached: { dir, manifest } })
    }
    for (const { key, cached } of found.sort((a, b) => a.mtime - b.mtime)) {
      held.set(key, cached)
      total += cached.manifest.bytes
    }
  }

  async function evict(keep: string): Promise<void> {
    for (const [key, cached] of held) {
      if (total <= options.maxBytes) return
      if (key === keep) continue
      held.delete(key)
      total -= cached.manifest.bytes
      await rm(cached.dir, { recursive: true, force: true })
    }
  }

  async function fillOnce(key: string, fill: (dir: string) => Promise<Manifest>) {
    const dir = join(options.dir, key)
    const tmp = `${dir}.tmp-${crypto.randomUUID()}`
    await mkdir(tmp, { recursive: true })
    try {
      const manifest = await fill(tmp)
      await Bun.write(join(tmp, MANIFEST), JSON.stringify(manifest))
      await rm(dir, { recursive: true, force: true })
      await rename(tmp, dir)
      const cached = { dir, manifest }
      held.set(key, cached)
      total += manifest.bytes
      await evict(key)
      return cached
    } catch (err) {
      await rm(tmp, { recursive: true, force: true })
      throw err
    }
  }

  return {
    async obtain(key, fill) {
      loaded ??= load()
      await loaded
      const hit = held.get(key)
      if (hit) {
        held.delete(key)
        held.set(key, hit)
        return hit
      }
      let pending = filling.get(key)
      if (!pending) {
        pending = fillOnce(key, fill).finally(() => filling.delete(key))
        filling.set(key, pending)
      }
      return pending
    },
    async drop(key) {
      loaded ??= load()
      await loaded
      const cached = held.get(key)
      if (!cached) return
      held.delete(key)
      total -= cached.manifest.bytes
      // Moved aside first: a re-extraction of the same key may rename its new folder into place
      // while this removal is still running.
      const trash = `${cached.dir}.tmp-drop-${crypto.randomUUID()}`
      await rename(cached.dir, trash)
        .then(() => rm(trash, { recursive: true, force: true }))
        .catch((err: NodeJS.ErrnoException) => {
          if (err.code !== 'ENOENT')
            log.warn('could not remove cached pages', { dir: cached.dir, error: err.message })
        })
    },
    async clear() {
      loaded ??= load()
      await loaded
      const dirs = [...held.values()].map((cached) => cached.dir)
      held.clear()
      total = 0
      for (const dir of dirs) await rm(dir, { recursive: true, force: true })
    },
    size: () => total,
  }
}
