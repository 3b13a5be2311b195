// The thumbnail write (worker side): a rescan may drop the thumbnail folder while a job writes.
import { describe, expect, it } from 'bun:test'
import { mkdtemp, readdir, readFile, rename, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { writeThumbnailFile } from '../../src/images/thumbnail.worker.ts'

describe('writeThumbnailFile', () => {
  it('writes a thumbnail whose folder was removed just before the rename', async () => {
    const root = await mkdtemp(join(tmpdir(), 'tankobun-thumb-write-'))
    try {
      const out = join(root, 'thumbs', 'ab', 'abcdef', '3.webp')
      let renames = 0
      await writeThumbnailFile(out, new Uint8Array([1, 2, 3]), {
        async rename(from, to) {
          // The rescan's deleteThumbnails lands between the temp write and the rename.
          if (renames++ === 0) await rm(dirname(to), { recursive: true, force: true })
          await rename(from, to)
        },
      })
      expect(renames).toBe(2)
      expect([...(await readFile(out))]).toEqual([1, 2, 3])
      // Written aside and renamed: no temporary file is left behind.
      expect(await readdir(dirname(out))).toEqual(['3.webp'])
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  })

  it('gives up after one retry when the folder keeps vanishing', async () => {
    const root = await mkdtemp(join(tmpdir(), 'tankobun-thumb-write-'))
    try {
      const out = join(root, 'thumbs', 'ab', 'cover.webp')
      let renames = 0
      const write = writeThumbnailFile(out, new Uint8Array([1]), {
        async rename(from, to) {
          renames++
          await rm(dirname(to), { recursive: true, force: true })
          await rename(from, to)
        },
      })
      await expect(write).rejects.toMatchObject({ code: 'ENOENT' })
      expect(renames).toBe(2)
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  })
})
