// What the rest of the server needs from archive files (implemented in src/archive/).
import type { PageBody } from './source.ts'

export type { PageBody }
export type ArchiveFormat = 'zip' | 'tar' | 'rar' | '7z' | 'tar.gz' | 'tar.bz2' | 'tar.xz'

export type ArchiveReader = {
  /**
   * Image entries (the page extensions of model/formats.ts) in page order: natural, covers
   * first and credits last (archive/entries.ts, orderPages). Throws
   * AppError 'unprocessable' when the file is not a readable archive (corrupt, encrypted,
   * a bomb past the limits, unsafe entry names only), with the reason as message.
   */
  listPages(absPath: string): Promise<string[]>
  /**
   * Every regular file entry in natural order (pages, nested archives, ComicInfo.xml), for the
   * split tree. Archives read by extraction (RAR, 7z, compressed tar, a zip with codecs yauzl
   * lacks) keep only their pages: they list those, with `complete` false.
   */
  listFiles(absPath: string): Promise<{ files: string[]; complete: boolean }>
  /**
   * Bytes of one page (an own ArrayBuffer, so it can go straight into a Response body);
   * AppError 'bad_request' when entryName is not a page of the archive.
   */
  readPage(absPath: string, entryName: string): Promise<Uint8Array<ArrayBuffer>>
  /**
   * The same page as a body to send without holding it whole: a file slice (stored zip entry, tar
   * entry, extracted page) or a stream (inflated zip entry) that must be read to its end or
   * cancelled, since it keeps the archive open. Same errors as readPage.
   */
  openPage(absPath: string, entryName: string): Promise<PageBody>
  /**
   * Bytes of any file entry by exact name (`ComicInfo.xml`), for plugins; null when the archive
   * has no such file. RAR / 7z / compressed tar keep only their pages once extracted, so they
   * answer null for other entries. AppError 'bad_request' for an unsafe name, 'unprocessable'
   * when the entry is larger than maxBytes.
   */
  readEntry(
    absPath: string,
    name: string,
    maxBytes: number,
  ): Promise<Uint8Array<ArrayBuffer> | null>
  /** Drops cached directories / extracted pages of a file that changed or went away. */
  dropCached(absPath: string): void
  /** Empties the on-disk page cache (DELETE /api/tempfolder); the reader stays usable. */
  clearCache(): Promise<void>
  close(): Promise<void>
}
