// Writes small zip files in memory (plugin exports): each entry deflated when that saves bytes,
// stored otherwise. No zip64, so the whole file stays under 4 GiB and 65,535 entries.
import { crc32, deflateRawSync } from 'node:zlib'

export type ZipInput = { name: string; data: Uint8Array }

const STORED = 0
const DEFLATED = 8
/** General purpose bit 11: the entry name is UTF-8. */
const UTF8_NAMES = 0x0800
/** 1980-01-01 00:00 in MS-DOS date/time: exports carry no meaningful timestamps. */
const DOS_DATE = (0 << 9) | (1 << 5) | 1
const MAX_ZIP32 = 0xffff_ffff

/** One zip holding `entries` in order, names as given (forward slashes for folders). */
export function writeZip(entries: ZipInput[]): Uint8Array<ArrayBuffer> {
  if (entries.length > 0xffff) throw new RangeError('too many zip entries')
  const locals: Uint8Array[] = []
  const centrals: Uint8Array[] = []
  let offset = 0
  for (const entry of entries) {
    const name = new TextEncoder().encode(entry.name)
    const deflated = deflateRawSync(entry.data)
    const method = deflated.byteLength < entry.data.byteLength ? DEFLATED : STORED
    const body = method === DEFLATED ? deflated : entry.data
    if (offset + body.byteLength + 30 + name.byteLength > MAX_ZIP32)
      throw new RangeError('zip larger than 4 GiB')
    const crc = crc32(entry.data)
    const fields = { method, crc, compressed: body.byteLength, size: entry.data.byteLength }

    const local = new Uint8Array(30 + name.byteLength)
    const lv = new DataView(local.buffer)
    lv.setUint32(0, 0x04034b50, true)
    writeCommon(lv, 4, fields)
    lv.setUint16(26, name.byteLength, true)
    lv.setUint16(28, 0, true)
    local.set(name, 30)

    const central = new Uint8Array(46 + name.byteLength)
    const cv = new DataView(central.buffer)
    cv.setUint32(0, 0x02014b50, true)
    // Made by Unix (3), spec version 2.0; the regular-file mode sits in the external attributes.
    cv.setUint16(4, (3 << 8) | 20, true)
    writeCommon(cv, 6, fields)
    cv.setUint16(28, name.byteLength, true)
    cv.setUint32(38, (0o100644 << 16) >>> 0, true)
    cv.setUint32(42, offset, true)
    central.set(name, 46)

    locals.push(local, body)
    centrals.push(central)
    offset += local.byteLength + body.byteLength
  }
  const centralSize = centrals.reduce((sum, c) => sum + c.byteLength, 0)
  const end = new Uint8Array(22)
  const ev = new DataView(end.buffer)
  ev.setUint32(0, 0x06054b50, true)
  ev.setUint16(8, entries.length, true)
  ev.setUint16(10, entries.length, true)
  ev.setUint32(12, centralSize, true)
  ev.setUint32(16, offset, true)

  const out = new Uint8Array(offset + centralSize + end.byteLength)
  let at = 0
  for (const part of [...locals, ...centrals, end]) {
    out.set(part, at)
    at += part.byteLength
  }
  return out
}

/** version needed, flags, method, time, date, crc, sizes: the same run in both headers. */
function writeCommon(
  view: DataView,
  at: number,
  f: { method: number; crc: number; compressed: number; size: number },
): void {
  view.setUint16(at, 20, true)
  view.setUint16(at + 2, UTF8_NAMES, true)
  view.setUint16(at + 4, f.method, true)
  view.setUint16(at + 6, 0, true)
  view.setUint16(at + 8, DOS_DATE, true)
  view.setUint32(at + 10, f.crc, true)
  view.setUint32(at + 14, f.compressed, true)
  view.setUint32(at + 18, f.size, true)
}
