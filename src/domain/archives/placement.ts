// Giving a file its final name in the content folder (rename, upload). "Is this name free? -> move
// the file -> write the row" must not interleave between two writers, or one file lands on the
// other's: every placement into one content folder runs alone, and a name counts as taken when a
// file (even a dangling link) or a catalogue row (even a hidden one) has it.
import { lstat } from 'node:fs/promises'
import type { Deps } from '../../deps.ts'
import { findArchiveByPath } from '../../db/repos/archives.repo.ts'
import { toContentPath } from './files.ts'

/** Tail of the placements queued per content folder (servers in one process are separate). */
const tails = new Map<string, Promise<unknown>>()

/** Runs `place` after every placement queued before it in this content folder has ended. */
export function placeAlone<T>(contentDir: string, place: () => Promise<T>): Promise<T> {
  const previous = tails.get(contentDir) ?? Promise.resolve()
  const run = previous.then(place)
  const tail = run.then(
    () => undefined,
    () => undefined,
  )
  tails.set(contentDir, tail)
  void tail.then(() => {
    if (tails.get(contentDir) === tail) tails.delete(contentDir)
  })
  return run
}

/** Whether anything (a file, a folder, a dangling link) is at this path. */
export async function pathExists(absPath: string): Promise<boolean> {
  try {
    await lstat(absPath)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false
    throw error
  }
}

/** Whether a file or a catalogue row already holds this path. Call it inside `placeAlone`. */
export async function isPathTaken(
  deps: Pick<Deps, 'db' | 'config'>,
  absPath: string,
): Promise<boolean> {
  const path = toContentPath(deps.config.contentDir, absPath)
  return Boolean(findArchiveByPath(deps.db, path)) || (await pathExists(absPath))
}
