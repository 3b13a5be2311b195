// ZIP by random access: yauzl reads the central directory once, then inflates single entries.
import yauzl from 'yauzl'
import type { Entry, ZipFile } from 'yauzl'
import { AppError, fail } from '../errors.ts'
import { createLogger } from '../log.ts'
import { normalizeEntryName, selectPages } from './entries.ts'
import { naturalCompare } from '../model/natural-sort.ts'
import { MAX_ENTRIES, MAX_ENTRY_BYTES } from './limits.ts'
import { checkDeclaredSizes, entryTooLarge, type ArchiveSource, type PageBody } from './source.ts'
import { openPreloadedZip, type OpenedZip } from './zip-file-reader.ts'

const log = createLogger('archive.zip')
const STORED = 0
const DEFLATED = 8
/**
 * Inflated pages up to this size are read whole before answering, so a damaged one is an error
 * answer; larger ones are streamed (an error then cuts the transfer), so readers of huge pages
 * hold a few chunks each instead of the page.
 */
const INFLATE_WHOLE_BYTES = 4 * 1024 * 1024

const corrupt = (err: unknown): AppError =>
  err instanceof AppError
    ? err
    : new AppError('unprocessable', `corrupt zip: ${(err as Error).message}`, undefined, {
        cause: err,
      })

async function openZipFile(absPath: string): Promise<OpenedZip> {
  // decodeStrings off: yauzl would reject unsafe names with its own message; entries.ts decides.
  const options = { lazyEntries: true, autoClose: false, decodeStrings: false }
  return openPreloadedZip(absPath, options).catch((err: unknown) => {
    throw corrupt(err)
  })
}

/** Made on Unix with a file type other than regular (a symlink's data is its target path). */
function isUnixSpecialFile(entry: Entry): boolean {
  const madeOnUnix = entry.versionMadeBy >> 8 === 3
  const type = (entry.externalFileAttributes >>> 16) & 0o170000
  return madeOnUnix && type !== 0 && type !== 0o100000 && type !== 0o040000
}

function readDirectory(zip: ZipFile): Promise<Map<string, Entry>> {
  return new Promise((resolve, reject) => {
    const byName = new Map<string, Entry>()
    const abort = (err: unknown) => {
      zip.removeAllListeners()
      zip.on('error', () => undefined)
      reject(corrupt(err))
    }
    zip.on('error', abort)
    zip.on('end', () => {
      zip.removeListener('error', abort)
      resolve(byName)
    })
    zip.on('entry', (entry: Entry) => {
      const raw = entry.fileName as unknown as Buffer
      const name = normalizeEntryName(
        yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, raw, entry.extraFields, true),
      )
      if (entry.isEncrypted()) return abort(fail.unprocessable('encrypted archive'))
      // Duplicate names: the first one wins, as most readers do.
      if (!byName.has(name)) byName.set(name, entry)
      zip.readEntry()
    })
    zip.readEntry()
  })
}

async function readStored(opened: OpenedZip, entry: Entry): Promise<Uint8Array<ArrayBuffer>> {
  const { fileDataStart } = await opened.zip.readLocalFileHeaderPromise(entry, { minimal: true })
  return opened.readRange(fileDataStart, entry.compressedSize)
}

function inflate(zip: ZipFile, entry: Entry): Promise<Uint8Array<ArrayBuffer>> {
  // Never trust the declared size alone: stop once the stream yields more than it declared.
  const limit = Math.min(entry.uncompressedSize, MAX_ENTRY_BYTES)
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (err, stream) => {
      if (err) return reject(corrupt(err))
      const chunks: Buffer[] = []
      let size = 0
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size > limit) {
          stream.destroy()
          reject(fail.unprocessable('entry inflates past its declared size'))
          return
        }
        chunks.push(chunk)
      })
      stream.on('error', (e) => reject(corrupt(e)))
      stream.on('end', () => {
        const bytes = new Uint8Array(size)
        let at = 0
        for (const chunk of chunks) {
          bytes.set(chunk, at)
          at += chunk.length
        }
        resolve(bytes)
      })
    })
  })
}

/** An inflating entry as a web stream pulled chunk by chunk: memory stays a few chunks deep. */
function inflateStream(zip: ZipFile, entry: Entry): Promise<ReadableStream<Uint8Array>> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (err, stream) => {
      if (err) return reject(corrupt(err))
      // yauzl checks the inflated size against the declared one (never past MAX_ENTRY_BYTES).
      const chunks = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>
      resolve(
        new ReadableStream<Uint8Array>(
          {
            async pull(controller) {
              const next = await chunks.next().catch((e: unknown) => {
                throw corrupt(e)
              })
              if (next.done) controller.close()
              else controller.enqueue(next.value)
            },
            cancel: () => void stream.destroy(),
          },
          { highWaterMark: 0 },
        ),
      )
    })
  })
}

async function openEntry(absPath: string, opened: OpenedZip, entry: Entry): Promise<PageBody> {
  if (entry.compressionMethod !== STORED && entry.uncompressedSize <= INFLATE_WHOLE_BYTES)
    return { size: entry.uncompressedSize, body: await inflate(opened.zip, entry) }
  if (entry.compressionMethod !== STORED)
    return { size: entry.uncompressedSize, body: await inflateStream(opened.zip, entry) }
  const { fileDataStart } = await opened.zip
    .readLocalFileHeaderPromise(entry, { minimal: true })
    .catch((err: unknown) => {
      throw corrupt(err)
    })
  const end = fileDataStart + entry.compressedSize
  return { size: entry.compressedSize, body: Bun.file(absPath).slice(fileDataStart, end) }
}

function readEntry(opened: OpenedZip, entry: Entry): Promise<Uint8Array<ArrayBuffer>> {
  if (entry.compressionMethod === STORED)
    return readStored(opened, entry).catch((err: unknown) => {
      throw corrupt(err)
    })
  return inflate(opened.zip, entry)
}

/**
 * `unpack` handles zips whose pages use a codec yauzl lacks (bzip2, LZMA: 7-Zip can write them)
 * by extracting them like a RAR.
 */
export async function openZip(
  absPath: string,
  unpack: () => Promise<ArchiveSource>,
): Promise<ArchiveSource> {
  const opened = await openZipFile(absPath)
  const zip = opened.zip
  try {
    if (zip.entryCount > MAX_ENTRIES) throw fail.unprocessable(`more than ${MAX_ENTRIES} entries`)
    const byName = await readDirectory(zip)
    const pages = selectPages(
      [...byName].map(([name, e]) => ({
        name,
        isDirectory: name.endsWith('/'),
        isSpecial: isUnixSpecialFile(e),
      })),
    )
    const pageEntries = pages.map((name) => byName.get(name)!)
    checkDeclaredSizes(
      pageEntries.map((e, i) => ({
        name: pages[i]!,
        size: e.uncompressedSize,
        compressedSize: e.compressedSize,
      })),
    )
    const decodable = (e: Entry) =>
      e.compressionMethod === STORED || e.compressionMethod === DEFLATED
    if (!pageEntries.every(decodable)) {
      zip.close()
      return unpack()
    }
    // A late error on the shared handle must not become an uncaught 'error' event.
    zip.on('error', (err: Error) =>
      log.warn('zip handle error', { path: absPath, error: err.message }),
    )
    const files = [...byName]
      .filter(([name, e]) => !name.endsWith('/') && !isUnixSpecialFile(e))
      .map(([name]) => name)
      .sort(naturalCompare)
    return {
      pages,
      files,
      read: (name) => readEntry(opened, byName.get(name)!),
      open: (name) => openEntry(absPath, opened, byName.get(name)!),
      async readOther(name, maxBytes) {
        const entry = byName.get(name)
        if (!entry || name.endsWith('/') || isUnixSpecialFile(entry)) return null
        // A stored entry is read by its compressed size, an inflated one stops at its declared size.
        if (Math.max(entry.uncompressedSize, entry.compressedSize) > maxBytes)
          throw entryTooLarge(name, maxBytes)
        if (!decodable(entry))
          throw fail.unprocessable(`entry ${JSON.stringify(name)} uses an unsupported compression`)
        return readEntry(opened, entry)
      },
      close: async () => zip.close(),
    }
  } catch (err) {
    if (zip.isOpen) zip.close()
    throw err
  }
}
