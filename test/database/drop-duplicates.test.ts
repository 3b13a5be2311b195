// POST /api/database/drop also forgets the duplicate groups: they name archives by id, and the
// rescan after a drop brings the same ids back, so kept groups would show again.
import { describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { replaceDuplicateGroups } from '../../src/db/repos/duplicates.repo.ts'
import { makeCbz } from '../helpers/fixtures.ts'
import { rescan } from '../helpers/rescan.ts'
import { startTestServer, type Wire } from '../helpers/server.ts'

describe('POST /api/database/drop', () => {
  it('clears the duplicate groups', async () => {
    await using app = await startTestServer({
      beforeStart: async (dir) => {
        await makeCbz(join(dir, 'One.cbz'), { pages: 2 })
        await makeCbz(join(dir, 'Two.cbz'), { pages: 3 })
      },
    })
    await app.idle()
    let cookie = await app.login()
    const ids = (await app.json<Wire[]>('/api/archives', { cookie })).body.map((a) => a.arcid)
    expect(ids).toHaveLength(2)
    replaceDuplicateGroups(app.deps.db, [ids], null)
    expect((await app.json<Wire[][]>('/api/database/duplicates', { cookie })).body).toHaveLength(1)

    expect((await app.json('/api/database/drop', { method: 'POST', cookie })).status).toBe(200)
    cookie = await app.login()
    await rescan(app, cookie)
    expect((await app.json<Wire[]>('/api/archives', { cookie })).body).toHaveLength(2)
    expect((await app.json('/api/database/duplicates', { cookie })).body).toEqual([])
  })
})
