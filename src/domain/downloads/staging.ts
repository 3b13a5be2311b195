// Downloaded files before they are catalogued: written under `download-<uuid>` in the temp folder
// (a prefix boot's upload cleanup leaves alone, since a filename conflict keeps its staged file
// across restarts), named, hashed into the StagedUpload the ingest pipeline takes, and removed.
import { open, readdir, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { Deps } from '../../deps.ts'
import { detectFormat } from '../../archive/format.ts'
import { createLogger } from '../../log.ts'
import { archiveExtension, ID_PREFIX_BYTES } from '../archives/files.ts'
import { validateFileName } from '../archives/rename.ts'
import type { StagedUpload } from '../archives/stage.ts'

const log = createLogger('downloads')

export const DOWNLOAD_PREFIX = 'download-'

/** A fresh path for a download's bytes in the temp folder. */
export function newStagedPath(deps: Pick<Deps, 'config'>): string {
  return join(deps.config.tempDir, `${DOWNLOAD_PREFIX}${crypto.randomUUID()}`)
}

/** Only our own files in the temp folder are ever removed, whatever a row says. */
function isOurs(deps: Pick<Deps, 'config'>, path: string): boolean {
  return dirname(path) === deps.config.tempDir && basename(path).startsWith(DOWNLOAD_PREFIX)
}

export async function removeStagedDownload(
  deps: Pick<Deps, 'config'>,
  path: string,
): Promise<void> {
  if (!isOurs(deps, path)) return
  await rm(path, { force: true }).catch((error: Error) =>
    log.warn('could not remove a staged download', { path, error: error.message }),
  )
}

/** Boot: staged downloads no item points at any more (a crash between writes) are removed. */
export async function removeOrphanStagedDownloads(
  deps: Pick<Deps, 'config'>,
  kept: ReadonlySet<string>,
): Promise<number> {
  const names = await readdir(deps.config.tempDir).catch(() => [] as string[])
  let removed = 0
  for (const name of names) {
    const path = join(deps.config.tempDir, name)
    if (!name.startsWith(DOWNLOAD_PREFIX) || kept.has(path)) continue
    await removeStagedDownload(deps, path)
    removed++
  }
  return removed
}

/** SHA-1 of a whole file and of its first 512,000 bytes (the archive id). */
export type FileHashes = { sha1: string; id: string }

/** Hashes a file's bytes in order as they are written or read. */
export function createFileHasher(): {
  update(chunk: Uint8Array): void
  digest(): FileHashes
} {
  const whole = new Bun.CryptoHasher('sha1')
  const prefix = new Bun.CryptoHasher('sha1')
  let hashed = 0
  return {
    update(chunk) {
      whole.update(chunk)
      if (hashed < ID_PREFIX_BYTES) {
        const head = chunk.subarray(0, ID_PREFIX_BYTES - hashed)
        prefix.update(head)
        hashed += head.byteLength
      }
    },
    digest: () => ({ sha1: whole.digest('hex'), id: prefix.digest('hex') }),
  }
}

/** The hashes of a file on disk, in one read. */
export async function hashStagedFile(path: string): Promise<FileHashes> {
  const hasher = createFileHasher()
  const handle = await open(path, 'r')
  try {
    const buffer = new Uint8Array(1024 * 1024)
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.byteLength, null)
      if (bytesRead === 0) break
      hasher.update(buffer.subarray(0, bytesRead))
    }
  } finally {
    await handle.close()
  }
  return hasher.digest()
}

const EXTENSION_OF_FORMAT: Record<string, string> = {
  zip: 'zip',
  rar: 'rar',
  '7z': '7z',
  tar: 'tar',
  'tar.gz': 'tar.gz',
  'tar.bz2': 'tar.bz2',
  'tar.xz': 'tar.xz',
}

/**
 * The file name a download is catalogued under: the plugin's hint (or the server's, or the URL's
 * last segment), made a safe bare name, with the extension of its real format when it has none
 * we read. Throws a bad_request for a name that cannot be made safe.
 */
export async function stagedNameOf(path: string, wanted: string): Promise<string> {
  const cleaned = wanted.replace(/[\\/\u0000-\u001f]/g, '_').trim() || 'download'
  if (archiveExtension(cleaned)) return validateFileName(cleaned)
  const format = await detectFormat(path).catch(() => null)
  return validateFileName(`${cleaned}.${(format && EXTENSION_OF_FORMAT[format]) ?? 'zip'}`)
}

/** A staged download as the ingest pipeline takes it; `hashes` when known from the transfer. */
export async function stagedUploadOf(
  path: string,
  name: string,
  hashes?: FileHashes,
): Promise<StagedUpload> {
  return { name, path, ...(hashes ?? (await hashStagedFile(path))) }
}
