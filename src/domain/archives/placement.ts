// Giving a file its final name in the content folder (rename, upload). "Is this name free? -> move
// the file -> write the row" must not interleave between two writers, or one file lands on the
// other's: every placement into one content folder runs alone, and a name counts as taken when a
// file (even a dangling link) or a catalogue row (even a hidden one) has it, under any Unicode
// normalization form of the name.
import { lstat } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { Deps } from '../../deps.ts'
import { findArchiveByPath } from '../../db/repos/archives.repo.ts'
import { toContentPath } from './files.ts'

/** The placement queue of one server's content folder. */
export type Placement = {
  /** Runs `place` after every placement queued before it has ended. */
  alone<T>(place: () => Promise<T>): Promise<T>
}

export function createPlacement(): Placement {
  let tail: Promise<unknown> = Promise.resolve()
  return {
    alone(place) {
      const run = tail.then(place)
      tail = run.then(
        () => undefined,
        () => undefined,
      )
      return run
    },
  }
}

/**
 * Whether anything (a file, a folder, a dangling link) is at this path. A name too long for the
 * file system names nothing: the NFD form of a name that fits in NFC (voiced kana take twice the
 * bytes) is looked up for clashes, never written.
 */
export async function pathExists(absPath: string): Promise<boolean> {
  try {
    await lstat(absPath)
    return true
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENAMETOOLONG') return false
    throw error
  }
}

/**
 * The file at `absPath` or at its name in the other Unicode normalization form (NFC "é" and NFD
 * "e" + U+0301 are two files on most file systems but one name to a reader). Two lookups, not a
 * folder listing: a library folder may hold 100,000 files. `except` (the file being renamed)
 * does not count.
 */
export async function findSameNamedFile(absPath: string, except?: string): Promise<string | null> {
  const folder = dirname(absPath)
  const name = basename(absPath)
  for (const form of new Set([name, name.normalize('NFC'), name.normalize('NFD')])) {
    const candidate = join(folder, form)
    if (candidate !== except && (await pathExists(candidate))) return candidate
  }
  return null
}

/**
 * Whether a file or a catalogue row already holds this path, in any normalization form of its
 * name (see findSameNamedFile). Call it inside `placement.alone`. `exceptId`: that archive's own
 * row does not count (an upload bringing back the row of its file, place-staged.ts).
 */
export async function isPathTaken(
  deps: Pick<Deps, 'db' | 'config'>,
  absPath: string,
  except?: string,
  exceptId?: string,
): Promise<boolean> {
  const folder = dirname(absPath)
  const name = basename(absPath)
  const exceptPath =
    except === undefined ? undefined : toContentPath(deps.config.contentDir, except)
  for (const form of new Set([name, name.normalize('NFC'), name.normalize('NFD')])) {
    const path = toContentPath(deps.config.contentDir, join(folder, form))
    const row = path === exceptPath ? undefined : findArchiveByPath(deps.db, path)
    if (row && row.id !== exceptId) return true
  }
  return (await findSameNamedFile(absPath, except)) !== null
}
