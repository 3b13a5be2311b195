// A cover being made when its archive is deleted: a delete does not wait for the thumbnail
// workers, so the maker checks the row once its file is written and leaves nothing behind.
import { expect, it } from 'bun:test'
import { join } from 'node:path'
import { findArchive } from '../../src/db/repos/archives.repo.ts'
import { findThumbnailFile, makeThumbnail } from '../../src/domain/archives/thumbnails.ts'
import { deleteArchiveRows } from '../../src/domain/archives/save.ts'
import { commit } from '../../src/domain/commit.ts'
import { makeCbz } from '../helpers/fixtures.ts'
import { startTestServer, withThumbnailer, type Wire } from '../helpers/server.ts'

it('leaves no cover or page thumbnail of an archive deleted while they were made', async () => {
  await using app = await startTestServer({
    beforeStart: async (content) => {
      await makeCbz(join(content, 'Cover.cbz'), { pages: 3 })
      await makeCbz(join(content, 'Page.cbz'), { pages: 4 })
    },
  })
  await app.idle()
  await app.jobsDone()
  const cookie = await app.login()
  const listed = (await app.json<Wire[]>('/api/archives', { cookie })).body
  // A cover (page 0) of one archive, a page thumbnail of the other.
  for (const [filename, page] of [
    ['Cover', 0],
    ['Page', 2],
  ] as const) {
    const row = findArchive(app.deps.db, listed.find((a) => a.filename === filename)!.arcid)!
    // The delete lands while the worker makes the image: the row is gone when its file is written.
    const deps = withThumbnailer(app.deps, {
      thumbnail: (...args) => {
        commit(app.deps, (w) => deleteArchiveRows(w, [row.id]))
        return app.deps.thumbnailer.thumbnail(...args)
      },
    })
    await expect(makeThumbnail(deps, row, page)).rejects.toThrow('No archive with ID')
    expect(findThumbnailFile(app.deps, row.id, page)).toBeNull()
  }
})
