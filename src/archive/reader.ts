// The ArchiveReader: picks a format reader by magic bytes and keeps opened archives in an LRU.
import { stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import { AppError, fail } from '../errors.ts'
import { createLogger } from '../log.ts'
import type { ArchiveReader } from './types.ts'
import { assertPageOf, normalizeEntryName, unsafeReason } from './entries.ts'
import { detectFormat } from './format.ts'
import { DEFAULT_PAGE_CACHE_BYTES, MAX_ENTRY_BYTES, MAX_OPEN_ARCHIVES } from './limits.ts'
import { entryTooLarge, type ArchiveSource, type PageBody } from './source.ts'
import { openTar } from './tar.ts'
import { openZip } from './zip.ts'
import { createExtractor } from './extractor.ts'

const log = createLogger('archive.reader')

/** `stream`, calling `done` once when it ends, fails or is cancelled (the client went away). */
function releasedWhenDone(
  stream: ReadableStream<Uint8Array>,
  done: () => void,
): ReadableStream<Uint8Array> {
  const chunks = stream.getReader()
  let finished = false
  const finish = () => {
    if (finished) return
    finished = true
    done()
  }
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await chunks.read()
          if (next.done) {
            finish()
            controller.close()
          } else controller.enqueue(next.value)
        } catch (err) {
          finish()
          log.warn('page stream failed', { error: (err as Error).message })
          controller.error(err)
        }
      },
      async cancel(reason) {
        finish()
        await chunks.cancel(reason)
      },
    },
    { highWaterMark: 0 },
  )
}

export type ArchiveReaderOptions = {
  /** Extracted RAR / 7z / compressed-tar pages live under `<tempDir>/pages/`. */
  tempDir: string
  /** Bound of that page cache in bytes (default 2 GiB). */
  pageCacheBytes?: number
  /** Opened zip/tar handles kept (default 64). */
  maxOpen?: number
  /** libarchive workers (default 1). */
  extractWorkers?: number
  /** Tests swap in a worker that crashes on purpose. */
  extractWorkerUrl?: URL | string
}

type Slot = {
  stamp: string
  source: Promise<ArchiveSource & { pageSet: Set<string> }>
  users: number
  retired: boolean
}

export function createArchiveReader(options: ArchiveReaderOptions): ArchiveReader {
  const maxOpen = options.maxOpen ?? MAX_OPEN_ARCHIVES
  const extractor = createExtractor({
    cacheDir: resolve(options.tempDir, 'pages'),
    maxBytes: options.pageCacheBytes ?? DEFAULT_PAGE_CACHE_BYTES,
    workers: options.extractWorkers ?? 1,
    workerUrl: options.extractWorkerUrl,
  })
  const slots = new Map<string, Slot>()

  async function openSource(absPath: string, stamp: string): Promise<ArchiveSource> {
    const format = await detectFormat(absPath)
    if (format === 'zip') return openZip(absPath, () => extractor.open(absPath, stamp))
    if (format === 'tar') return openTar(absPath)
    return extractor.open(absPath, stamp)
  }

  function closeSlot(slot: Slot): void {
    slot.source
      .then(
        (source) => source.close(),
        () => undefined, // the opener already reported its failure to the caller
      )
      .catch((err: Error) => log.warn('closing archive failed', { error: err.message }))
  }

  function retire(path: string, slot: Slot): void {
    if (slots.get(path) === slot) slots.delete(path)
    if (slot.retired) return
    slot.retired = true
    if (slot.users === 0) closeSlot(slot)
  }

  async function acquire(absPath: string): Promise<Slot> {
    const info = await stat(absPath).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') throw fail.not_found('archive file not found')
      throw err
    })
    if (!info.isFile()) throw fail.unprocessable('not a regular file')
    const stamp = `${info.size}:${info.mtimeMs}`
    let slot = slots.get(absPath)
    if (slot && slot.stamp !== stamp) {
      retire(absPath, slot)
      extractor.forget(absPath)
      slot = undefined
    }
    if (!slot) {
      const created: Slot = {
        stamp,
        users: 0,
        retired: false,
        source: openSource(absPath, stamp).then((s) => ({ ...s, pageSet: new Set(s.pages) })),
      }
      // A failed open is not kept: the file may be fixed or replaced without changing stamp.
      created.source.catch(() => retire(absPath, created))
      slot = created
    }
    slots.delete(absPath)
    slots.set(absPath, slot)
    slot.users++
    for (const [path, old] of slots) {
      if (slots.size <= maxOpen) break
      retire(path, old)
    }
    return slot
  }

  function release(slot: Slot): void {
    slot.users--
    if (slot.retired && slot.users === 0) closeSlot(slot)
  }

  async function withSource<T>(
    absPath: string,
    use: (source: ArchiveSource & { pageSet: Set<string> }) => Promise<T>,
  ): Promise<T> {
    const slot = await acquire(resolve(absPath))
    try {
      return await use(await slot.source)
    } catch (err) {
      if (err instanceof AppError) throw err
      const message = `unreadable archive: ${(err as Error).message}`
      throw new AppError('unprocessable', message, undefined, { cause: err })
    } finally {
      release(slot)
    }
  }

  return {
    listPages: (absPath) => withSource(absPath, async (source) => [...source.pages]),
    listFiles: (absPath) =>
      withSource(absPath, async (source) =>
        source.files
          ? { files: [...source.files], complete: true }
          : { files: [...source.pages], complete: false },
      ),
    readPage: (absPath, entryName) =>
      withSource(absPath, async (source) => {
        assertPageOf(source.pageSet, entryName)
        return source.read(entryName)
      }),
    async openPage(absPath, entryName) {
      const slot = await acquire(resolve(absPath))
      let page: PageBody
      try {
        const source = await slot.source
        assertPageOf(source.pageSet, entryName)
        page = await source.open(entryName)
      } catch (err) {
        release(slot)
        if (err instanceof AppError) throw err
        const message = `unreadable archive: ${(err as Error).message}`
        throw new AppError('unprocessable', message, undefined, { cause: err })
      }
      if (!(page.body instanceof ReadableStream)) {
        release(slot)
        return page
      }
      // A stream reads through the archive's open handle: keep it open until the stream is done.
      return { size: page.size, body: releasedWhenDone(page.body, () => release(slot)) }
    },
    async readEntry(absPath, name, maxBytes) {
      const entryName = normalizeEntryName(name)
      const reason = entryName === '' || entryName.endsWith('/') ? 'not a file' : unsafeReason(name)
      if (reason) throw fail.bad_request(`unsafe entry name: ${JSON.stringify(name)} (${reason})`)
      const cap = Math.min(maxBytes, MAX_ENTRY_BYTES)
      return withSource(absPath, async (source) => {
        if (source.readOther) return source.readOther(entryName, cap)
        // Extracted archives keep their pages only.
        if (!source.pageSet.has(entryName)) return null
        const bytes = await source.read(entryName)
        if (bytes.length > cap) throw entryTooLarge(entryName, cap)
        return bytes
      })
    },
    dropCached(absPath) {
      const path = resolve(absPath)
      const slot = slots.get(path)
      if (slot) retire(path, slot)
      extractor.forget(path)
    },
    clearCache: () => extractor.clear(),
    async close() {
      for (const [path, slot] of [...slots]) retire(path, slot)
      await extractor.close()
    },
  }
}
