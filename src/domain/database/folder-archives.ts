// The content folder as the maintenance scripts see it: each catalogued archive file under the
// folder that holds it. Files the catalogue does not know (not yet scanned, unreadable) are left
// out: a collection can only hold catalogued archives.
import { linkedArchiveIdsByPath } from '../../db/repos/database.repo.ts'
import type { Deps } from '../../deps.ts'
import { naturalCompare } from '../../model/natural-sort.ts'
import { toContentPath } from '../archives/files.ts'
import { walkArchiveFiles } from '../archives/walk.ts'

/** A catalogued archive: its id and content-relative path ('/'-separated). */
export type FolderArchive = { id: string; path: string }

/** Catalogued archives found by walking the content folder, in natural path order. */
export async function catalogedArchivesOnDisk(
  deps: Pick<Deps, 'db' | 'config'>,
): Promise<FolderArchive[]> {
  const walk = await walkArchiveFiles(deps.config.contentDir)
  const byPath = linkedArchiveIdsByPath(deps.db)
  const out: FolderArchive[] = []
  for (const file of walk.files) {
    const path = toContentPath(deps.config.contentDir, file)
    const id = byPath.get(path)
    if (id) out.push({ id, path })
  }
  return out.sort((a, b) => naturalCompare(a.path, b.path))
}
