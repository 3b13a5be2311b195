// A split cut short by a crash leaves its temp folder (nested archives copied out): the next
// start removes it, and nothing else in the temp folder.
import { describe, expect, it } from 'bun:test'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startTestServer } from '../helpers/server.ts'

describe('split temp folders at start', () => {
  it('removes the folders of interrupted splits and keeps other temp files', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tankobun-split-leftovers-'))
    try {
      const tempDir = join(root, 'data', 'temp')
      const leftover = join(tempDir, 'split-1234')
      mkdirSync(leftover, { recursive: true })
      writeFileSync(join(leftover, 'Vol 1.cbz'), 'copied out')
      writeFileSync(join(tempDir, 'unrelated.bin'), 'kept')
      await using app = await startTestServer({ root })
      expect(app.deps.config.tempDir).toBe(tempDir)
      expect(existsSync(leftover)).toBe(false)
      expect(existsSync(join(tempDir, 'unrelated.bin'))).toBe(true)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})
