// Tells archive formats apart by their first bytes: extensions lie (a .cbr is often a zip).
import { open } from 'node:fs/promises'
import { fail } from '../errors.ts'
import type { ArchiveFormat } from './types.ts'

const HEAD_BYTES = 512

const startsWith = (head: Uint8Array, magic: number[], at = 0): boolean =>
  magic.every((byte, i) => head[at + i] === byte)

/** A tar header block whose checksum field matches its bytes (old v7 tars have no magic). */
export function isTarHeader(block: Uint8Array): boolean {
  if (block.length < 512) return false
  if (startsWith(block, [0x75, 0x73, 0x74, 0x61, 0x72], 257)) return true // 'ustar'
  const field = new TextDecoder()
    .decode(block.subarray(148, 156))
    .replace(/[\0 ]+$/, '')
    .trim()
  if (!/^[0-7]+$/.test(field)) return false
  let sum = 0
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 0x20 : block[i]!
  return sum === parseInt(field, 8) && block[0] !== 0
}

export function detectFormatOf(head: Uint8Array): ArchiveFormat | null {
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06]))
    return 'zip'
  if (startsWith(head, [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07])) return 'rar'
  if (startsWith(head, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])) return '7z'
  if (startsWith(head, [0x1f, 0x8b])) return 'tar.gz'
  if (startsWith(head, [0x42, 0x5a, 0x68])) return 'tar.bz2'
  if (startsWith(head, [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00])) return 'tar.xz'
  if (isTarHeader(head)) return 'tar'
  return null
}

export async function detectFormat(absPath: string): Promise<ArchiveFormat> {
  const handle = await open(absPath, 'r')
  try {
    const head = new Uint8Array(HEAD_BYTES)
    const { bytesRead } = await handle.read(head, 0, HEAD_BYTES, 0)
    const format = detectFormatOf(head.subarray(0, bytesRead))
    if (!format) throw fail.unprocessable('not a supported archive (unknown file signature)')
    return format
  } finally {
    await handle.close()
  }
}
