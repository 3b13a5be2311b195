// What the reader holds per opened archive, whatever the format: its pages and a way to read one.
import { fail } from '../errors.ts'
import {
  MAX_COMPRESSION_RATIO,
  MAX_ENTRY_BYTES,
  MAX_TOTAL_BYTES,
  MIN_RATIO_CHECK_BYTES,
} from './limits.ts'

/**
 * A page to send without holding it in memory: a slice of a file on disk (stored zip entries,
 * tar entries, extracted pages; Bun sends it from the file) or a stream (inflated zip entries).
 * Small inflated entries come as bytes: read whole, a damaged one still gets an error answer.
 */
export type PageBody = {
  size: number
  body: Blob | ReadableStream<Uint8Array> | Uint8Array<ArrayBuffer>
}

export type ArchiveSource = {
  /** Page entry names in natural order. */
  pages: string[]
  /**
   * Every regular file entry (pages and others) in natural order, names checked safe. Absent when
   * the format keeps only pages (extracted archives).
   */
  files?: string[]
  /** Bytes of one entry of `pages`; the caller has already checked the name. */
  read(entryName: string): Promise<Uint8Array<ArrayBuffer>>
  /** The same entry as a body to stream; a stream must be read to its end or cancelled. */
  open(entryName: string): Promise<PageBody>
  /**
   * Any file entry by its normalized name, null when there is none; the caller has checked the
   * name is safe. Absent when the format keeps only pages (extracted archives).
   */
  readOther?(entryName: string, maxBytes: number): Promise<Uint8Array<ArrayBuffer> | null>
  close(): Promise<void>
}

export const entryTooLarge = (name: string, maxBytes: number) =>
  fail.unprocessable(`entry ${JSON.stringify(name)} is larger than ${maxBytes} bytes`)

/** Size guards on declared sizes, before anything is inflated (zip bombs, absurd headers). */
export function checkDeclaredSizes(
  sizes: Iterable<{ name: string; size: number; compressedSize?: number }>,
): void {
  let total = 0
  for (const { name, size, compressedSize } of sizes) {
    if (size > MAX_ENTRY_BYTES)
      throw fail.unprocessable(`entry ${JSON.stringify(name)} exceeds ${MAX_ENTRY_BYTES} bytes`)
    if (
      compressedSize !== undefined &&
      size >= MIN_RATIO_CHECK_BYTES &&
      size > compressedSize * MAX_COMPRESSION_RATIO
    )
      throw fail.unprocessable(
        `entry ${JSON.stringify(name)} compression ratio exceeds ${MAX_COMPRESSION_RATIO}:1`,
      )
    total += size
    if (total > MAX_TOTAL_BYTES)
      throw fail.unprocessable(`archive content exceeds ${MAX_TOTAL_BYTES} bytes`)
  }
}
