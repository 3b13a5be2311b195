// ZIP by random access: yauzl reads the central directory once, then inflates single entries.
import yauzl from 'yauzl'
import type { Entry, ZipFile } from 'yauzl'
import { AppError, fail } from '../errors.ts'
import { createLogger } from '../log.ts'
import { normalizeEntryName, selectPages } from './entries.ts'
import { MAX_ENTRIES, MAX_ENTRY_BYTES } from './limits.ts'
import { checkDeclaredSizes, type ArchiveSource } from './source.ts'

const log = createLogger('archive.zip')
const STORED = 0
const DEFLATED = 8

const corrupt = (err: unknown): AppError =>
  err instanceof AppError
    ? err
    : new AppError('unprocessable', `corrupt zip: ${(err as Error).message}`, undefined, {
        cause: err,
      })

function openZipFile(absPath: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    // decodeStrings off: yauzl would reject unsafe names with its own message; entries.ts decides.
    const options = { lazyEntries: true, autoClose: false, decodeStrings: false }
    yauzl.open(absPath, options, (err, zip) => (err ? reject(corrupt(err)) : resolve(zip)))
  })
}

function readDirectory(zip: ZipFile): Promise<Map<string, Entry>> {
  return new Promise((resolve, reject) => {
    const byName = new Map<string, Entry>()
    const fail_ = (err: unknown) => {
      zip.removeAllListeners()
      zip.on('error', () => undefined)
      reject(corrupt(err))
    }
    zip.on('error', fail_)
    zip.on('end', () => {
      zip.removeListener('error', fail_)
      resolve(byName)
    })
    zip.on('entry', (entry: Entry) => {
      const raw = entry.fileName as unknown as Buffer
      const name = normalizeEntryName(
        yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, raw, entry.extraFields, true),
      )
      if (entry.isEncrypted()) return fail_(fail.unprocessable('encrypted archive'))
      // Duplicate names: the first one wins, as most readers do.
      if (!byName.has(name)) byName.set(name, entry)
      zip.readEntry()
    })
    zip.readEntry()
  })
}

function readEntry(zip: ZipFile, entry: Entry): Promise<Uint8Array> {
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
      stream.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks, size))))
    })
  })
}

export async function openZip(absPath: string): Promise<ArchiveSource> {
  const zip = await openZipFile(absPath)
  try {
    if (zip.entryCount > MAX_ENTRIES) throw fail.unprocessable(`more than ${MAX_ENTRIES} entries`)
    const byName = await readDirectory(zip)
    const pages = selectPages(
      [...byName].map(([name, e]) => ({ name, isDirectory: name.endsWith('/') })),
    )
    const pageEntries = pages.map((name) => byName.get(name)!)
    checkDeclaredSizes(
      pageEntries.map((e, i) => ({
        name: pages[i]!,
        size: e.uncompressedSize,
        compressedSize: e.compressedSize,
      })),
    )
    const method = pageEntries.find((e) => e.compressionMethod !== STORED && e.compressionMethod !== DEFLATED)
    if (method) throw fail.unprocessable(`unsupported zip compression method ${method.compressionMethod}`)
    // A late error on the shared handle must not become an uncaught 'error' event.
    zip.on('error', (err: Error) => log.warn('zip handle error', { path: absPath, err: err.message }))
    return {
      pages,
      read: (name) => readEntry(zip, byName.get(name)!),
      close: async () => zip.close(),
    }
  } catch (err) {
    zip.close()
    throw err
  }
}
