// atob and btoa on Latin-1 strings, as in browsers, with the base64 codec written out.

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

function bytesToB64(bytes: Uint8Array): string {
  let out = ''
  let i = 0
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!
    out += B64[n >> 18]! + B64[(n >> 12) & 63]! + B64[(n >> 6) & 63]! + B64[n & 63]!
  }
  if (i < bytes.length) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] || 0) << 8)
    out += B64[n >> 18]! + B64[(n >> 12) & 63]!
    out += i + 1 < bytes.length ? B64[(n >> 6) & 63]! + '=' : '=='
  }
  return out
}

function b64ToBytes(input: unknown): Uint8Array {
  let str = String(input).replace(/[\t\n\f\r ]/g, '')
  if (str.length % 4 === 0) str = str.replace(/==?$/, '')
  if (str.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(str))
    throw new Error('The string to be decoded is not correctly encoded.')
  const out = new Uint8Array(Math.floor((str.length * 3) / 4))
  let bits = 0,
    value = 0,
    j = 0
  for (let i = 0; i < str.length; i++) {
    value = (value << 6) | B64.indexOf(str[i]!)
    bits += 6
    if (bits >= 8) {
      bits -= 8
      out[j++] = (value >> bits) & 255
    }
  }
  return out.subarray(0, j)
}

export function btoa(input: unknown): string {
  const str = String(input)
  const bytes = new Uint8Array(str.length)
  for (let i = 0; i < str.length; i++) {
    const c = str.charCodeAt(i)
    if (c > 255) throw new Error('btoa: the string has characters outside of Latin1')
    bytes[i] = c
  }
  return bytesToB64(bytes)
}

export function atob(input: unknown): string {
  const bytes = b64ToBytes(input)
  let s = ''
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]!)
  return s
}
