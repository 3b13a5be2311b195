// Writes a split output as a CBZ straight to disk, one page at a time: entries are stored (pages
// are already compressed images), so no output is ever held in memory whole. No zip64: an output
// stays under 4 GiB and 65,535 pages, checked before each write.
import { open } from 'node:fs/promises'
import { crc32 } from 'node:zlib'
import { fail } from '../../errors.ts'

const MAX_ZIP32 = 0xffff_ffff
const MAX_ZIP32_ENTRIES = 0xffff
/** General purpose bit 11: the entry name is UTF-8. */
const UTF8_NAMES = 0x0800
/** 1980-01-01 00:00 in MS-DOS date/time. */
const DOS_DATE = (0 << 9) | (1 << 5) | 1

export type CbzFile = {
  add(name: string, data: Uint8Array): Promise<void>
  /** Writes the central directory, fsyncs and closes. */
  finish(): Promise<void>
  /** Closes without finishing (the caller removes the file). */
  abandon(): Promise<void>
}

export async function createCbzFile(path: string): Promise<CbzFile> {
  const handle = await open(path, 'wx')
  const centrals: Uint8Array[] = []
  let offset = 0
  let closed = false

  const write = async (bytes: Uint8Array) => {
    for (let at = 0; at < bytes.byteLength;)
      at += (await handle.write(bytes, at, bytes.byteLength - at, offset + at)).bytesWritten
    offset += bytes.byteLength
  }

  return {
    async add(name, data) {
      const encoded = new TextEncoder().encode(name)
      if (centrals.length >= MAX_ZIP32_ENTRIES)
        throw fail.unprocessable('A split output holds at most 65,535 pages.')
      if (offset + 30 + encoded.byteLength + data.byteLength > MAX_ZIP32)
        throw fail.unprocessable('A split output would be larger than 4 GiB.')
      const crc = crc32(data)
      const local = new Uint8Array(30 + encoded.byteLength)
      const lv = new DataView(local.buffer)
      lv.setUint32(0, 0x04034b50, true)
      writeCommon(lv, 4, crc, data.byteLength)
      lv.setUint16(26, encoded.byteLength, true)
      local.set(encoded, 30)

      const central = new Uint8Array(46 + encoded.byteLength)
      const cv = new DataView(central.buffer)
      cv.setUint32(0, 0x02014b50, true)
      cv.setUint16(4, (3 << 8) | 20, true)
      writeCommon(cv, 6, crc, data.byteLength)
      cv.setUint16(28, encoded.byteLength, true)
      cv.setUint32(38, (0o100644 << 16) >>> 0, true)
      cv.setUint32(42, offset, true)
      central.set(encoded, 46)

      await write(local)
      await write(data)
      centrals.push(central)
    },
    async finish() {
      const start = offset
      for (const central of centrals) await write(central)
      if (offset + 22 > MAX_ZIP32)
        throw fail.unprocessable('A split output would be larger than 4 GiB.')
      const end = new Uint8Array(22)
      const ev = new DataView(end.buffer)
      ev.setUint32(0, 0x06054b50, true)
      ev.setUint16(8, centrals.length, true)
      ev.setUint16(10, centrals.length, true)
      ev.setUint32(12, offset - start, true)
      ev.setUint32(16, start, true)
      await write(end)
      await handle.sync()
      closed = true
      await handle.close()
    },
    async abandon() {
      if (closed) return
      closed = true
      await handle.close()
    },
  }
}

/** version needed, flags, method (stored), time, date, crc, sizes: the same in both headers. */
function writeCommon(view: DataView, at: number, crc: number, size: number): void {
  view.setUint16(at, 20, true)
  view.setUint16(at + 2, UTF8_NAMES, true)
  view.setUint16(at + 4, 0, true)
  view.setUint16(at + 6, 0, true)
  view.setUint16(at + 8, DOS_DATE, true)
  view.setUint32(at + 10, crc, true)
  view.setUint32(at + 14, size, true)
  view.setUint32(at + 18, size, true)
}
