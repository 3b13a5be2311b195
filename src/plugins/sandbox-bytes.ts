// Bytes the server hands a sandbox process: small ones inline as base64, larger ones as a file in
// a private folder that the sandbox reads once and removes. A 32 MB body as base64 in a JSON IPC
// message is ~43 MB of string to encode and serialize on the server's event loop (tens of ms a
// body, every request waiting behind it); a file is written by the thread pool.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { WireBytes } from '../../sandbox/protocol.ts'

/** Below this, base64 in the message costs less than a file. */
const INLINE_MAX_BYTES = 256 * 1024

export type SandboxBytes = {
  wire(bytes: Uint8Array): Promise<WireBytes>
  /** Removes the folder and whatever the sandbox did not read (a run that ended first). */
  close(): void
}

const toBase64 = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')

export function createSandboxBytes(): SandboxBytes {
  let folder: string | undefined
  let next = 1
  return {
    async wire(bytes) {
      if (bytes.byteLength < INLINE_MAX_BYTES) return { body64: toBase64(bytes) }
      // Made on first use, readable by this user only (mkdtemp's 0700).
      folder ??= mkdtempSync(join(tmpdir(), 'tankobun-sandbox-'))
      const file = join(folder, `body-${next++}`)
      await Bun.write(file, bytes)
      return { bodyFile: file }
    },
    close() {
      if (folder) rmSync(folder, { recursive: true, force: true })
      folder = undefined
    },
  }
}
