// Maintenance script subfolders-to-tankoubons (docs/maintenance.md): one Tankoubon per first-level
// subfolder, holding every archive beneath it (nested folders included, in natural path order);
// nested folders make none of their own. Duplicate names are allowed and nothing is ever deleted or
// deduplicated: each run creates its Tankoubons anew.
//
// Naming: the raw folder name and no author tag, unless a FolderNamer is given (the language-model
// namer, folder-namer.ts); callers pass one only when a provider key is configured, and a namer
// that fails or answers nothing leaves the fallback in place.
import type { Deps } from '../../deps.ts'
import { findTankoubon } from '../../db/repos/tankoubons.repo.ts'
import { createLogger } from '../../log.ts'
import { nextTimestampId } from '../../model/ids.ts'
import { normalizeTags } from '../../model/tags.ts'
import { commit } from '../commit.ts'
import { insertTankoubonRow, patchTankoubon } from '../collections/tank-save.ts'
import { catalogedArchivesOnDisk } from './folder-archives.ts'

const log = createLogger('scripts')

/** What a namer is told of one folder: its name and the paths of the archives beneath it. */
export type FolderToName = { folder: string; archivePaths: string[] }
/** A better name and an `artist:`/`circle:` tag for a folder, or null to keep the folder name. */
export type FolderNamer = (
  folder: FolderToName,
) => Promise<{ name: string; authorTag?: string } | null>

export type SubfolderTankoubons = {
  created: number
  tankoubons: { id: string; name: string; archives: number; tags: string }[]
  elapsedMs: number
}

const AUTHOR_TAG = /^(artist|circle):\S/i

async function nameOf(folder: FolderToName, namer: FolderNamer | undefined) {
  const fallback = { name: folder.folder, tags: '' }
  if (!namer) return fallback
  try {
    const named = await namer(folder)
    const name = named?.name.trim()
    if (!named || !name) return fallback
    const tag = named.authorTag?.trim()
    return { name, tags: tag && AUTHOR_TAG.test(tag) ? normalizeTags(tag) : '' }
  } catch (error) {
    log.warn('folder naming failed; the folder name is kept', {
      error: error instanceof Error ? error.message : String(error),
    })
    return fallback
  }
}

export async function subfoldersToTankoubons(
  deps: Pick<Deps, 'config' | 'db' | 'events'>,
  namer?: FolderNamer,
): Promise<SubfolderTankoubons> {
  const started = performance.now()
  const byFolder = new Map<string, { ids: string[]; paths: string[] }>()
  for (const archive of await catalogedArchivesOnDisk(deps)) {
    const slash = archive.path.indexOf('/')
    if (slash < 0) continue
    const folder = archive.path.slice(0, slash)
    const entry = byFolder.get(folder) ?? { ids: [], paths: [] }
    entry.ids.push(archive.id)
    entry.paths.push(archive.path)
    byFolder.set(folder, entry)
  }
  const named = new Map<string, { name: string; tags: string }>()
  for (const [folder, { paths }] of byFolder)
    named.set(folder, await nameOf({ folder, archivePaths: paths }, namer))
  const tankoubons = commit(deps, (w) =>
    [...byFolder].map(([folder, { ids }]) => {
      const { name, tags } = named.get(folder)!
      const id = nextTimestampId(
        'TANK_',
        (candidate) => findTankoubon(w.db, candidate) !== undefined,
      )
      insertTankoubonRow(w, { id, name, tags, createdAt: Math.floor(Date.now() / 1000) })
      patchTankoubon(w, id, { name }, ids)
      return { id, name, archives: ids.length, tags }
    }),
  )
  return {
    created: tankoubons.length,
    tankoubons,
    elapsedMs: Math.round(performance.now() - started),
  }
}
