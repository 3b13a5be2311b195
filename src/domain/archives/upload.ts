// Uploads: the file lands in the temp folder, is checked (checksum, format, readability, duplicate),
// then is copied into the content folder under a temp name, fsynced, catalogued and renamed.
// A failure at any step leaves no half file in the content folder and no orphan row.
import { createReadStream } from 'node:fs'
import { copyFile, open, readdir, rename, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Deps } from '../../deps.ts'
import { deleteArchiveRow, findArchive, type ArchiveRow } from '../../db/repos/archives.repo.ts'
import { tx } from '../../db/client.ts'
import { fail, AppError } from '../../errors.ts'
import { detectFormatOf } from '../../archive/format.ts'
import { archiveExtension, computeArchiveId, TEMP_MARKER } from './files.ts'
import { isPathTaken, placeAlone } from './placement.ts'
import { walkContentFolder } from './walk.ts'
import { insertCatalogRow, type ImportOverrides } from './import.ts'
import { validateFileName } from './rename.ts'
import { createLogger } from '../../log.ts'

const log = createLogger('upload')

/** Cleanup after an upload must not replace the upload's own error (or success) with its own. */
async function discard(path: string): Promise<void> {
  await rm(path, { force: true }).catch((error: Error) =>
    log.warn('could not remove a temporary upload file', { path, error: error.message }),
  )
}

export type UploadInput = ImportOverrides & { file: File; checksum?: string }

const STAGED_PREFIX = 'upload-'

/** Ids being uploaded right now: a concurrent upload of the same file is a duplicate (409). */
const inFlight = new Set<string>()
/** Paths being written into a content folder right now. */
const namesInFlight = new Set<string>()

async function sha1OfFile(path: string): Promise<string> {
  const hasher = new Bun.CryptoHasher('sha1')
  for await (const chunk of createReadStream(path)) hasher.update(chunk as Buffer)
  return hasher.digest('hex')
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

export async function uploadArchive(deps: Deps, input: UploadInput): Promise<ArchiveRow> {
  // Only the base name counts, as LANraragi does: browsers may send a client path with it.
  const name = validateFileName((input.file.name || '').split(/[/\\]/).pop() ?? '')
  if (!archiveExtension(name)) throw fail.unsupported(`Unsupported file type: ${name}`)
  if (input.checksum !== undefined && !/^[0-9a-fA-F]{40}$/.test(input.checksum))
    throw fail.bad_request('file_checksum must be a SHA-1 in hex.')

  const staged = join(deps.config.tempDir, `${STAGED_PREFIX}${crypto.randomUUID()}`)
  let claimed: string | null = null
  let claimedName: string | null = null
  try {
    try {
      await Bun.write(staged, input.file)
    } catch (error) {
      throw new AppError('internal', 'Could not store the upload (disk full?).', undefined, {
        cause: error,
      })
    }
    if (input.checksum && (await sha1OfFile(staged)) !== input.checksum.toLowerCase())
      throw fail.checksum_mismatch('Checksum mismatch: the uploaded file is not the one announced.')
    if (!detectFormatOf(await headOf(staged)))
      throw fail.unsupported(`Unsupported file type: ${name}`)
    const pages = await deps.reader.listPages(staged).catch((error: unknown) => {
      // A system error's message names the staged file's server path.
      const reason = error instanceof AppError ? error.message : 'unreadable file'
      throw fail.unprocessable(`The file cannot be read as an archive: ${reason}`)
    })
    deps.reader.forget(staged)
    const id = await computeArchiveId(staged)
    // Keyed by content folder too: servers in one process (tests) have separate libraries.
    const key = `${deps.config.contentDir}|${id}`
    if (inFlight.has(key) || findArchive(deps.db, id))
      throw fail.conflict('This file already exists in the library.', { id })
    inFlight.add(key)
    claimed = key

    const finalPath = join(deps.config.contentDir, name)
    const taken = () => fail.conflict(`A file named ${name} already exists in the content folder.`)
    // Early answer before the copy; checked again where the file is placed. Two different files
    // uploaded under one name at once: the second is a 409 as well.
    if (namesInFlight.has(finalPath) || (await isPathTaken(deps, finalPath))) throw taken()
    namesInFlight.add(finalPath)
    claimedName = finalPath
    // Not named after the upload: a name near the length limit must not overflow it here.
    const tempPath = join(deps.config.contentDir, `${TEMP_MARKER}${crypto.randomUUID()}`)
    try {
      try {
        await copyFile(staged, tempPath)
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
      const row = await placeAlone(deps.config.contentDir, async () => {
        // A rename may have taken the name since the early check.
        if (await isPathTaken(deps, finalPath)) throw taken()
        // The row is written before the rename so the watcher's rescan finds the file known.
        const row = tx(deps.db, () => insertCatalogRow(deps, finalPath, st, { id, pages }, input))
        try {
          await rename(tempPath, finalPath)
        } catch (error) {
          deleteArchiveRow(deps.db, id)
          deps.search.removeArchive(id)
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
    if (claimed) inFlight.delete(claimed)
    if (claimedName) namesInFlight.delete(claimedName)
    await discard(staged)
  }
}
