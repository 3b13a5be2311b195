// Hard limits that keep a hostile or broken page image from exhausting memory or CPU.

/** Decoding bombs: sharp refuses images with more pixels than this (limitInputPixels). */
export const MAX_IMAGE_PIXELS = 100_000_000
/**
 * Longest side of an image decoded: a decode costs per row too, so a 1 x 99,000,000 PNG (under
 * the pixel cap) held a worker 30 s, and with both workers so held the thread pool that file
 * reads share stalled every page read. The longest webtoon strips are a few tens of thousands.
 */
export const MAX_IMAGE_SIDE = 100_000
/** One thumbnail or header read; past this its worker is replaced. */
export const MAX_THUMBNAIL_MS = 60_000
