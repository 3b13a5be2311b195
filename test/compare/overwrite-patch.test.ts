import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { copyFile } from 'node:fs/promises'
import { join } from 'node:path'
import { commit } from '../../src/domain/commit.ts'
import { insertDownloadRow } from '../../src/domain/downloads/item-save.ts'
import {
  readOverwriteInsertions,
  writeOverwriteInsertions,
} from '../../src/domain/downloads/compare-patch.ts'
import { findArchive } from '../../src/db/repos/archives.repo.ts'
import { deleteArchive } from '../../src/domain/archives/remove.ts'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { makeComparisonCbz, makeTexturedPage, numbered } from './pages.ts'

let app: TestServer
let cookie: string
let ids: Record<string, string>

// The existing archive has a page (seed 95) the download lacks, between the download's 001 and 002.
const EXISTING = numbered([71, 95, 72, 73])
const DOWNLOAD = numbered([71, 72, 73])

beforeAll(async () => {
  app = await startTestServer({
    beforeStart: async (content) => {
      await makeComparisonCbz(join(content, 'Old.cbz'), EXISTING)
      // Stands for the download once the queue has catalogued it in the old one's place.
      await makeComparisonCbz(join(content, 'New.cbz'), DOWNLOAD)
    },
  })
  await app.idle()
  cookie = await app.login()
  const list = (await app.json<Wire[]>('/api/archives', { cookie })).body
  ids = Object.fromEntries(list.map((a) => [a.title, a.arcid]))
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

async function conflictItem(): Promise<string> {
  const id = crypto.randomUUID()
  const tempPath = join(app.deps.config.tempDir, `download-${crypto.randomUUID()}`)
  await copyFile(join(app.contentDir, 'New.cbz'), tempPath)
  const now = Date.now()
  commit(app.deps, (w) =>
    insertDownloadRow(w, {
      id,
      url: 'https://example.test/g/3',
      pluginNamespace: 'download/direct',
      state: 'waiting',
      tempPath,
      existingId: ids['Old']!,
      pendingFilenameConflict: JSON.stringify({ existing_id: ids['Old'], filename: 'Old.cbz' }),
      createdAt: now,
      updatedAt: now,
    }),
  )
  return id
}

describe('overwrite insertions (readOverwriteInsertions, writeOverwriteInsertions)', () => {
  it('refuses a page the old archive lacks or an anchor the download lacks', async () => {
    const itemId = await conflictItem()
    for (const request of [
      { bIndex: 1, afterFilename: 'nope.jpg' },
      { bFilename: 'nope.jpg', afterFilename: '001.jpg' },
      { aIndex: 1, afterFilename: '001.jpg' },
    ]) {
      const error = await readOverwriteInsertions(app.deps, itemId, [request]).then(
        () => null,
        (e: unknown) => e as { code?: string; message?: string },
      )
      expect(error).toMatchObject({
        code: 'bad_request',
        message: expect.stringContaining('Insertion 1'),
      })
    }
  })

  it('carries the old archive’s unique pages into a patch of the new one', async () => {
    const itemId = await conflictItem()
    const compared = await app.json(`/api/download_queue/${itemId}/compare`, {
      method: 'POST',
      cookie,
    })
    expect(compared.body.unmatched_b).toEqual([
      { index: 1, filename: '002.jpg', after_filename: '001.jpg', before_filename: '002.jpg' },
    ])
    const insertions = await readOverwriteInsertions(app.deps, itemId, [
      { bIndex: 1, afterFilename: '001.jpg' },
    ])
    // The queue deletes the old archive before the new one takes its name: the pages are held.
    await deleteArchive(app.deps, findArchive(app.deps.db, ids['Old']!)!)
    const updated = await writeOverwriteInsertions(
      app.deps,
      findArchive(app.deps.db, ids['New']!)!,
      insertions,
    )
    expect(updated).toMatchObject({ hasPatch: true, pagecount: 4 })
    const files = await app.json(`/api/archives/${ids['New']}/files`, { cookie })
    const pages = (files.body.pages as string[]).map((u) =>
      decodeURIComponent(u.split('?path=')[1]!),
    )
    expect(pages[0]).toBe('001.jpg')
    expect(pages[1]).toMatch(/^\.patch\/.+-002\.jpg$/)
    expect(pages.slice(2)).toEqual(['002.jpg', '003.jpg'])
    const res = await app.req(
      `/api/archives/${ids['New']}/page?path=${encodeURIComponent(pages[1]!)}`,
      {
        cookie,
      },
    )
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(await makeTexturedPage(95))
  })
})
