// The file formats the library knows, stated once: archive extensions (which files are archives,
// what a download is sent as) and page image extensions (which entries are pages, what a page is
// sent as), each with its MIME type.

/**
 * Archive extensions and their MIME types. Compound extensions come first: extensions are tried
 * in this order, so `x.tar.gz` is not read as `gz`.
 */
const ARCHIVE_MIME_TYPES = {
  'tar.gz': 'application/gzip',
  'tar.bz2': 'application/x-bzip2',
  'tar.xz': 'application/x-xz',
  zip: 'application/zip',
  cbz: 'application/vnd.comicbook+zip',
  rar: 'application/vnd.rar',
  cbr: 'application/vnd.comicbook-rar',
  '7z': 'application/x-7z-compressed',
  cb7: 'application/x-7z-compressed',
  tar: 'application/x-tar',
  cbt: 'application/x-tar',
  tgz: 'application/gzip',
  tbz2: 'application/x-bzip2',
  txz: 'application/x-xz',
} as const satisfies Record<string, string>

/**
 * Page image extensions (lower-case) and their MIME types: LANraragi's list (`is_image`), so an
 * archive has the same pages here. HEIC pages are served as they are; the thumbnailer cannot
 * decode HEVC, so their thumbnails fail like any undecodable page's.
 */
const PAGE_MIME_TYPES = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  jfif: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  bmp: 'image/bmp',
  jxl: 'image/jxl',
  heif: 'image/heif',
  heic: 'image/heic',
} as const satisfies Record<string, string>

/** Sent for an extension not in the tables (a stored row from an older list, say). */
const UNKNOWN_MIME_TYPE = 'application/octet-stream'

/** Archive extensions without the dot, compound ones first (match them in this order). */
export const ARCHIVE_EXTENSIONS: readonly string[] = Object.keys(ARCHIVE_MIME_TYPES)

/** Page image extensions without the dot, lower-case. */
export const PAGE_EXTENSIONS: ReadonlySet<string> = new Set(Object.keys(PAGE_MIME_TYPES))

const mimeTypeIn = (table: Record<string, string>, ext: string): string =>
  Object.hasOwn(table, ext) ? table[ext]! : UNKNOWN_MIME_TYPE

/** MIME type of an archive by its stored extension (`cbz`, `tar.gz`). */
export function archiveMimeType(extension: string): string {
  return mimeTypeIn(ARCHIVE_MIME_TYPES, extension)
}

/** MIME type of a page by its entry name's extension, case-insensitive. */
export function pageMimeType(entryName: string): string {
  const ext = entryName.slice(entryName.lastIndexOf('.') + 1).toLowerCase()
  return mimeTypeIn(PAGE_MIME_TYPES, ext)
}
