// RAR, 7z and compressed tar: unpacked once by a libarchive worker into the page cache, then
// served from disk. A bad archive can only fail its own call: the worker is isolated and replaced.
import { statSync } from 'node:fs'
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { EXTRACT_WORKER_URL } from '../assets.ts'
import { fail } from '../errors.ts'
import { createLogger } from '../log.ts'
import { createWorkerPool } from '../workers/pool.ts'
import type { ExtractRequest, ExtractResult } from './extract.worker.ts'
import { MAX_EXTRACT_MS, MAX_LIBARCHIVE_FILE_BYTES } from './limits.ts'
import { createPageCache, type CachedPages } from './page-cache.ts'
import type { ArchiveSource } from './source.ts'

export type Extractor = {
  open(absPath: string, stamp: string): Promise<ArchiveSource>
  forget(absPath: string): void
  clear(): Promise<void>
  close(): Promise<void>
}

export type ExtractorOptions = {
  cacheDir: string
  maxBytes: number
  workers: number
  /** Tests swap in a worker that crashes on purpose; defaults to extract.worker.ts. */
  workerUrl?: URL | string
}

const log = createLogger('archive.extractor')

const keyOf = (absPath: string, stamp: string): string =>
  new Bun.CryptoHasher('sha1').update(`${absPath}\0${stamp}`).digest('hex')

export function createExtractor(options: ExtractorOptions): Extractor {
  const pool = createWorkerPool<ExtractRequest, ExtractResult>({
    url: options.workerUrl ?? EXTRACT_WORKER_URL,
    size: options.workers,
    crashMessage: 'archive extraction failed',
    timeoutMs: MAX_EXTRACT_MS,
  })
  const cache = createPageCache({ dir: options.cacheDir, maxBytes: options.maxBytes })
  const keysOf = new Map<string, Set<string>>()

  async function obtain(absPath: string, key: string): Promise<CachedPages> {
    const { size } = await stat(absPath)
    if (size > MAX_LIBARCHIVE_FILE_BYTES)
      throw fail.unprocessable(
        `archive is ${size} bytes; RAR/7z/compressed tar above ` +
          `${MAX_LIBARCHIVE_FILE_BYTES} bytes are not supported`,
      )
    const maxBytes = options.maxBytes
    return cache.obtain(key, (outDir) => pool.run({ path: absPath, outDir, maxBytes }))
  }

  return {
    async open(absPath, stamp) {
      const key = keyOf(absPath, stamp)
      const keys = keysOf.get(absPath) ?? new Set()
      keysOf.set(absPath, keys.add(key))
      let current = await obtain(absPath, key)
      // Manifests cached before link entries were left out list them without a file.
      const listed = current.manifest.pages.filter((p) => typeof p.file === 'string')
      const files = new Map(listed.map((p) => [p.name, p.file]))
      return {
        pages: listed.map((p) => p.name),
        async read(name) {
          const file = files.get(name)!
          try {
            return await Bun.file(join(current.dir, file)).bytes()
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
            // Evicted from the cache since it was opened: unpack again.
            current = await obtain(absPath, key)
            return Bun.file(join(current.dir, file)).bytes()
          }
        },
        async open(name) {
          const file = files.get(name)!
          let page = Bun.file(join(current.dir, file))
          if (!(await page.exists())) {
            current = await obtain(absPath, key)
            page = Bun.file(join(current.dir, file))
          }
          return { size: page.size, body: page }
        },
        close: async () => undefined,
      }
    },
    forget(absPath) {
      const keys = new Set(keysOf.get(absPath))
      // Pages extracted before a restart are cached too, under the file's current stamp.
      const st = statSync(absPath, { throwIfNoEntry: false })
      if (st) keys.add(keyOf(absPath, `${st.size}:${st.mtimeMs}`))
      for (const key of keys)
        cache
          .drop(key)
          .catch((err: Error) => log.warn('dropping pages failed', { error: err.message }))
      keysOf.delete(absPath)
    },
    clear: () => cache.clear(),
    close: () => pool.close(),
  }
}
