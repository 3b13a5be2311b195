// Table-of-contents titles are capped: a title past MAX_TOC_TITLE_CHARS is refused with 400 Env and
// the stored toc is left as it was.
import { describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { makeCbz } from '../helpers/fixtures.ts'

function addToc(app: TestServer, cookie: string, id: string, page: number, title: string) {
  const query = new URLSearchParams({ page: String(page), title })
  return app.req(`/api/archives/${id}/toc?${query}`, { method: 'PUT', cookie })
}

async function tocOf(app: TestServer, cookie: string, id: string): Promise<Wire[]> {
  const meta = (await (await app.req(`/api/archives/${id}/metadata`, { cookie })).json()) as Wire
  return meta.toc
}

describe('PUT /api/archives/:id/toc (title length)', () => {
  it('stores a title of 256 characters and refuses a longer one with 400 Env', async () => {
    await using app = await startTestServer({
      beforeStart: async (content) => void (await makeCbz(join(content, 'Book.cbz'), { pages: 3 })),
    })
    await app.idle()
    const cookie = await app.login()
    const [book] = (await (await app.req('/api/archives', { cookie })).json()) as Wire[]
    const id = book!.arcid as string

    const longest = 'c'.repeat(256)
    // Characters, not UTF-16 units or bytes: 256 emoji (512 units, 1,024 bytes) fit as well.
    const emoji = '\u{1F4D6}'.repeat(256)
    expect((await addToc(app, cookie, id, 1, longest)).status).toBe(200)
    expect((await addToc(app, cookie, id, 2, emoji)).status).toBe(200)

    for (const title of ['c'.repeat(257), '\u{1F4D6}'.repeat(257), 'x'.repeat(4000)]) {
      const res = await addToc(app, cookie, id, 3, title)
      expect(res.status).toBe(400)
      expect(await res.json()).toEqual({
        operation: 'add_toc',
        success: 0,
        error: 'Chapter title longer than 256 characters.',
      })
    }
    // Replacing an entry with a too long title keeps the old one.
    expect((await addToc(app, cookie, id, 1, 'd'.repeat(300))).status).toBe(400)
    expect(await tocOf(app, cookie, id)).toEqual([
      { name: longest, page: 1 },
      { name: emoji, page: 2 },
    ])
  })
})
