// The built web UI, held in memory: index.html and the hashed assets with their gzip forms. From
// the source tree it is built on first use when ui/ is newer than ui/dist (ui/build.ts); the single
// binary embeds a build as its `ui/` folder. Immutable once loaded, so one copy serves every server
// in the process.
import { join } from 'node:path'
import { COMPILED, UI_DIST_DIR } from './assets.ts'
import { createLogger } from './log.ts'

const log = createLogger('ui')

type Bytes = Uint8Array<ArrayBuffer>

export type UiAsset = { body: Bytes; gzip: Bytes; type: string; etag: string }
export type UiBundle = { index: Bytes; assets: ReadonlyMap<string, UiAsset> }

const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  woff2: 'font/woff2',
  json: 'application/json',
}

let loading: Promise<UiBundle | null> | null = null

/** The UI, or null when there is none (a binary built without it, a build that failed). */
export function uiBundle(): Promise<UiBundle | null> {
  loading ??= load().catch((error: unknown) => {
    log.error('web UI unavailable', {
      error: error instanceof Error ? error.message : String(error),
    })
    return null
  })
  return loading
}

async function load(): Promise<UiBundle | null> {
  const dir = UI_DIST_DIR
  if (!COMPILED) {
    // Imported only here: the binary never builds (its UI is embedded).
    const { buildUi, uiBuildIsCurrent } = await import('../ui/build.ts')
    if (!(await uiBuildIsCurrent(dir))) {
      const build = await buildUi(dir)
      log.info('web UI built', { files: build.files.length, gzip_bytes: build.gzipBytes })
    }
  }
  const manifest = Bun.file(join(dir, 'manifest.json'))
  if (!(await manifest.exists())) return null
  const { assets: names } = (await manifest.json()) as { assets: string[] }
  const assets = new Map<string, UiAsset>()
  for (const name of names) {
    const body = await Bun.file(join(dir, 'assets', name)).bytes()
    const ext = name.slice(name.lastIndexOf('.') + 1)
    assets.set(name, {
      body,
      gzip: Bun.gzipSync(body) as Bytes,
      type: TYPES[ext] ?? 'application/octet-stream',
      etag: `"${Bun.hash(body).toString(36)}"`,
    })
  }
  return { index: await Bun.file(join(dir, 'index.html')).bytes(), assets }
}
