// Uploads: the file streams into the temp folder (hashed on the way), is checked (checksum, format,
// readability, duplicate), then is copied into the content folder under a temp name, fsynced,
// catalogued and renamed. A failure at any step leaves no half file in the content folder and no
// orphan row.
import { copyFile, open, readdir, rename, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Deps } from '../../deps.ts'
import { findArchive, type ArchiveRow } from '../../db/repos/archives.repo.ts'
import { commit } from '../commit.ts'
import { fail, AppError } from '../../errors.ts'
import { detectFormatOf } from '../../archive/format.ts'
import { archiveExtension, ID_PREFIX_BYTES, TEMP_MARKER } from './files.ts'
import { isPathTaken } from './placement.ts'
import { walkContentFolder } from './walk.ts'
import { insertCatalogRow, type ImportOverrides } from './import.ts'
import { deleteArchiveRows } from './save.ts'
import { validateFileName } from './rename.ts'
import { createLogger } from '../../log.ts'

const log = createLogger('upload')

/** Cleanup after an upload must not replace the upload's own error (or success) with its own. */
async function discard(path: string): Promise<void> {
  await rm(path, { force: true }).catch((error: Error) =>
    log.warn('could not remove a temporary upload file', { path, error: error.message }),
  )
}

/** An upload written to the temp folder, with what was learnt while writing it. */
export type StagedUpload = {
  /** The checked base name the file will get in the content folder. */
  name: string
  path: string
  /** SHA-1 (hex) of the whole file, for `file_checksum`. */
  sha1: string
  /** The LANraragi id: SHA-1 of the first 512,000 bytes. */
  id: string
}

export type UploadInput = ImportOverrides & { checksum?: string }

const STAGED_PREFIX = 'upload-'

/** One server's uploads in progress. */
export type UploadsInFlight = {
  /** Ids being uploaded right now: a concurrent upload of the same file is a duplicate (409). */
  ids: Set<string>
  /** Paths being written into the content folder right now. */
  paths: Set<string>
  /**
   * Test seam: a disk fault to raise instead of the staged file's next write. A full disk
   * (ENOSPC) or a failing one (EIO) cannot be produced unprivileged in a test.
   */
  stagingWriteFault?: () => Error | undefined
}

export function createUploadsInFlight(): UploadsInFlight {
  return { ids: new Set(), paths: new Set() }
}

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

async function fsyncFile(path: string): Promise<void> {
  const handle = await open(path, 'r+')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/** What the client is told of the disk faults an operator can act on; others stay generic. */
const DISK_FAULTS: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is exceeded',
  EIO: 'the disk reported an I/O error',
}

/** A failed write of the staged file: a 500 naming the fault, never the server path. */
function couldNotStore(cause: unknown): AppError {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code
  const reason = code === undefined ? undefined : DISK_FAULTS[code]
  log.error('could not store an upload', {
    code,
    error: cause instanceof Error ? cause.message : String(cause),
  })
  return new AppError(
    'internal',
    reason ? `The upload could not be stored: ${reason}.` : 'The upload could not be stored.',
    undefined,
    { cause },
  )
}

/**
 * Writes an upload's content to the temp folder as it arrives, hashing it on the way (whole-file
 * SHA-1 and id prefix), so a large upload is never held in memory nor read twice. The name is
 * checked before any byte is consumed. An error of `content` (a stopped request) or of the disk
 * removes the partial file and is rethrown.
 */
export async function stageUpload(
  deps: Pick<Deps, 'config' | 'uploads'>,
  clientName: string,
  content: AsyncIterable<Uint8Array>,
): Promise<StagedUpload> {
  // Only the base name counts, as LANraragi does: browsers may send a client path with it.
  const name = validateFileName(clientName.split(/[/\\]/).pop() ?? '')
  if (!archiveExtension(name)) throw fail.unsupported(`Unsupported file type: ${name}`)
  const path = join(deps.config.tempDir, `${STAGED_PREFIX}${crypto.randomUUID()}`)
  const whole = new Bun.CryptoHasher('sha1')
  const prefix = new Bun.CryptoHasher('sha1')
  let hashed = 0
  const handle = await open(path, 'wx').catch((error: unknown) => {
    throw couldNotStore(error)
  })
  // The first failure: a write's (an AppError) or the content's own (a stopped request).
  let failure: { error: unknown } | undefined
  try {
    for await (const chunk of content) {
      whole.update(chunk)
      if (hashed < ID_PREFIX_BYTES) {
        const head = chunk.subarray(0, ID_PREFIX_BYTES - hashed)
        prefix.update(head)
        hashed += head.byteLength
      }
      await writeAll(handle, chunk, deps.uploads)
    }
  } catch (error) {
    failure = { error }
  }
  // Closing flushes: it can fail on a full or failing disk as a write can.
  await handle.close().catch((error: unknown) => {
    failure ??= { error: couldNotStore(error) }
  })
  if (failure) {
    await discard(path)
    throw failure.error
  }
  return { name, path, sha1: whole.digest('hex'), id: prefix.digest('hex') }
}

async function writeAll(
  handle: Awaited<ReturnType<typeof open>>,
  chunk: Uint8Array,
  uploads: UploadsInFlight,
): Promise<void> {
  try {
    const fault = uploads.stagingWriteFault?.()
    if (fault) throw fault
    for (let offset = 0; offset < chunk.byteLength;) {
      offset += (await handle.write(chunk, offset)).bytesWritten
    }
  } catch (error) {
    throw couldNotStore(error)
  }
}

/** Removes a staged upload that will not be catalogued; a no-op once it is gone. */
export function discardStagedUpload(staged: StagedUpload): Promise<void> {
  return discard(staged.path)
}

/**
 * Boot only (no write can be in flight): removes what a crash left of uploads, the staged copies
 * in the temp folder and the temp-named files in the content folder. Returns how many.
 */
export async function removeInterruptedWrites(config: Deps['config']): Promise<number> {
  const leftovers = [
    ...(await readdir(config.tempDir).catch(() => []))
      .filter((name) => name.startsWith(STAGED_PREFIX))
      .map((name) => join(config.tempDir, name)),
    ...(
      await walkContentFolder(config.contentDir, (name) => name.includes(TEMP_MARKER)).catch(
        () => ({ files: [] }),
      )
    ).files,
  ]
  for (const path of leftovers) await rm(path, { force: true })
  return leftovers.length
}

/** Checks and catalogues a staged upload; the staged file is removed whatever happens. */
export async function uploadArchive(
  deps: Deps,
  staged: StagedUpload,
  input: UploadInput,
): Promise<ArchiveRow> {
  const { name, id } = staged
  let claimed: string | null = null
  let claimedName: string | null = null
  try {
    if (input.checksum !== undefined && !/^[0-9a-fA-F]{40}$/.test(input.checksum))
      throw fail.bad_request('file_checksum must be a SHA-1 in hex.')
    if (input.checksum && staged.sha1 !== input.checksum.toLowerCase())
      throw fail.checksum_mismatch('Checksum mismatch: the uploaded file is not the one announced.')
    // The extension is one we read (checked when staged), so bytes of no archive format are a
    // file that cannot be processed (422), not a type we do not support (415).
    if (!detectFormatOf(await headOf(staged.path)))
      throw fail.unprocessable('The file cannot be read as an archive: not a known archive format.')
    const pages = await deps.reader.listPages(staged.path).catch((error: unknown) => {
      // A system error's message names the staged file's server path.
      const reason = error instanceof AppError ? error.message : 'unreadable file'
      throw fail.unprocessable(`The file cannot be read as an archive: ${reason}`)
    })
    deps.reader.forget(staged.path)
    if (deps.uploads.ids.has(id) || findArchive(deps.db, id))
      throw fail.conflict('This file already exists in the library.', { id })
    deps.uploads.ids.add(id)
    claimed = id

    const finalPath = join(deps.config.contentDir, name)
    const taken = () => fail.conflict(`A file named ${name} already exists in the content folder.`)
    // Early answer before the copy; checked again where the file is placed. Two different files
    // uploaded under one name at once: the second is a 409 as well.
    if (deps.uploads.paths.has(finalPath) || (await isPathTaken(deps, finalPath))) throw taken()
    deps.uploads.paths.add(finalPath)
    claimedName = finalPath
    // Not named after the upload: a name near the length limit must not overflow it here.
    const tempPath = join(deps.config.contentDir, `${TEMP_MARKER}${crypto.randomUUID()}`)
    try {
      try {
        await copyFile(staged.path, tempPath)
        await fsyncFile(tempPath)
      } catch (error) {
        throw new AppError(
          'internal',
          "The file couldn't be written to the content folder.",
          undefined,
          {
            cause: error,
          },
        )
      }
      const st = await stat(tempPath)
      const row = await deps.placement.alone(async () => {
        // A rename may have taken the name since the early check.
        if (await isPathTaken(deps, finalPath)) throw taken()
        // The row is written before the rename so the watcher's rescan finds the file known.
        const row = commit(deps, (w) =>
          insertCatalogRow(deps, w, finalPath, st, { id, pages }, input),
        )
        try {
          await rename(tempPath, finalPath)
        } catch (error) {
          commit(deps, (w) => deleteArchiveRows(w, [id]))
          throw error
        }
        return row
      })
      deps.jobs.enqueue('thumbnails', { ids: [id], page: 0 })
      return row
    } finally {
      await discard(tempPath)
    }
  } finally {
    if (claimed) deps.uploads.ids.delete(claimed)
    if (claimedName) deps.uploads.paths.delete(claimedName)
    await discard(staged.path)
  }
}
