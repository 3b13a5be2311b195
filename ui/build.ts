// Builds the web UI (ui/src, Preact) with Bun's bundler into a folder the server serves:
// `index.html` (served at `/`) and `assets/` (hashed file names, served under `/ui/` and cached
// for a year). The server builds it on start when the sources are newer than the last build
// (src/ui-bundle.ts); `npm run build` embeds it in the single binary.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'

const UI = import.meta.dir
const STAMP = 'build-stamp.txt'

/** The newest modification time and the file count under ui/ sources: changes when any changes. */
export function uiSourceFingerprint(): string {
  let newest = statSync(join(UI, 'build.ts')).mtimeMs
  let count = 1
  const files = [
    join(UI, 'index.html'),
    ...readdirSync(join(UI, 'src'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name)),
  ]
  for (const file of files) {
    newest = Math.max(newest, statSync(file).mtimeMs)
    count++
  }
  return `${count}:${newest}`
}

/** True when `outDir` holds a build of the current sources. */
export async function uiBuildIsCurrent(outDir: string): Promise<boolean> {
  const stamp = Bun.file(join(outDir, STAMP))
  return (await stamp.exists()) && (await stamp.text()) === uiSourceFingerprint()
}

export type UiBuild = { files: string[]; bytes: number; gzipBytes: number }

/** Bundles ui/src into `outDir` (written beside it, then renamed into place). */
export async function buildUi(outDir: string): Promise<UiBuild> {
  const fingerprint = uiSourceFingerprint()
  const staging = `${outDir}.tmp-${process.pid}-${Date.now()}`
  rmSync(staging, { recursive: true, force: true })
  const result = await Bun.build({
    entrypoints: [join(UI, 'src', 'main.tsx')],
    outdir: join(staging, 'assets'),
    target: 'browser',
    minify: true,
    naming: {
      entry: '[name]-[hash].[ext]',
      chunk: '[name]-[hash].[ext]',
      asset: '[name]-[hash].[ext]',
    },
    define: { 'process.env.NODE_ENV': '"production"' },
  })
  if (!result.success) {
    rmSync(staging, { recursive: true, force: true })
    throw new AggregateError(result.logs, 'the web UI did not build')
  }
  const names = result.outputs.map((output) => basename(output.path))
  const script = names.find((name) => name.endsWith('.js'))
  const styles = names.filter((name) => name.endsWith('.css'))
  const html = (await Bun.file(join(UI, 'index.html')).text())
    .replace(
      '<!-- styles -->',
      styles.map((name) => `<link rel="stylesheet" href="/ui/${name}">`).join(''),
    )
    .replace('<!-- script -->', `<script type="module" src="/ui/${script}"></script>`)
  await Bun.write(join(staging, 'index.html'), html)
  await Bun.write(join(staging, STAMP), fingerprint)
  // The server reads the file list from here (the binary's embedded folder cannot be listed).
  await Bun.write(join(staging, 'manifest.json'), JSON.stringify({ assets: names }))

  let bytes = 0
  let gzipBytes = 0
  for (const name of names) {
    const data = await Bun.file(join(staging, 'assets', name)).bytes()
    bytes += data.length
    gzipBytes += Bun.gzipSync(data).length
  }
  mkdirSync(join(outDir, '..'), { recursive: true })
  // A directory cannot be renamed over a full one: the old build goes first (a request in between
  // gets a 404 and the page's next load finds the new build).
  if (existsSync(outDir)) rmSync(outDir, { recursive: true, force: true })
  renameSync(staging, outDir)
  return { files: names, bytes, gzipBytes }
}

if (import.meta.main) {
  const outDir = process.argv[2] ?? join(UI, 'dist')
  const build = await buildUi(outDir)
  process.stdout.write(
    `ui: ${build.files.length} files, ${(build.bytes / 1024).toFixed(1)} KB, ` +
      `${(build.gzipBytes / 1024).toFixed(1)} KB gzipped -> ${outDir}\n`,
  )
}
