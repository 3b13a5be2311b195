// Staging, the first step of an upload: the file streams into the temp folder as it arrives and is
// hashed on the way (whole-file SHA-1 and the LANraragi id), so a large upload is never held in
// memory nor read twice.
import { open, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Deps } from '../../deps.ts'
import { fail } from '../../errors.ts'
import { couldNotStore as couldNotStoreAs } from '../disk-faults.ts'
import { createLogger } from '../../log.ts'
import { archiveExtension, ID_PREFIX_BYTES } from './files.ts'
import { validateFileName } from './rename.ts'

const log = createLogger('upload')

/** Names of staged files in the temp folder (boot removes what a crash left of them). */
export const STAGED_PREFIX = 'upload-'

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

/** Cleanup after an upload must not replace the upload's own error (or success) with its own. */
export async function removeQuietly(path: string): Promise<void> {
  await rm(path, { force: true }).catch((error: Error) =>
    log.warn('could not remove a temporary upload file', { path, error: error.message }),
  )
}

/** Removes a staged upload that will not be catalogued; a no-op once it is gone. */
export function discardStagedUpload(staged: StagedUpload): Promise<void> {
  return removeQuietly(staged.path)
}

/** A failed write of the staged file: a 500 naming the fault, never the server path. */
const couldNotStore = (cause: unknown) => couldNotStoreAs('upload', cause, log)

/**
 * Writes an upload's content to the temp folder as it arrives, hashing it on the way. The name is
 * checked before any byte is consumed. An error of `content` (a stopped request) or of the disk
 * removes the partial file and is rethrown.
 */
export async function stageUpload(
  deps: Pick<Deps, 'config' | 'archives'>,
  clientName: string,
  content: AsyncIterable<Uint8Array>,
): Promise<StagedUpload> {
  // Only the base name counts, as LANraragi does: browsers may send a client path with it.
  const name = validateFileName(clientName.split(/[/\\]/).pop() ?? '')
  // LANraragi's words (its API documentation's 415 example).
  if (!archiveExtension(name)) throw fail.unsupported(`Unsupported File Extension (${name})`)
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
      await writeAll(handle, chunk, deps.archives.uploads)
    }
  } catch (error) {
    failure = { error }
  }
  // Closing flushes: it can fail on a full or failing disk as a write can.
  await handle.close().catch((error: unknown) => {
    failure ??= { error: couldNotStore(error) }
  })
  if (failure) {
    await removeQuietly(path)
    throw failure.error
  }
  return { name, path, sha1: whole.digest('hex'), id: prefix.digest('hex') }
}

async function writeAll(
  handle: Awaited<ReturnType<typeof open>>,
  chunk: Uint8Array,
  uploads: Deps['archives']['uploads'],
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
