// The temp folder (page cache, staged uploads, downloads and splits): size in MB and cleaning.
import { readdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Deps } from '../deps.ts'
import { STAGED_PREFIX } from './archives/stage.ts'
import { DOWNLOAD_PREFIX } from './downloads/staging.ts'
import { SPLIT_TEMP_PREFIX } from './split/source.ts'

/**
 * Working files of writes in flight or waiting for an answer: an upload being received, a download
 * being written or staged for a filename conflict, a split's pages. Their owners remove them, and
 * the next start removes what a crash left (boot.ts).
 */
const WORKING_PREFIXES = [STAGED_PREFIX, DOWNLOAD_PREFIX, SPLIT_TEMP_PREFIX]
const isWorkingFile = (name: string) => WORKING_PREFIXES.some((prefix) => name.startsWith(prefix))

async function folderBytes(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])
  let total = 0
  for (const e of entries)
    if (e.isFile()) total += (await stat(join(e.parentPath, e.name)).catch(() => null))?.size ?? 0
  return total
}

/**
 * Empties the page cache (all LANraragi's clean_tempfolder clears) and whatever else is in the
 * folder but working files; answers the new size in MB like LANraragi.
 */
export async function cleanTempFolder(
  deps: Pick<Deps, 'config' | 'reader' | 'settings'>,
): Promise<number> {
  await deps.reader.clearCache()
  for (const entry of await readdir(deps.config.tempDir)) {
    if (isWorkingFile(entry)) continue
    await rm(join(deps.config.tempDir, entry), { recursive: true, force: true })
  }
  deps.settings.setInternal('cache_last_cleared', Math.floor(Date.now() / 1000))
  return Math.round(((await folderBytes(deps.config.tempDir)) / 1024 / 1024) * 100) / 100
}
