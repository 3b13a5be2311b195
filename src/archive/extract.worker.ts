// Runs inside a Bun Worker: unpacks the pages of a RAR / 7z / compressed tar into a cache folder
// in one pass (solid archives decode once), with libarchive.js's WASM build.
import { closeSync, fstatSync, openSync, readFileSync, readSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { WasmModule } from 'libarchive.js/src/webworker/wasm-module.js'
import instantiateLibarchive from 'libarchive.js/src/webworker/wasm-gen/libarchive.js'
import type { LibarchiveModule } from 'libarchive.js/src/webworker/wasm-module.js'
import { LIBARCHIVE_WASM_PATH } from '../assets.ts'
import { AppError, fail } from '../errors.ts'
import { serveCalls } from '../workers/protocol.ts'
import { isPageName, normalizeEntryName, selectPages, unsafeReason } from './entries.ts'
import {
  MAX_COMPRESSION_RATIO,
  MAX_ENTRIES,
  MAX_ENTRY_BYTES,
  MAX_LIBARCHIVE_FILE_BYTES,
  MAX_TOTAL_BYTES,
  MIN_RATIO_CHECK_BYTES,
} from './limits.ts'
import type { Manifest } from './page-cache.ts'

/** `maxBytes`: bound of unpacked pages (the page cache could not hold more anyway). */
export type ExtractRequest = { path: string; outDir: string; maxBytes: number }
export type ExtractResult = Manifest

const REGULAR_FILE = 0o100000
const DIRECTORY = 0o040000

// libarchive.js's own getWasmModule, given the WASM bytes from where assets.ts says they are
// rather than looking next to its JS glue.
const wasm = instantiateLibarchive(
  Object.assign(new WasmModule(), { wasmBinary: readFileSync(LIBARCHIVE_WASM_PATH) }),
).then((mod) => {
  mod.initFunctions()
  return mod
})

/** Copies the file straight into WASM memory: no second copy of a big archive on the JS heap. */
function loadFile(mod: LibarchiveModule, path: string): { ptr: number; length: number } {
  const fd = openSync(path, 'r')
  try {
    const length = fstatSync(fd).size
    if (length > MAX_LIBARCHIVE_FILE_BYTES)
      throw fail.unprocessable(`archive larger than ${MAX_LIBARCHIVE_FILE_BYTES} bytes`)
    const ptr = mod.runCode.malloc(Math.max(length, 1))
    if (!ptr) throw fail.unprocessable('archive too large to open')
    let done = 0
    while (done < length) {
      const n = readSync(fd, mod.HEAPU8.subarray(ptr + done, ptr + length), 0, length - done, done)
      if (n === 0) break
      done += n
    }
    return { ptr, length: done }
  } finally {
    closeSync(fd)
  }
}

async function extract(request: ExtractRequest): Promise<ExtractResult> {
  const mod = await wasm
  try {
    return extractWith(mod, request)
  } catch (err) {
    if (err instanceof AppError) throw err
    // A WASM trap can leave the module's memory inconsistent: answer, then let the pool
    // replace this worker with a fresh one.
    setTimeout(() => process.exit(1), 10)
    throw new AppError('unprocessable', `corrupt archive: ${(err as Error).message}`)
  }
}

function extractWith(mod: LibarchiveModule, { path, outDir, maxBytes }: ExtractRequest) {
  const calls = mod.runCode
  const file = loadFile(mod, path)
  const archive = calls.openArchive(file.ptr, file.length, null, 'en_US.UTF-8')
  try {
    const seen: { name: string; isDirectory: boolean }[] = []
    const files = new Map<string, string>()
    let bytes = 0
    for (;;) {
      const entry = calls.getNextEntry(archive)
      if (!entry) break
      if (seen.length >= MAX_ENTRIES) throw fail.unprocessable(`more than ${MAX_ENTRIES} entries`)
      const name = normalizeEntryName(calls.getEntryName(entry) ?? '')
      const reason = unsafeReason(name)
      if (reason) throw fail.unprocessable(`unsafe entry name: ${JSON.stringify(name)} (${reason})`)
      const type = calls.getEntryType(entry)
      seen.push({ name, isDirectory: type === DIRECTORY })
      if (type !== REGULAR_FILE || !isPageName(name) || files.has(name)) {
        calls.skipEntry(archive)
        continue
      }
      if (calls.entryIsEncrypted(entry) > 0) throw fail.unprocessable('encrypted archive')
      const size = calls.getEntrySize(entry)
      if (size > MAX_ENTRY_BYTES)
        throw fail.unprocessable(`entry ${JSON.stringify(name)} exceeds ${MAX_ENTRY_BYTES} bytes`)
      bytes += size
      if (bytes > Math.min(maxBytes, MAX_TOTAL_BYTES))
        throw fail.unprocessable(`pages exceed ${Math.min(maxBytes, MAX_TOTAL_BYTES)} bytes`)
      // Solid archives have no per-entry packed size: bound the whole archive's ratio instead,
      // checked before each entry is unpacked (page images barely compress).
      if (bytes >= MIN_RATIO_CHECK_BYTES && bytes > file.length * MAX_COMPRESSION_RATIO)
        throw fail.unprocessable(`compression ratio exceeds ${MAX_COMPRESSION_RATIO}:1`)
      const data = calls.getFileData(archive, size)
      if (data < 0) throw fail.unprocessable(`corrupt archive: ${calls.getError(archive)}`)
      // Files on disk are named by position, never by entry name: nothing can escape outDir.
      const ext = name.slice(name.lastIndexOf('.')).toLowerCase()
      const diskName = `${files.size}${ext}`
      try {
        writeFileSync(join(outDir, diskName), mod.HEAPU8.subarray(data, data + size))
      } finally {
        mod._free(data)
      }
      files.set(name, diskName)
    }
    // The entry loop ends the same way at the end and at a broken header: the error tells which.
    const error = calls.getError(archive)
    if (error) throw fail.unprocessable(`corrupt archive: ${error}`)
    if (seen.length === 0) throw fail.unprocessable('not a readable archive (no entries found)')
    // Links, devices and FIFOs carry page-like names but no data: only what was unpacked is a
    // page (as the plain tar reader keeps only regular files).
    const pages = selectPages(seen).flatMap((name) => {
      const file = files.get(name)
      return file ? [{ name, file }] : []
    })
    const manifest: ExtractResult = { pages, bytes }
    return manifest
  } finally {
    calls.closeArchive(archive)
    mod._free(file.ptr)
  }
}

serveCalls<ExtractRequest, ExtractResult>(extract)
