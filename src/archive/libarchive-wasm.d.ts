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
  /** Emscripten module options; `initFunctions` fills `runCode` once the WASM is instantiated. */
  export class WasmModule {
    wasmBinary?: Uint8Array
    initFunctions(): void
  }
}
declare module 'libarchive.js/src/webworker/wasm-gen/libarchive.js' {
  /** Instantiates the WASM into the given module options and resolves with them. */
  export default function instantiate<M extends object>(
    module: M,
  ): Promise<M & import('libarchive.js/src/webworker/wasm-module.js').LibarchiveModule>
}
declare module 'libarchive.js/src/webworker/wasm-gen/libarchive.wasm' {
  /** The file's path (an embedded one in a compiled binary). */
  const path: string
  export default path
}
