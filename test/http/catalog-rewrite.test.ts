// A file rewritten in place whose first 512,000 bytes stay the same keeps its LANraragi id: the
// rescan must still drop the thumbnails of its old pages and keep progress within the new ones.
import { describe, expect, it } from 'bun:test'
import { utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { buildZip, makeJpeg } from '../helpers/fixtures.ts'

/** A zip whose first entry is 600 KB of fixed bytes (not a page), so the id never changes. */
async function sameIdZip(pages: number, seed: number): Promise<Uint8Array> {
  const padding = new Uint8Array(600_000).fill(7)
  const images = await Promise.all(
    Array.from({ length: pages }, async (_, i) => ({
      name: `${String(i + 1).padStart(3, '0')}.jpg`,
      data: await makeJpeg(40, 60, seed * 100 + i),
    })),
  )
  return buildZip([{ name: 'padding.bin', data: padding }, ...images])
}

async function rescanAndCovers(app: TestServer, cookie: string): Promise<void> {
  const { job } = (await (
    await app.req('/api/shinobu/rescan', { method: 'POST', cookie })
  ).json()) as Wire
  await app.deps.jobs.waitFor(job)
  // The rescan queues a `thumbnails` job for archives without a cover: wait for it too.
  for (const row of app.deps.jobs.list())
    if (row.name === 'thumbnails') await app.deps.jobs.waitFor(row.id)
}

describe('POST /api/shinobu/rescan (a file rewritten with the same id)', () => {
  it('makes the cover again from the new pages and clamps progress to the new page count', async () => {
    await using app = await startTestServer({
      beforeStart: async (content) => {
        await writeFile(join(content, 'Same.cbz'), await sameIdZip(4, 1))
      },
    })
    await app.idle()
    const cookie = await app.login()
    await rescanAndCovers(app, cookie)
    const [archive] = (await (await app.req('/api/archives', { cookie })).json()) as Wire[]
    const id = archive!.arcid as string
    const cover = async () => {
      const res = await app.req(`/api/archives/${id}/thumbnail?no_fallback=true`, { cookie })
      if (res.status === 202) {
        await app.deps.jobs.waitFor(((await res.json()) as Wire).job)
        return cover()
      }
      expect(res.status).toBe(200)
      return new Uint8Array(await res.arrayBuffer())
    }
    const before = await cover()
    expect(
      (await app.req(`/api/archives/${id}/progress/4`, { method: 'PUT', cookie })).status,
    ).toBe(200)

    const path = join(app.contentDir, 'Same.cbz')
    await writeFile(path, await sameIdZip(2, 2))
    await utimes(path, new Date(), new Date(Date.now() + 5000))
    await rescanAndCovers(app, cookie)

    const meta = (await (await app.req(`/api/archives/${id}/metadata`, { cookie })).json()) as Wire
    expect(meta.arcid).toBe(id)
    expect(meta.pagecount).toBe(2)
    expect(meta.progress).toBe(2)
    const after = await cover()
    expect(Buffer.from(after).equals(Buffer.from(before))).toBe(false)
  })
})
