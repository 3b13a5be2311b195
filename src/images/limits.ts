// Hard limits that keep a hostile or broken page image from exhausting memory or CPU.

/** Decoding bombs: sharp refuses images with more pixels than this (limitInputPixels). */
export const MAX_IMAGE_PIXELS = 100_000_000
/** One thumbnail or header read; past this its worker is replaced. */
export const MAX_THUMBNAIL_MS = 60_000
