// The archive reader and thumbnailer tests' setup: a temp folder for the test file and the pool
// working in it, made when the file loads, closed and removed after its tests; and the AppError
// that a refused call ends with.
import { afterAll } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createArchiveReader } from '../../src/archive/reader.ts'
import type { ArchiveReader } from '../../src/archive/types.ts'
import { AppError } from '../../src/errors.ts'
import { createThumbnailer } from '../../src/images/thumbnailer.ts'
import type { Thumbnailer } from '../../src/images/types.ts'

/** A temp folder for this test file; `close` runs after its tests, before the folder goes. */
function tempDirForFile(prefix: string, close: () => Promise<void>): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  afterAll(async () => {
    await close()
    await rm(dir, { recursive: true, force: true })
  })
  return dir
}

/** An archive reader caching pages in `<dir>/tmp`. */
export function archiveReaderForFile(prefix: string): { dir: string; reader: ArchiveReader } {
  let reader: ArchiveReader | undefined
  const dir = tempDirForFile(prefix, async () => reader?.close())
  reader = createArchiveReader({ tempDir: join(dir, 'tmp') })
  return { dir, reader }
}

export function thumbnailerForFile(prefix: string): { dir: string; thumbnailer: Thumbnailer } {
  const thumbnailer = createThumbnailer()
  return { dir: tempDirForFile(prefix, () => thumbnailer.close()), thumbnailer }
}

/** The AppError `promise` rejects with; anything else fails the test. */
export async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  if (!(err instanceof AppError)) throw new Error(`expected an AppError, got ${err}`)
  return err
}
