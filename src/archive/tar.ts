// Plain TAR by a header index: one pass over the 512-byte headers, then positioned reads.
import { readSync } from 'node:fs'
import { open, type FileHandle } from 'node:fs/promises'
import { AppError, fail } from '../errors.ts'
import { isTarHeader } from './format.ts'
import { normalizeEntryName, selectPages } from './entries.ts'
import { naturalCompare } from '../model/natural-sort.ts'
import { MAX_ENTRIES } from './limits.ts'
import { checkDeclaredSizes, entryTooLarge, type ArchiveSource } from './source.ts'

const BLOCK = 512
/** Long-name and pax records are a few hundred bytes; anything bigger is not a name. */
const MAX_META_BYTES = 64 * 1024

type TarEntry = { name: string; offset: number; size: number; isDirectory: boolean }

const text = (bytes: Uint8Array): string => {
  const nul = bytes.indexOf(0)
  return new TextDecoder().decode(nul === -1 ? bytes : bytes.subarray(0, nul))
}

/** Octal, or GNU base-256 (high bit set) for sizes past 8 GiB. */
function parseSize(field: Uint8Array): number {
  if (field[0]! & 0x80) {
    let value = field[0]! & 0x7f
    for (let i = 1; i < field.length; i++) value = value * 256 + field[i]!
    return value
  }
  const digits = text(field).trim()
  return digits === '' ? 0 : parseInt(digits, 8)
}

/** pax records: "<len> <key>=<value>\n", repeated. */
function parsePax(bytes: Uint8Array): Map<string, string> {
  const records = new Map<string, string>()
  const body = new TextDecoder().decode(bytes)
  let at = 0
  while (at < body.length) {
    const space = body.indexOf(' ', at)
    const length = parseInt(body.slice(at, space), 10)
    if (space === -1 || !(length > 0)) break
    const record = body.slice(space + 1, at + length - 1)
    const eq = record.indexOf('=')
    if (eq > 0) records.set(record.slice(0, eq), record.slice(eq + 1))
    at += length
  }
  return records
}

async function readAt(
  handle: FileHandle,
  offset: number,
  length: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const bytes = new Uint8Array(length)
  const { bytesRead } = await handle.read(bytes, 0, length, offset)
  if (bytesRead < length) throw fail.unprocessable('truncated tar')
  return bytes
}

/** Headers are tiny and many: synchronous reads are ~20x cheaper than a promise per header. */
function readHeaderAt(handle: FileHandle, offset: number, length: number): Uint8Array {
  const bytes = new Uint8Array(length)
  if (readSync(handle.fd, bytes, 0, length, offset) < length)
    throw fail.unprocessable('truncated tar')
  return bytes
}

/** Headers read between two yields to the event loop, so a huge index never stalls requests. */
const HEADERS_PER_TURN = 256

async function indexTar(handle: FileHandle, fileSize: number): Promise<TarEntry[]> {
  const entries: TarEntry[] = []
  let offset = 0
  let longName: string | null = null
  let pax: Map<string, string> | null = null
  let headers = 0
  while (offset < fileSize) {
    // Some writers omit the end-of-archive blocks; a partial header means a cut-off file.
    if (offset + BLOCK > fileSize) throw fail.unprocessable('truncated tar')
    if (++headers % HEADERS_PER_TURN === 0) await Bun.sleep(0)
    const header = readHeaderAt(handle, offset, BLOCK)
    if (header.every((b) => b === 0)) break
    if (!isTarHeader(header)) throw fail.unprocessable(`corrupt tar header at byte ${offset}`)
    const type = String.fromCharCode(header[156]!)
    // pax may carry the real size of entries too big for the octal field.
    const size = pax?.has('size') ? Number(pax.get('size')) : parseSize(header.subarray(124, 136))
    const dataOffset = offset + BLOCK
    if (!Number.isSafeInteger(size))
      throw fail.unprocessable(`corrupt tar header at byte ${offset}`)
    offset = dataOffset + Math.ceil(size / BLOCK) * BLOCK
    // Writers always pad data to whole blocks, so a short last block means a cut-off file.
    if (offset > fileSize) throw fail.unprocessable('truncated tar')
    if (type === 'L' || type === 'x') {
      if (size > MAX_META_BYTES) throw fail.unprocessable('oversized tar name record')
      const data = readHeaderAt(handle, dataOffset, size)
      if (type === 'L') longName = text(data)
      else pax = parsePax(data)
      continue
    }
    if (type === 'g' || type === 'K') continue
    const magic = text(header.subarray(257, 263))
    const prefix = magic.startsWith('ustar') ? text(header.subarray(345, 500)) : ''
    const shortName = text(header.subarray(0, 100))
    const name = pax?.get('path') ?? longName ?? (prefix ? `${prefix}/${shortName}` : shortName)
    longName = null
    pax = null
    if (type !== '0' && type !== '\0' && type !== '7' && type !== '5') continue // links, devices
    const isDirectory = type === '5' || name.endsWith('/')
    entries.push({ name: normalizeEntryName(name), offset: dataOffset, size, isDirectory })
    if (entries.length > MAX_ENTRIES) throw fail.unprocessable(`more than ${MAX_ENTRIES} entries`)
  }
  return entries
}

export async function openTar(absPath: string): Promise<ArchiveSource> {
  const handle = await open(absPath, 'r')
  try {
    const { size } = await handle.stat()
    const entries = await indexTar(handle, size)
    const byName = new Map<string, TarEntry>()
    for (const entry of entries) if (!byName.has(entry.name)) byName.set(entry.name, entry)
    const pages = selectPages(entries)
    checkDeclaredSizes(pages.map((name) => byName.get(name)!))
    const files = [...byName.values()]
      .filter((e) => !e.isDirectory)
      .map((e) => e.name)
      .sort(naturalCompare)
    return {
      pages,
      files,
      read: async (name) => {
        const entry = byName.get(name)!
        return readAt(handle, entry.offset, entry.size)
      },
      open: async (name) => {
        const { offset, size } = byName.get(name)!
        return { size, body: Bun.file(absPath).slice(offset, offset + size) }
      },
      async readOther(name, maxBytes) {
        const entry = byName.get(name)
        if (!entry || entry.isDirectory) return null
        if (entry.size > maxBytes) throw entryTooLarge(name, maxBytes)
        return readAt(handle, entry.offset, entry.size)
      },
      close: () => handle.close(),
    }
  } catch (err) {
    await handle.close()
    if (err instanceof AppError) throw err
    throw new AppError('unprocessable', `corrupt tar: ${(err as Error).message}`, undefined, {
      cause: err,
    })
  }
}
