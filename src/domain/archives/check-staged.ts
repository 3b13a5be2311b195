// Checking, the second step of an upload: a staged file is the one announced (checksum), is an
// archive we can read (format, pages), and does not clash with the library (same file, same name).
// A file that can never be catalogued is an error; a clash is data, so a caller can ask what to do
// with the file it keeps staged (a download) or refuse it (an upload, 409).
import { open } from 'node:fs/promises'
import { join } from 'node:path'
import type { Deps } from '../../deps.ts'
import { findArchive } from '../../db/repos/archives.repo.ts'
import { AppError, fail } from '../../errors.ts'
import { detectFormatOf } from '../../archive/format.ts'
import { toAbsolutePath } from './files.ts'
import { isPathTaken, pathExists } from './placement.ts'
import type { StagedUpload } from './stage.ts'

/** The library already holds this file (`id`), or a file under this name. */
export type Conflict = { kind: 'duplicate'; id: string } | { kind: 'name_taken'; name: string }

/** A staged file that passed every check, with its pages (read once, stored with the row). */
export type CheckedUpload = { kind: 'ready'; pages: string[] }

async function headOf(path: string): Promise<Uint8Array> {
  const handle = await open(path, 'r')
  try {
    const head = new Uint8Array(512)
    const { bytesRead } = await handle.read(head, 0, 512, 0)
    return head.subarray(0, bytesRead)
  } finally {
    await handle.close()
  }
}

/** Where a staged file will be placed: the content folder's root, under its checked name. */
export function finalPathOf(deps: Pick<Deps, 'config'>, staged: StagedUpload): string {
  return join(deps.config.contentDir, staged.name)
}

/**
 * The same file is in the library, or being placed right now (a concurrent upload of it). As in
 * LANraragi, a row whose file is gone (hidden, or still listed with nothing at its path) does not
 * make the file a duplicate: the upload brings that row back (place-staged.ts).
 */
export async function findDuplicate(
  deps: Pick<Deps, 'db' | 'config' | 'archives'>,
  staged: StagedUpload,
): Promise<Conflict | null> {
  if (deps.archives.uploads.ids.has(staged.id)) return { kind: 'duplicate', id: staged.id }
  const row = findArchive(deps.db, staged.id)
  if (row && !row.unlinked && (await pathExists(toAbsolutePath(deps.config.contentDir, row.path))))
    return { kind: 'duplicate', id: staged.id }
  return null
}

/** Another file holds the name, on disk or in the catalogue, or is being placed under it. */
export async function findNameClash(
  deps: Pick<Deps, 'db' | 'config' | 'archives'>,
  staged: StagedUpload,
): Promise<Conflict | null> {
  const finalPath = finalPathOf(deps, staged)
  if (
    deps.archives.uploads.paths.has(finalPath) ||
    (await isPathTaken(deps, finalPath, undefined, staged.id))
  )
    return { kind: 'name_taken', name: staged.name }
  return null
}

/**
 * Checks a staged file, leaving it where it is. `checksum`: the SHA-1 (hex) the client announced.
 * Throws 400 for a malformed checksum, 417 for a mismatch, 422 for bytes we cannot read as an
 * archive; answers a conflict as data.
 */
export async function checkStaged(
  deps: Pick<Deps, 'archives' | 'config' | 'db' | 'reader'>,
  staged: StagedUpload,
  expected: { checksum?: string } = {},
): Promise<CheckedUpload | Conflict> {
  const { checksum } = expected
  if (checksum !== undefined && !/^[0-9a-fA-F]{40}$/.test(checksum))
    throw fail.bad_request('file_checksum must be a SHA-1 in hex.')
  if (checksum && staged.sha1 !== checksum.toLowerCase())
    throw fail.checksum_mismatch(`Checksum mismatch: expected ${checksum}, got ${staged.sha1}.`)
  // The extension is one we read (checked when staged), so bytes of no archive format are a
  // file that cannot be processed (422), not a type we do not support (415).
  if (!detectFormatOf(await headOf(staged.path)))
    throw fail.unprocessable('The file cannot be read as an archive: not a known archive format.')
  const pages = await deps.reader.listPages(staged.path).catch((error: unknown) => {
    // A system error's message names the staged file's server path.
    const reason = error instanceof AppError ? error.message : 'unreadable file'
    throw fail.unprocessable(`The file cannot be read as an archive: ${reason}`)
  })
  deps.reader.dropCached(staged.path)
  return (
    (await findDuplicate(deps, staged)) ??
    (await findNameClash(deps, staged)) ?? { kind: 'ready', pages }
  )
}
