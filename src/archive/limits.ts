// Hard limits that keep a hostile or broken archive from exhausting memory, disk or CPU.
const MiB = 1024 * 1024
const GiB = 1024 * MiB

/** More entries than any real comic has; a central directory past this is a bomb or junk. */
export const MAX_ENTRIES = 20_000
/** One page never needs more; also caps what a lying header can make us inflate. */
export const MAX_ENTRY_BYTES = 256 * MiB
/** Sum of declared sizes of all entries of one archive. */
export const MAX_TOTAL_BYTES = 8 * GiB
/** Entries this big must not inflate past MAX_COMPRESSION_RATIO (images barely compress). */
export const MIN_RATIO_CHECK_BYTES = 8 * MiB
export const MAX_COMPRESSION_RATIO = 100
/** libarchive.js loads the whole file into WASM memory (~2.3x its size): cap what we hand it. */
export const MAX_LIBARCHIVE_FILE_BYTES = 1 * GiB
/** Default bound of the on-disk cache of pages extracted from RAR / 7z / compressed tar. */
export const DEFAULT_PAGE_CACHE_BYTES = 2 * GiB
/** Open zip/tar handles kept for random access; each holds one file descriptor. */
export const MAX_OPEN_ARCHIVES = 64
/** One extraction may take this long (a 1 GiB solid 7z decodes in about a minute here). */
export const MAX_EXTRACT_MS = 10 * 60_000
