// UTF-8 by hand, TextEncoder and TextDecoder: the context has no text codecs of its own.

export function utf8Encode(input: unknown): Uint8Array {
  const str = String(input)
  const out: number[] = []
  for (let i = 0; i < str.length; i++) {
    let c = str.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < str.length) {
      const d = str.charCodeAt(i + 1)
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00)
        i++
      } else c = 0xfffd
    } else if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd
    if (c < 0x80) out.push(c)
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63))
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63))
    else
      out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63))
  }
  return new Uint8Array(out)
}

export function utf8Decode(bytes: Uint8Array): string {
  let s = ''
  const n = bytes.length
  let i = 0
  const parts: number[] = []
  // Indexes are checked against n before each read (the `!`s).
  while (i < n) {
    const b = bytes[i]!
    let c = 0xfffd
    let len = 1
    if (b < 0x80) c = b
    else if (b >= 0xc2 && b < 0xe0 && i + 1 < n && (bytes[i + 1]! & 0xc0) === 0x80) {
      c = ((b & 31) << 6) | (bytes[i + 1]! & 63)
      len = 2
    } else if (
      b >= 0xe0 &&
      b < 0xf0 &&
      i + 2 < n &&
      (bytes[i + 1]! & 0xc0) === 0x80 &&
      (bytes[i + 2]! & 0xc0) === 0x80
    ) {
      c = ((b & 15) << 12) | ((bytes[i + 1]! & 63) << 6) | (bytes[i + 2]! & 63)
      if (c < 0x800 || (c >= 0xd800 && c <= 0xdfff)) c = 0xfffd
      len = 3
    } else if (
      b >= 0xf0 &&
      b < 0xf5 &&
      i + 3 < n &&
      (bytes[i + 1]! & 0xc0) === 0x80 &&
      (bytes[i + 2]! & 0xc0) === 0x80 &&
      (bytes[i + 3]! & 0xc0) === 0x80
    ) {
      c =
        ((b & 7) << 18) |
        ((bytes[i + 1]! & 63) << 12) |
        ((bytes[i + 2]! & 63) << 6) |
        (bytes[i + 3]! & 63)
      if (c < 0x10000 || c > 0x10ffff) c = 0xfffd
      len = 4
    }
    i += len
    if (c >= 0x10000) {
      c -= 0x10000
      parts.push(0xd800 + (c >> 10), 0xdc00 + (c & 1023))
    } else parts.push(c)
    if (parts.length > 8192) {
      s += String.fromCharCode.apply(null, parts)
      parts.length = 0
    }
  }
  return s + String.fromCharCode.apply(null, parts)
}

/** Bytes of a Uint8Array, an ArrayBuffer or any view over one; nothing for null. */
export function toBytes(input: unknown): Uint8Array {
  if (input == null) return new Uint8Array(0)
  if (input instanceof Uint8Array) return input
  if (input instanceof ArrayBuffer) return new Uint8Array(input)
  if (ArrayBuffer.isView(input))
    return new Uint8Array(input.buffer, input.byteOffset, input.byteLength)
  throw new TypeError('expected bytes (Uint8Array or ArrayBuffer)')
}

export class TextEncoder {
  get encoding(): string {
    return 'utf-8'
  }
  encode(str: unknown = ''): Uint8Array {
    return utf8Encode(str)
  }
}

export class TextDecoder {
  constructor(label: unknown = 'utf-8') {
    const l = String(label).toLowerCase()
    if (l !== 'utf-8' && l !== 'utf8') throw new RangeError('only utf-8 is supported')
  }
  get encoding(): string {
    return 'utf-8'
  }
  decode(input?: unknown): string {
    let b = toBytes(input)
    if (b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) b = b.subarray(3)
    return utf8Decode(b)
  }
}
