// Renaming an archive file on disk together with its sidecar patch zip; the row follows, its
// extension included. The reader tells formats apart by their bytes, not their names, so a new
// archive extension of another family (a .zip named .cbr, a .tar.gz named .tar) still reads.
import { rename } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { Deps } from '../../deps.ts'
import type { ArchiveRow } from '../../db/repos/archives.repo.ts'
import { fail } from '../../errors.ts'
import { createLogger } from '../../log.ts'
import {
  archiveExtension,
  isArchiveFile,
  patchPathOf,
  splitFileName,
  toAbsolutePath,
  toContentPath,
} from './files.ts'
import { findSameNamedFile, isPathTaken, pathExists } from './placement.ts'
import { commit } from '../commit.ts'
import { patchArchive } from './save.ts'

const log = createLogger('rename')

const MAX_NAME_BYTES = 255

/**
 * Bidirectional controls (embeddings, overrides, isolates, marks) make a name display other than
 * it is: `a\u202Erbc.zip` shows as `apiz.cbr`.
 */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/

/**
 * A bare file name, in NFC (so the NFC and NFD spellings of one name are one name): no folders,
 * no parent references, no control characters, no bidirectional controls.
 */
export function validateFileName(name: string): string {
  const trimmed = name.normalize('NFC').trim()
  if (
    !trimmed ||
    trimmed === '.' ||
    trimmed === '..' ||
    /[/\\\0]/.test(trimmed) ||
    /[\x00-\x1f]/.test(trimmed)
  )
    throw fail.bad_request('Invalid file name.')
  if (BIDI_CONTROLS.test(trimmed))
    throw fail.bad_request('Invalid file name: bidirectional control characters are not allowed.')
  assertNameFits(trimmed)
  return trimmed
}

export function renameArchive(
  deps: Pick<Deps, 'archives' | 'config' | 'db' | 'events' | 'locks' | 'reader'>,
  row: ArchiveRow,
  requested: string,
): Promise<ArchiveRow> {
  return deps.locks.withLock(row.id, async () => {
    let name = validateFileName(requested)
    // Keep the archive's extension when the new name has none of its own.
    if (!archiveExtension(name)) name = `${name}.${row.extension}`
    // A name the scanner skips (hidden, temporary, a sidecar patch) would drop the archive from
    // the catalogue at the next scan.
    if (!isArchiveFile(name))
      throw fail.bad_request(`Invalid file name: the library does not scan files named ${name}.`)
    assertNameFits(name)
    const from = toAbsolutePath(deps.config.contentDir, row.path)
    const to = join(dirname(from), name)
    if (to === from) return row
    return deps.archives.placement.alone(() => moveArchive(deps, row, from, to))
  })
}

/** Names are written in NFC: that form's UTF-8 bytes must fit the file systems' common limit. */
function assertNameFits(name: string): void {
  const bytes = Buffer.byteLength(name)
  if (bytes > MAX_NAME_BYTES)
    throw fail.bad_request(
      `File name too long: at most ${MAX_NAME_BYTES} bytes in UTF-8 (this one is ${bytes}).`,
    )
}

/** Runs alone (placement.alone): the checks still hold when the file is moved. */
async function moveArchive(
  deps: Pick<Deps, 'config' | 'db' | 'events' | 'reader'>,
  row: ArchiveRow,
  from: string,
  to: string,
): Promise<ArchiveRow> {
  if (await isPathTaken(deps, to, from))
    throw fail.conflict(`A file named ${basename(to)} already exists.`)
  const patchFrom = patchPathOf(from)
  const patchTo = patchPathOf(to)
  const hasPatch = await pathExists(patchFrom)
  if (hasPatch) {
    assertNameFits(basename(patchTo))
    if (await findSameNamedFile(patchTo, patchFrom))
      throw fail.conflict(`A patch file named ${basename(patchTo)} already exists.`)
  }
  await rename(from, to)
  const moveBack = async () => {
    await rename(to, from)
    if (hasPatch) await rename(patchTo, patchFrom)
  }
  if (hasPatch) {
    try {
      await rename(patchFrom, patchTo)
    } catch (error) {
      await rename(to, from)
      throw error
    }
  }
  const { filename, extension } = splitFileName(to)
  let updated: ArchiveRow | undefined
  try {
    updated = commit(deps, (w) =>
      patchArchive(w, row.id, {
        path: toContentPath(deps.config.contentDir, to),
        filename,
        extension,
      }),
    )
  } catch (error) {
    // The row still names the old path: put the file back where it says.
    await moveBack().catch((undo: Error) =>
      log.error('rename failed and the file could not be moved back', {
        path: row.path,
        error: undo.message,
      }),
    )
    throw error
  }
  if (!updated) {
    await moveBack()
    throw fail.bad_request(`No archive with ID ${row.id}.`)
  }
  deps.reader.dropCached(from)
  return updated
}
