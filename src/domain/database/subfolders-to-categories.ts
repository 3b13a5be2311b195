// Maintenance script subfolders-to-categories: one static category per subfolder that directly
// holds archives, named after the folder. A static category of that name already there is reused
// (it gains the archives it lacks), so running the script again creates nothing twice. Archives in
// the content folder itself belong to no subfolder and are left out.
import type { Deps } from '../../deps.ts'
import { listCategoryMembers, listCategoryRows } from '../../db/repos/categories.repo.ts'
import { findCategory } from '../../db/repos/categories.repo.ts'
import { nextTimestampId } from '../../model/ids.ts'
import { commit } from '../commit.ts'
import { addMember, insertCategoryRow } from '../collections/category-save.ts'
import { folderOf } from '../archives/files.ts'
import { catalogedArchivesOnDisk } from './folder-archives.ts'

export type SubfolderCategories = {
  created: number
  updated: number
  categories: { id: string; name: string; added: number }[]
  /** Wall-clock ms from the start of the directory walk to the last category written. */
  elapsedMs: number
}

export async function subfoldersToCategories(
  deps: Pick<Deps, 'config' | 'db' | 'events'>,
): Promise<SubfolderCategories> {
  const started = performance.now()
  const byFolder = new Map<string, string[]>()
  for (const archive of await catalogedArchivesOnDisk(deps)) {
    const folder = folderOf(archive.path)
    if (folder === '') continue
    const list = byFolder.get(folder)
    if (list) list.push(archive.id)
    else byFolder.set(folder, [archive.id])
  }
  const result = commit(deps, (w) => {
    const out: Omit<SubfolderCategories, 'elapsedMs'> = { created: 0, updated: 0, categories: [] }
    const staticByName = new Map(
      listCategoryRows(w.db)
        .filter((row) => row.search === '')
        .map((row) => [row.name, row.id]),
    )
    for (const [folder, ids] of byFolder) {
      const name = folder.slice(folder.lastIndexOf('/') + 1)
      let id = staticByName.get(name)
      const isNew = id === undefined
      if (id === undefined) {
        id = nextTimestampId('SET_', (candidate) => findCategory(w.db, candidate) !== undefined)
        insertCategoryRow(w, { id, name, createdAt: Math.floor(Date.now() / 1000) })
        staticByName.set(name, id)
      }
      const members = new Set(listCategoryMembers(w.db, id))
      let added = 0
      for (const archiveId of ids)
        if (!members.has(archiveId) && addMember(w, id, archiveId)) added++
      if (isNew) out.created++
      else if (added > 0) out.updated++
      out.categories.push({ id, name, added })
    }
    return out
  })
  return { ...result, elapsedMs: Math.round(performance.now() - started) }
}
