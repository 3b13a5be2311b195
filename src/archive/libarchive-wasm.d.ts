// Types for the parts of libarchive.js's WASM build we drive directly (it ships plain JS sources).
declare module 'libarchive.js/src/webworker/wasm-module.js' {
  export type LibarchiveCalls = {
    openArchive(ptr: number, length: number, passphrase: string | null, locale: string): number
    getNextEntry(archive: number): number
    getFileData(archive: number, size: number): number
    skipEntry(archive: number): number
    closeArchive(archive: number): void
    getEntrySize(entry: number): number
    getEntryName(entry: number): string
    getEntryType(entry: number): number
    entryIsEncrypted(entry: number): number
    getError(archive: number): string
    malloc(size: number): number
  }
  export type LibarchiveModule = {
    runCode: LibarchiveCalls
    HEAPU8: Uint8Array
    _free(ptr: number): void
  }
  export function getWasmModule(callback: (module: LibarchiveModule) => void): void
}
