import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { buildZip, makeCbz, makePages, makeRar4, makeTar } from '../helpers/fixtures.ts'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'

let app: TestServer
let cookie: string
const ids: Record<string, string> = {}

const FOLDERED = [
  'Vol 10/001.jpg',
  'Vol 2/002.jpg',
  'Vol 2/001.jpg',
  'Vol 1/002.jpg',
  'Vol 1/001.jpg',
  'cover.jpg',
]

/** A CBZ holding one CBZ per volume (`Vol 1.cbz`...), each with `pages` pages. */
async function writeNested(path: string, volumes: string[], pages = 2): Promise<void> {
  const inner = await Promise.all(
    volumes.map(async (name) => ({
      name,
      data: buildZip(await makePages(`${path}/${name}`, { pages })),
    })),
  )
  await Bun.write(path, buildZip(inner))
}

beforeAll(async () => {
  app = await startTestServer({
    beforeStart: async (dir) => {
      await makeCbz(join(dir, 'Series.cbz'), { names: FOLDERED })
      await makeCbz(join(dir, 'shelf', 'Keep.cbz'), {
        names: ['A/001.jpg', 'A/002.jpg', 'B/001.jpg', 'B/002.jpg'],
      })
      await writeNested(join(dir, 'Nested.cbz'), ['Vol 1.cbz', 'Vol 2.cbz'])
      await writeNested(join(dir, 'Gone.cbz'), ['Part 1.zip', 'Part 2.zip'], 3)
      await makeCbz(join(dir, 'Info.cbz'), {
        names: ['A/001.jpg', 'B/001.jpg'],
        entries: [
          { name: 'ComicInfo.xml', data: new TextEncoder().encode('<ComicInfo/>') },
          { name: '__MACOSX/A/._001.jpg', data: new Uint8Array([0]) },
          { name: '__MACOSX/._Vol 1.zip', data: new Uint8Array([0]) },
        ],
      })
      await makeCbz(join(dir, 'Live.cbz'), { names: ['A/001.jpg', 'A/002.jpg', 'B/001.jpg'] })
      await makeTar(join(dir, 'Tarred.tar'), {
        names: ['B/001.jpg', 'A/001.jpg', 'A/002.jpg'],
        entries: [{ name: 'ComicInfo.xml', data: new TextEncoder().encode('<ComicInfo/>') }],
      })
      await makeRar4(join(dir, 'Packed.cbr'), { names: ['A/001.jpg', 'B/001.jpg'] })
      const hostile = buildZip(await makePages('hostile', { names: ['../escape.jpg'] }))
      await Bun.write(join(dir, 'Evil.cbz'), buildZip([{ name: 'Inner.cbz', data: hostile }]))
    },
  })
  cookie = await app.login()
  await app.idle()
  const list = await app.json<Wire[]>('/api/archives', { cookie })
  for (const row of list.body) ids[row.filename] = row.arcid
})

afterAll(() => app[Symbol.asyncDispose]())

const titlesOf = (answer: Wire) => (answer.outputs as Wire[]).map((o) => o.name)

async function search(filter: string): Promise<Wire[]> {
  const res = await app.json(
    `/api/search?filter=${encodeURIComponent(filter)}&start=-1&groupby_tanks=false`,
    {
      cookie,
    },
  )
  expect(res.status).toBe(200)
  return res.body.data as Wire[]
}

/** Reads a split stream to its end with a real client: the events in order. */
async function readStream(id: string): Promise<{ event: string; data: Wire }[]> {
  const res = await app.req(`/api/archives/${id}/split/stream`, { cookie })
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toContain('text/event-stream')
  const text = await res.text()
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('event: '))
    .map((block) => {
      const [head, data] = block.split('\n')
      return { event: head!.slice('event: '.length), data: JSON.parse(data!.slice(6)) }
    })
}

describe('GET /api/archives/:id/split-tree', () => {
  it('answers the folders of a foldered CBZ in natural order, with page counts', async () => {
    const res = await app.json(`/api/archives/${ids.Series}/split-tree`, { cookie })
    expect(res.status).toBe(200)
    const root = res.body.tree
    expect(root).toMatchObject({ name: 'Series', path: '', type: 'archive', pages: 6 })
    expect(root.children.map((c: Wire) => [c.name, c.type, c.pages])).toEqual([
      ['cover.jpg', 'page', undefined],
      ['Vol 1', 'folder', 2],
      ['Vol 2', 'folder', 2],
      ['Vol 10', 'folder', 1],
    ])
    expect(root.children[2].children.map((c: Wire) => c.path)).toEqual([
      'Vol 2/001.jpg',
      'Vol 2/002.jpg',
    ])
    expect(res.body.other_files).toEqual([])
  })

  it('expands the archives nested in a CBZ one level', async () => {
    const res = await app.json(`/api/archives/${ids.Nested}/split-tree`, { cookie })
    expect(res.status).toBe(200)
    const [first, second] = res.body.tree.children as Wire[]
    expect(first).toMatchObject({ name: 'Vol 1.cbz', path: 'Vol 1.cbz', type: 'archive', pages: 2 })
    expect(first!.children.map((c: Wire) => c.path)).toEqual([
      'Vol 1.cbz/001.jpg',
      'Vol 1.cbz/002.jpg',
    ])
    expect(second).toMatchObject({ name: 'Vol 2.cbz', type: 'archive', pages: 2 })
    expect(res.body.tree.pages).toBe(4)
    // The temp copies of the nested archives are gone once the tree is answered.
    const temp = join(app.root, 'data', 'temp')
    const left = existsSync(temp) ? readdirSync(temp).filter((n) => n.startsWith('split-')) : []
    expect(left).toEqual([])
  })

  it('reads a TAR by its file list too, naming the files a split does not copy', async () => {
    const res = await app.json(`/api/archives/${ids.Tarred}/split-tree`, { cookie })
    expect(res.status).toBe(200)
    expect(res.body.tree.children.map((c: Wire) => [c.name, c.pages])).toEqual([
      ['A', 2],
      ['B', 1],
    ])
    expect(res.body.other_files).toEqual(['ComicInfo.xml'])
  })

  it('refuses a nested archive holding a traversal entry name with 422 Env', async () => {
    const res = await app.json(`/api/archives/${ids.Evil}/split-tree`, { cookie })
    expect(res.status).toBe(422)
    expect(res.body).toMatchObject({ operation: 'split_tree', success: 0 })
    expect(res.body.error).toContain('Inner.cbz')
    expect(res.body.error).toContain('unsafe entry name')
    expect(JSON.stringify(res.body)).not.toContain(app.root)
  })

  it('answers 400 Env for a malformed or unknown id', async () => {
    const bad = await app.json('/api/archives/nope/split-tree', { cookie })
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({ operation: 'split_tree', success: 0 })
    const unknown = await app.json(`/api/archives/${'b'.repeat(40)}/split-tree`, { cookie })
    expect(unknown.status).toBe(400)
    expect(unknown.body.error).toBe("This ID doesn't exist on the server.")
  })
})

describe('split-suggestion', () => {
  it('groups pages by folder: loose pages first under the title, then each folder', async () => {
    const res = await app.json(`/api/archives/${ids.Series}/split-suggestion`, { cookie })
    expect(res.status).toBe(200)
    expect(res.body.method).toBe('folders')
    expect(res.body.outputs).toEqual([
      { name: 'Series', pages: ['cover.jpg'] },
      { name: 'Series - Vol 1', pages: ['Vol 1/001.jpg', 'Vol 1/002.jpg'] },
      { name: 'Series - Vol 2', pages: ['Vol 2/001.jpg', 'Vol 2/002.jpg'] },
      { name: 'Series - Vol 10', pages: ['Vol 10/001.jpg'] },
    ])
  })

  it('names an output after its nested archive without the extension', async () => {
    const res = await app.json(`/api/archives/${ids.Nested}/split-suggestion`, { cookie })
    expect(titlesOf(res.body)).toEqual(['Nested - Vol 1', 'Nested - Vol 2'])
  })

  it('GET answers the stored suggestion; POST analyses again (admin only)', async () => {
    const first = await app.json(`/api/archives/${ids.Series}/split-suggestion`, { cookie })
    const again = await app.json(`/api/archives/${ids.Series}/split-suggestion`, { cookie })
    expect(again.body.created_at).toBe(first.body.created_at)
    const post = await app.json(`/api/archives/${ids.Series}/split-suggestion`, {
      method: 'POST',
      cookie,
    })
    expect(post.status).toBe(200)
    expect(post.body).toMatchObject({ operation: 'analyze_split', success: 1, method: 'folders' })
    expect(post.body.outputs).toEqual(first.body.outputs)
    const anonymous = await app.json(`/api/archives/${ids.Series}/split-suggestion`, {
      method: 'POST',
    })
    expect(anonymous.status).toBe(401)
  })
})

describe('POST /api/archives/:id/split/execute', () => {
  it('writes outputs beside the original, searchable, with tags, categories and a bookmark', async () => {
    const id = ids.Keep!
    const tags = encodeURIComponent('artist:someone, series:keep')
    expect(
      (await app.req(`/api/archives/${id}/metadata?tags=${tags}`, { method: 'PUT', cookie }))
        .status,
    ).toBe(200)
    const category = await app.json('/api/categories', {
      method: 'PUT',
      cookie,
      body: new URLSearchParams({ name: 'Shelf' }),
    })
    const categoryId = category.body.category_id as string
    expect(
      (await app.req(`/api/categories/${categoryId}/${id}`, { method: 'PUT', cookie })).status,
    ).toBe(200)
    // Read up to page 3 (B/001.jpg): the first page of the second output.
    expect(
      (await app.req(`/api/archives/${id}/progress/3`, { method: 'PUT', cookie })).status,
    ).toBe(200)
    // Page 4 of the original is B/002.jpg: the second page of the second output.
    expect(
      (await app.req(`/api/archives/${id}/bookmarks/4`, { method: 'POST', cookie })).status,
    ).toBe(200)

    const res = await app.json(`/api/archives/${id}/split/execute`, {
      method: 'POST',
      cookie,
      json: {},
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ operation: 'split_execute', success: 1 })
    const job = await app.deps.jobs.waitFor(res.body.job)
    expect(job.state).toBe('finished')
    const archives = JSON.parse(job.result!).archives as string[]
    expect(archives).toHaveLength(2)

    const events = await readStream(id)
    expect(events.map((e) => e.event)).toEqual(['progress', 'done', 'end'])
    expect(events[0]!.data).toEqual({ output_index: 1, outputs: 2, pages_done: 4, pages: 4 })
    expect(events[1]!.data).toEqual({ archives })

    const found = await search('series:keep')
    expect(found.map((a) => a.title).sort()).toEqual(['Keep', 'Keep - A', 'Keep - B'])
    const second = found.find((a) => a.title === 'Keep - B')!
    expect(second.arcid).toBe(archives[1])
    expect(second.tags).toContain('artist:someone')
    expect(second.tags).toMatch(/date_added:\d+/)
    expect(second.pagecount).toBe(2)
    expect(second.progress).toBe(1)
    expect(found.find((a) => a.title === 'Keep - A')!.progress).toBe(0)
    expect(existsSync(join(app.contentDir, 'shelf', 'Keep - B.cbz'))).toBe(true)

    const shelf = await app.json(`/api/categories/${categoryId}`, { cookie })
    expect(shelf.body.archives).toEqual(expect.arrayContaining([id, ...archives]))
    const marks = await app.json(`/api/archives/${archives[1]}/bookmarks`, { cookie })
    expect(marks.body.map((b: Wire) => b.page)).toEqual([2])
    const files = await app.json(`/api/archives/${archives[1]}/files`, { cookie })
    expect(files.body.pages).toHaveLength(2)
    // The original stays when not asked to go.
    expect((await app.json(`/api/archives/${id}/metadata`, { cookie })).status).toBe(200)
  })

  it('with delete_original, catalogues every volume of nested archives and then deletes it', async () => {
    const id = ids.Gone!
    const tank = await app.json('/api/tankoubons', {
      method: 'PUT',
      cookie,
      body: new URLSearchParams({ name: 'Reading order' }),
    })
    const tankId = tank.body.tankoubon_id as string
    for (const member of [ids.Series!, id])
      expect(
        (await app.req(`/api/tankoubons/${tankId}/${member}`, { method: 'PUT', cookie })).status,
      ).toBe(200)
    const res = await app.json(`/api/archives/${id}/split/execute`, {
      method: 'POST',
      cookie,
      json: { delete_original: true },
    })
    expect(res.status).toBe(200)
    const events = await readStream(id)
    expect(events.at(-2)!.event).toBe('done')
    expect(events.at(-1)!.event).toBe('end')
    expect(events.slice(0, -2).every((e) => e.event === 'progress')).toBe(true)
    const archives = events.at(-2)!.data.archives as string[]
    expect(archives).toHaveLength(2)

    const found = await search('Gone')
    expect(found.map((a) => a.title).sort()).toEqual(['Gone - Part 1', 'Gone - Part 2'])
    expect(found.every((a) => a.pagecount === 3)).toBe(true)
    expect(existsSync(join(app.contentDir, 'Gone.cbz'))).toBe(false)
    expect((await app.json(`/api/archives/${id}/metadata`, { cookie })).status).toBe(400)
    // The volumes take the original's place in its Tankoubon.
    const after = await app.json(`/api/tankoubons/${tankId}`, { cookie })
    expect(after.body.archives).toEqual([ids.Series, ...archives])
    const page = await app.req(`/api/archives/${archives[0]}/page?path=001.jpg`, { cookie })
    expect(page.status).toBe(200)
  })

  it('uses the outputs of the body, in its page order', async () => {
    const id = ids.Series!
    const res = await app.json(`/api/archives/${id}/split/execute`, {
      method: 'POST',
      cookie,
      json: { outputs: [{ name: 'Series: Best of', pages: ['Vol 10/001.jpg', 'cover.jpg'] }] },
    })
    expect(res.status).toBe(200)
    const job = await app.deps.jobs.waitFor(res.body.job)
    const [newId] = JSON.parse(job.result!).archives as string[]
    const meta = await app.json(`/api/archives/${newId}/metadata`, { cookie })
    expect(meta.body.title).toBe('Series: Best of')
    expect(meta.body.filename).toBe('Series Best of')
    expect(meta.body.pagecount).toBe(2)
    const first = await app.req(`/api/archives/${newId}/page?path=001.jpg`, { cookie })
    const source = await app.req(
      `/api/archives/${id}/page?path=${encodeURIComponent('Vol 10/001.jpg')}`,
      { cookie },
    )
    expect(Buffer.from(await first.arrayBuffer())).toEqual(Buffer.from(await source.arrayBuffer()))
  })

  it('removes the outputs written so far when a later one fails, and keeps the original', async () => {
    const id = ids.Series!
    const vol1 = { name: 'Series - Vol 1', pages: ['Vol 1/001.jpg', 'Vol 1/002.jpg'] }
    const done = await app.json(`/api/archives/${id}/split/execute`, {
      method: 'POST',
      cookie,
      json: { outputs: [vol1] },
    })
    expect((await app.deps.jobs.waitFor(done.body.job)).state).toBe('finished')
    // The same pages again make the same file: the second output is a duplicate, after the first
    // one was catalogued.
    const vol2 = { name: 'Series - Vol 2', pages: ['Vol 2/001.jpg', 'Vol 2/002.jpg'] }
    const res = await app.json(`/api/archives/${id}/split/execute`, {
      method: 'POST',
      cookie,
      json: { outputs: [vol2, vol1] },
    })
    expect(res.status).toBe(200)
    const job = await app.deps.jobs.waitFor(res.body.job)
    expect(job.state).toBe('failed')
    expect(job.error).toContain('is the same file as archive')
    const events = await readStream(id)
    expect(events.at(-2)).toMatchObject({ event: 'error' })
    expect(events.at(-2)!.data.error).toContain('is the same file as archive')
    expect(events.at(-1)!.event).toBe('end')
    await app.jobsDone()
    expect(existsSync(join(app.contentDir, 'Series - Vol 2.cbz'))).toBe(false)
    const titles = (await search('Series')).map((a) => a.title)
    expect(titles).toContain('Series - Vol 1')
    expect(titles).not.toContain('Series - Vol 2')
    expect(readdirSync(app.contentDir).filter((n) => n.includes('tankobun-tmp'))).toEqual([])
    expect(existsSync(join(app.contentDir, 'Series.cbz'))).toBe(true)
    expect((await app.json(`/api/archives/${id}/metadata`, { cookie })).body.pagecount).toBe(6)
  })

  it('refuses delete_original when pages would be left out, with 400 Env and nothing written', async () => {
    const id = ids.Nested!
    await app.jobsDone()
    const before = readdirSync(app.contentDir).sort()
    const res = await app.json(`/api/archives/${id}/split/execute`, {
      method: 'POST',
      cookie,
      json: {
        outputs: [{ name: 'Only one', pages: ['Vol 1.cbz/001.jpg'] }],
        delete_original: true,
      },
    })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ operation: 'split_execute', success: 0 })
    expect(res.body.error).toContain('in no output')
    expect(readdirSync(app.contentDir).sort()).toEqual(before)
  })

  it('refuses delete_original for an archive holding files a split does not copy', async () => {
    const tree = await app.json(`/api/archives/${ids.Info}/split-tree`, { cookie })
    expect(tree.body.other_files).toEqual(['ComicInfo.xml'])
    const res = await app.json(`/api/archives/${ids.Info}/split/execute`, {
      method: 'POST',
      cookie,
      json: { delete_original: true },
    })
    expect(res.status).toBe(400)
    expect(res.body.error).toContain('ComicInfo.xml')
    expect(existsSync(join(app.contentDir, 'Info - A.cbz'))).toBe(false)
  })

  it('refuses delete_original for a RAR, whose files other than pages cannot be listed', async () => {
    const tree = await app.json(`/api/archives/${ids.Packed}/split-tree`, { cookie })
    expect(tree.status).toBe(200)
    expect(tree.body.tree.children.map((c: Wire) => c.name)).toEqual(['A', 'B'])
    const res = await app.json(`/api/archives/${ids.Packed}/split/execute`, {
      method: 'POST',
      cookie,
      json: { delete_original: true },
    })
    expect(res.status).toBe(400)
    expect(res.body.error).toContain('lists pages only')
  })

  it('answers 400 Env for pages the archive lacks, a page twice, or a bad body', async () => {
    const url = `/api/archives/${ids.Nested}/split/execute`
    const unknown = await app.json(url, {
      method: 'POST',
      cookie,
      json: { outputs: [{ name: 'X', pages: ['../../etc/passwd'] }] },
    })
    expect(unknown.status).toBe(400)
    expect(unknown.body.error).toContain('is not a page of the archive')
    const twice = await app.json(url, {
      method: 'POST',
      cookie,
      json: {
        outputs: [
          { name: 'X', pages: ['Vol 1.cbz/001.jpg'] },
          { name: 'Y', pages: ['Vol 1.cbz/001.jpg'] },
        ],
      },
    })
    expect(twice.status).toBe(400)
    expect(twice.body.error).toContain('more than one output')
    const bad = await app.json(url, { method: 'POST', cookie, json: { outputs: 'all' } })
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({ operation: 'split_execute', success: 0 })
    const guest = await app.json(url, { method: 'POST', json: {} })
    expect(guest.status).toBe(401)
  })
})

describe('GET /api/archives/:id/split/stream', () => {
  it('streams progress live while the split runs, then done and end', async () => {
    const id = ids.Live!
    // Holding the placement queue stops the job before it catalogues its first output.
    let release!: () => void
    const held = app.deps.archives.placement.alone(() => new Promise<void>((r) => (release = r)))
    const res = await app.json(`/api/archives/${id}/split/execute`, { method: 'POST', cookie })
    expect(res.status).toBe(200)
    const stream = await app.req(`/api/archives/${id}/split/stream`, { cookie })
    const reader = stream.body!.getReader()
    const events: { event: string; data: Wire }[] = []
    let buffer = ''
    const readUntil = async (name: string) => {
      while (!events.some((e) => e.event === name)) {
        const { value, done } = await reader.read()
        if (done) throw new Error(`stream ended before ${name}`)
        buffer += new TextDecoder().decode(value)
        const blocks = buffer.split('\n\n')
        buffer = blocks.pop()!
        for (const block of blocks) {
          if (!block.startsWith('event: ')) continue
          const [head, data] = block.split('\n')
          events.push({ event: head!.slice(7), data: JSON.parse(data!.slice(6)) })
        }
      }
    }
    await readUntil('progress')
    expect(app.deps.jobs.get(res.body.job)!.state).toBe('active')
    const twice = await app.json(`/api/archives/${id}/split/execute`, { method: 'POST', cookie })
    expect(twice.status).toBe(409)
    expect(twice.body).toMatchObject({ operation: 'split_execute', success: 0, job: res.body.job })
    expect(events.some((e) => e.event === 'done')).toBe(false)
    release()
    await held
    await readUntil('end')
    const names = events.map((e) => e.event)
    expect(names.slice(-2)).toEqual(['done', 'end'])
    expect(names.slice(0, -2).every((n) => n === 'progress')).toBe(true)
    const pagesDone = events.filter((e) => e.event === 'progress').map((e) => e.data.pages_done)
    expect(pagesDone).toEqual([...pagesDone].sort((a, b) => a - b))
    expect(pagesDone.at(-1)).toBe(3)
    expect(events.at(-2)!.data.archives).toHaveLength(2)
  })

  it('answers 404 Env for an archive never split', async () => {
    const res = await app.json(`/api/archives/${ids.Nested}/split/stream`, { cookie })
    expect(res.status).toBe(404)
    expect(res.body).toMatchObject({ operation: 'split_stream', success: 0 })
  })
})
