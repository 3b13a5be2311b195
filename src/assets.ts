// Where the files the server needs besides its code are: migrations, Worker entry points and the
// libarchive WASM. One place, so a compiled single binary changes only these lines.
import { join } from 'node:path'
// A file import only names the file (a compiled binary embeds it): libarchive itself loads in the
// extract worker, never here.
import libarchiveWasmPath from 'libarchive.js/src/webworker/wasm-gen/libarchive.wasm' with { type: 'file' }

/** The committed SQL migrations (drizzle's folder layout). */
export const MIGRATIONS_DIR = join(import.meta.dir, 'db', 'migrations')

/** Entry of the sharp Workers (thumbnails, page sizes). */
export const THUMBNAIL_WORKER_URL = new URL('./images/thumbnail.worker.ts', import.meta.url)

/** Entry of the libarchive Workers (RAR, 7z, compressed tar). */
export const EXTRACT_WORKER_URL = new URL('./archive/extract.worker.ts', import.meta.url)

/** libarchive.js's WASM build, read by the extract worker. */
export const LIBARCHIVE_WASM_PATH: string = libarchiveWasmPath
