// Renaming an archive file on disk together with its sidecar patch zip; the row follows, its
// extension included. The reader tells formats apart by their bytes, not their names, so a new
// archive extension of another family (a .zip named .cbr, a .tar.gz named .tar) still reads.
import { existsSync } from 'node:fs'
import { rename } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { Deps } from '../../deps.ts'
import { updateArchive, type ArchiveRow } from '../../db/repos/archives.repo.ts'
import { fail } from '../../errors.ts'
import {
  archiveExtension,
  patchPathOf,
  splitFileName,
  toAbsolutePath,
  toContentPath,
} from './files.ts'

const MAX_NAME_BYTES = 255

/** A bare file name: no folders, no parent references, no control characters. */
export function validateFileName(name: string): string {
  const trimmed = name.trim()
  if (
    !trimmed ||
    trimmed === '.' ||
    trimmed === '..' ||
    /[/\\\0]/.test(trimmed) ||
    /[\x00-\x1f]/.test(trimmed)
  )
    throw fail.bad_request('Invalid file name.')
  if (Buffer.byteLength(trimmed) > MAX_NAME_BYTES) throw fail.bad_request('File name too long.')
  return trimmed
}

export function renameArchive(deps: Deps, row: ArchiveRow, requested: string): Promise<ArchiveRow> {
  return deps.locks.withLock(row.id, async () => {
    let name = validateFileName(requested)
    // Keep the archive's extension when the new name has none of its own.
    if (!archiveExtension(name)) name = `${name}.${row.extension}`
    const from = toAbsolutePath(deps.config.contentDir, row.path)
    const to = join(dirname(from), name)
    if (to === from) return row
    if (existsSync(to)) throw fail.conflict(`A file named ${name} already exists.`)
    const patchFrom = patchPathOf(from)
    const patchTo = patchPathOf(to)
    const hasPatch = existsSync(patchFrom)
    if (hasPatch && existsSync(patchTo))
      throw fail.conflict(`A patch file named ${patchTo} already exists.`)
    await rename(from, to)
    if (hasPatch) {
      try {
        await rename(patchFrom, patchTo)
      } catch (error) {
        await rename(to, from)
        throw error
      }
    }
    deps.reader.forget(from)
    const { filename, extension } = splitFileName(to)
    const updated = updateArchive(deps.db, row.id, {
      path: toContentPath(deps.config.contentDir, to),
      filename,
      extension,
    })
    if (!updated) throw fail.bad_request(`No archive with ID ${row.id}.`)
    deps.search.upsertArchive(updated)
    return updated
  })
}
