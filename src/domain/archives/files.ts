// Archive file names: which files are archives, their LANraragi filename/extension, the id hash.
import { open } from 'node:fs/promises'
import { basename, join, relative, sep } from 'node:path'
import { ARCHIVE_EXTENSIONS } from '../../model/formats.ts'

/** The sidecar patch zip of an archive lives beside it and is not an archive of its own. */
export const PATCH_SUFFIX = '.patch.zip'

/** Temp names we write (uploads, renames) carry this marker so the scanner skips them. */
export const TEMP_MARKER = '.tankobun-tmp-'

/** Bytes hashed for the LANraragi archive id. */
export const ID_PREFIX_BYTES = 512_000

export function archiveExtension(fileName: string): string | null {
  const lower = fileName.toLowerCase()
  if (
    lower.endsWith(PATCH_SUFFIX) ||
    lower.includes(TEMP_MARKER) ||
    basename(lower).startsWith('.')
  )
    return null
  return ARCHIVE_EXTENSIONS.find((ext) => lower.endsWith('.' + ext)) ?? null
}

export function isArchiveFile(fileName: string): boolean {
  return archiveExtension(fileName) !== null
}

/** LANraragi's filename (without extension) and extension of a path. */
export function splitFileName(path: string): { filename: string; extension: string } {
  const name = basename(path)
  const extension = archiveExtension(name) ?? name.slice(name.lastIndexOf('.') + 1).toLowerCase()
  return { filename: name.slice(0, name.length - extension.length - 1), extension }
}

/** SHA-1 (hex) of the first 512,000 bytes: LANraragi's archive id, so backups carry over. */
export async function computeArchiveId(absPath: string): Promise<string> {
  const handle = await open(absPath, 'r')
  try {
    const buffer = Buffer.alloc(ID_PREFIX_BYTES)
    let filled = 0
    while (filled < ID_PREFIX_BYTES) {
      const { bytesRead } = await handle.read(buffer, filled, ID_PREFIX_BYTES - filled, filled)
      if (bytesRead === 0) break
      filled += bytesRead
    }
    return new Bun.CryptoHasher('sha1').update(buffer.subarray(0, filled)).digest('hex')
  } finally {
    await handle.close()
  }
}

export function toContentPath(contentDir: string, absPath: string): string {
  return relative(contentDir, absPath).split(sep).join('/')
}

/** The folder holding a content path ('' for the content folder itself). */
export const folderOf = (path: string): string => path.slice(0, Math.max(0, path.lastIndexOf('/')))

/** Whether `paths` holds a folder above the content path `path`. */
export function hasFolderAbove(paths: ReadonlySet<string>, path: string): boolean {
  for (let folder = folderOf(path); folder !== ''; folder = folderOf(folder))
    if (paths.has(folder)) return true
  return false
}

export function toAbsolutePath(contentDir: string, contentPath: string): string {
  return join(contentDir, ...contentPath.split('/'))
}

export function patchPathOf(absArchivePath: string): string {
  const { filename } = splitFileName(absArchivePath)
  return join(absArchivePath, '..', filename + PATCH_SUFFIX)
}
