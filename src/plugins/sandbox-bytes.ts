// Bytes the server hands a sandbox process: small ones inline as base64, larger ones as a file in
// a private folder that the sandbox reads once and removes. A 32 MB body as base64 in a JSON IPC
// message is ~43 MB of string to encode and serialize on the server's event loop (tens of ms a
// body, every request waiting behind it); a file is written by the thread pool.
import { mkdtempSync, rmSync } from 'node:fs'
import { open, writeFile, type FileHandle } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { WireBytes } from '../../sandbox/protocol.ts'

/** Below this, base64 in the message costs less than a file. */
const INLINE_MAX_BYTES = 256 * 1024

/**
 * A body taken as it arrives: chunks kept in memory up to INLINE_MAX_BYTES, then written on to a
 * file, so a 32 MB body is never one buffer on the server (nor its garbage, whose collection
 * paused every request: search p95 ~30 ms under 31 MB plugin fetches, bench/plugins-attack.ts).
 */
export type BodySpool = {
  write(chunk: Uint8Array): Promise<void>
  /** The body as the sandbox takes it; `whole` when nothing was written (a fetch that did not
   * stream). */
  finish(whole: Uint8Array): Promise<WireBytes>
  /** Drops what was spooled (the fetch failed). */
  abort(): Promise<void>
}

export type SandboxBytes = {
  wire(bytes: Uint8Array): Promise<WireBytes>
  spool(): BodySpool
  /** Removes the folder and whatever the sandbox did not read (a run that ended first). */
  close(): void
}

const toBase64 = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')

export function createSandboxBytes(): SandboxBytes {
  let folder: string | undefined
  let next = 1
  /** A new file's path in the private folder, made on first use (mkdtemp's 0700: this user only). */
  const newFile = () => {
    folder ??= mkdtempSync(join(tmpdir(), 'tankobun-sandbox-'))
    return join(folder, `body-${next++}`)
  }
  return {
    async wire(bytes) {
      if (bytes.byteLength < INLINE_MAX_BYTES) return { body64: toBase64(bytes) }
      const file = newFile()
      await writeFile(file, bytes)
      return { bodyFile: file }
    },
    spool() {
      let held: Uint8Array[] = []
      let size = 0
      let file: { path: string; handle: FileHandle } | undefined
      return {
        async write(chunk) {
          size += chunk.byteLength
          if (!file && size < INLINE_MAX_BYTES) {
            held.push(chunk)
            return
          }
          if (!file) {
            const path = newFile()
            file = { path, handle: await open(path, 'w') }
            for (const part of held) await file.handle.write(part)
            held = []
          }
          await file.handle.write(chunk)
        },
        async finish(whole) {
          if (file) {
            await file.handle.close()
            return { bodyFile: file.path }
          }
          return { body64: toBase64(size > 0 ? Buffer.concat(held, size) : whole) }
        },
        async abort() {
          held = []
          if (!file) return
          await file.handle.close().catch(() => undefined)
          rmSync(file.path, { force: true })
        },
      }
    },
    close() {
      if (folder) rmSync(folder, { recursive: true, force: true })
      folder = undefined
    },
  }
}
