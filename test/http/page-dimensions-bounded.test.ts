// Page sizes are read a few pages at a time: each page is read whole to find its header, so all
// of them at once held every page in memory (gigabytes for a crafted archive of near-limit pages).
import { expect, it } from 'bun:test'
import { join } from 'node:path'
import { findArchive } from '../../src/db/repos/archives.repo.ts'
import { pageDimensions } from '../../src/domain/archives/pages.ts'
import { makeCbz } from '../helpers/fixtures.ts'
import { startTestServer, withThumbnailer, type Wire } from '../helpers/server.ts'

it('measures at most four pages at once, and answers every page in order', async () => {
  await using app = await startTestServer({
    beforeStart: (content) => makeCbz(join(content, 'Many.cbz'), { pages: 12 }).then(() => {}),
  })
  await app.idle()
  const cookie = await app.login()
  const [listed] = (await app.json<Wire[]>('/api/archives', { cookie })).body
  const row = findArchive(app.deps.db, listed!.arcid)!
  let inFlight = 0
  let most = 0
  const counting = withThumbnailer(app.deps, {
    dimensions: async (input) => {
      most = Math.max(most, ++inFlight)
      try {
        await Bun.sleep(5)
        return await app.deps.thumbnailer.dimensions(input)
      } finally {
        inFlight--
      }
    },
  })
  const sizes = await pageDimensions(counting, row, 500)
  expect(sizes.map((size) => size.page)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1))
  expect(sizes.every((size) => size.width > 0 && size.height > 0)).toBe(true)
  expect(most).toBeGreaterThan(1)
  expect(most).toBeLessThanOrEqual(4)
})
