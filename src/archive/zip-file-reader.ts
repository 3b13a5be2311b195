// yauzl's random-access reader over one file descriptor, with the central directory preloaded:
// listing a 200-page zip then costs one read instead of one per entry.
import { close, fstat, open, read } from 'node:fs'
import { Readable } from 'node:stream'
import { promisify } from 'node:util'
import yauzl from 'yauzl'

/** A central directory bigger than this (~150k entries) is read piecewise like any other range. */
const MAX_PRELOAD_BYTES = 16 * 1024 * 1024
/** End record (22 bytes) plus the longest possible comment. */
const TAIL_BYTES = 22 + 0xffff
const CHUNK_BYTES = 1024 * 1024
const END_OF_DIRECTORY = 0x06054b50

type Bytes = { buffer: Buffer; start: number }

const readAt = promisify(read)

/** Start of the central directory when the end record names one we can preload, else null. */
function directoryStart(tail: Bytes, size: number): number | null {
  for (let i = tail.buffer.length - 22; i >= 0; i--) {
    if (tail.buffer.readUInt32LE(i) !== END_OF_DIRECTORY) continue
    const offset = tail.buffer.readUInt32LE(i + 16)
    // 0xffffffff means zip64: leave those to yauzl's own reads.
    if (offset === 0xffffffff || offset > size || size - offset > MAX_PRELOAD_BYTES) return null
    return offset
  }
  return null
}

class PreloadedFileReader extends yauzl.RandomAccessReader {
  constructor(
    private readonly fd: number,
    private readonly preloaded: Bytes,
  ) {
    super()
  }

  private covers(start: number, end: number): boolean {
    const { buffer, start: from } = this.preloaded
    return start >= from && end <= from + buffer.length
  }

  override read(
    buffer: Buffer,
    offset: number,
    length: number,
    position: number,
    callback: (err: Error | null, bytesRead?: number) => void,
  ): void {
    if (this.covers(position, position + length)) {
      const from = position - this.preloaded.start
      this.preloaded.buffer.copy(buffer, offset, from, from + length)
      // Asynchronous like a real read: yauzl's entry loop would otherwise recurse per entry.
      queueMicrotask(() => callback(null, length))
      return
    }
    read(this.fd, buffer, offset, length, position, (err, bytesRead) => callback(err, bytesRead))
  }

  override _readStreamForRange(start: number, end: number): Readable {
    if (this.covers(start, end)) {
      const from = start - this.preloaded.start
      return Readable.from([this.preloaded.buffer.subarray(from, from + end - start)])
    }
    const fd = this.fd
    let position = start
    return new Readable({
      read() {
        const length = Math.min(CHUNK_BYTES, end - position)
        if (length <= 0) return void this.push(null)
        const chunk = Buffer.allocUnsafe(length)
        read(fd, chunk, 0, length, position, (err, bytesRead) => {
          if (err) return void this.destroy(err)
          if (bytesRead === 0) return void this.destroy(new Error('unexpected end of file'))
          position += bytesRead
          this.push(bytesRead < length ? chunk.subarray(0, bytesRead) : chunk)
        })
      },
    })
  }

  override close(callback: (err: Error | null) => void): void {
    close(this.fd, callback)
  }
}

export type OpenedZip = {
  zip: yauzl.ZipFile
  /** One positioned read, for stored entries (most CBZs): no stream machinery per page. */
  readRange(position: number, length: number): Promise<Uint8Array<ArrayBuffer>>
}

/** Opens a zip for yauzl with its tail and central directory already in memory. */
export async function openPreloadedZip(
  absPath: string,
  options: yauzl.Options,
): Promise<OpenedZip> {
  const fd = await promisify(open)(absPath, 'r')
  try {
    const { size } = await promisify(fstat)(fd)
    const tailStart = Math.max(0, size - TAIL_BYTES)
    const tail = { buffer: Buffer.alloc(size - tailStart), start: tailStart }
    await readAt(fd, tail.buffer, 0, tail.buffer.length, tailStart)
    const dirStart = directoryStart(tail, size)
    let preloaded = tail
    if (dirStart !== null && dirStart < tailStart) {
      preloaded = { buffer: Buffer.alloc(size - dirStart), start: dirStart }
      await readAt(fd, preloaded.buffer, 0, preloaded.buffer.length, dirStart)
    }
    const reader = new PreloadedFileReader(fd, preloaded)
    const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
      yauzl.fromRandomAccessReader(reader, size, options, (err, opened) =>
        err ? reject(err) : resolve(opened),
      ),
    )
    const readRange = async (position: number, length: number) => {
      // Not Buffer.allocUnsafe: small ones share a pool, and a page must own its memory.
      const bytes = new Uint8Array(length)
      const { bytesRead } = await readAt(fd, bytes, 0, length, position)
      if (bytesRead < length) throw new Error('unexpected end of file')
      return bytes
    }
    return { zip, readRange }
  } catch (err) {
    close(fd, () => undefined)
    throw err
  }
}
