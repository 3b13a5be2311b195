// The temp folder (page cache, staged uploads): size in MB and cleaning.
import { readdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Deps } from '../deps.ts'

async function folderBytes(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])
  let total = 0
  for (const e of entries)
    if (e.isFile()) total += (await stat(join(e.parentPath, e.name)).catch(() => null))?.size ?? 0
  return total
}

/** Empties the page cache and stale staged files; answers the new size in MB like LANraragi. */
export async function cleanTempFolder(deps: Deps): Promise<number> {
  await deps.reader.clearCache()
  for (const entry of await readdir(deps.config.tempDir)) {
    await rm(join(deps.config.tempDir, entry), { recursive: true, force: true })
  }
  deps.settings.setInternal('cache_last_cleared', Math.floor(Date.now() / 1000))
  return Math.round(((await folderBytes(deps.config.tempDir)) / 1024 / 1024) * 100) / 100
}
