// The watcher's rescans cover only the paths that changed (src/domain/archives/content-sync.ts),
// and a rescan over some paths finds gone only the rows at or under them.
import { describe, expect, it } from 'bun:test'
import { copyFile, mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { makeCbz } from '../helpers/fixtures.ts'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'

async function listed(app: TestServer, cookie: string): Promise<Wire[]> {
  return (await (await app.req('/api/archives', { cookie })).json()) as Wire[]
}

/** Runs the rescan job over `paths` and returns its result. */
async function rescanPaths(app: TestServer, paths: string[]): Promise<Record<string, any>> {
  const row = await app.deps.jobs.waitFor(app.deps.jobs.enqueue('rescan', { paths }))
  expect(row.state).toBe('finished')
  return JSON.parse(row.result ?? '{}')
}

/** The results of the finished rescan jobs newer than job `after`, oldest first. */
async function rescansAfter(app: TestServer, cookie: string, after = 0): Promise<Wire[]> {
  await app.idle()
  const { jobs } = (await (await app.req('/api/jobs', { cookie })).json()) as { jobs: Wire[] }
  return jobs
    .filter((job) => job.name === 'rescan' && job.state === 'finished' && +job.id > after)
    .sort((a, b) => +a.id - +b.id)
    .map((job) => job.result as Wire)
}

/** The id of the newest rescan job so far. */
async function newestRescan(app: TestServer, cookie: string): Promise<number> {
  const { jobs } = (await (await app.req('/api/jobs', { cookie })).json()) as { jobs: Wire[] }
  return Math.max(0, ...jobs.filter((job) => job.name === 'rescan').map((job) => +job.id))
}

async function eventually(check: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 100 && !(await check()); tries++) await Bun.sleep(50)
  expect(await check()).toBe(true)
}

describe('the watcher: rescans over the changed paths', () => {
  it('walks only the folder that changed, and follows a move between two folders', async () => {
    await using app = await startTestServer({
      config: { watch: true },
      beforeStart: async (content) => {
        await mkdir(join(content, 'big'))
        for (let i = 0; i < 6; i++) await makeCbz(join(content, 'big', `b${i}.cbz`))
        await mkdir(join(content, 'small'))
      },
    })
    await app.idle()
    const cookie = await app.login()
    expect(await listed(app, cookie)).toHaveLength(6)

    let before = await newestRescan(app, cookie)
    await makeCbz(join(app.contentDir, 'small', 'new.cbz'), { pages: 3 })
    await eventually(async () => (await listed(app, cookie)).length === 7)
    // The folder `big` was not walked: one file scanned, not seven.
    const added = (await rescansAfter(app, cookie, before)).find((result) => result.added === 1)
    expect(added).toMatchObject({ scanned: 1, added: 1 })
    // Its covers job goes over the new archive only, not the library.
    const { jobs } = (await (await app.req('/api/jobs', { cookie })).json()) as { jobs: Wire[] }
    const covers = jobs.filter((job) => job.name === 'thumbnails').sort((a, b) => +b.id - +a.id)
    const job = await app.deps.jobs.waitFor(Number(covers[0]!.id))
    expect(JSON.parse(job.result ?? '{}')).toMatchObject({ total: 1, made: 1 })

    const moved = (await listed(app, cookie)).find((a) => a.filename === 'b0')!
    before = await newestRescan(app, cookie)
    await rename(join(app.contentDir, 'big', 'b0.cbz'), join(app.contentDir, 'small', 'b0.cbz'))
    // One rescan over both folders, or (events split in two bursts) one that hides the row and
    // one that shows it again: either way a move, the id kept.
    await eventually(async () => {
      const row = (await listed(app, cookie)).find((a) => a.arcid === moved.arcid)
      const results = await rescansAfter(app, cookie, before)
      return row !== undefined && results.some((result) => result.moved === 1)
    })
    const meta = (await (
      await app.req(`/api/archives/${moved.arcid}/metadata`, { cookie })
    ).json()) as Wire
    expect(meta.filename).toBe('b0')
    expect(await listed(app, cookie)).toHaveLength(7)

    await rm(join(app.contentDir, 'small', 'new.cbz'))
    await eventually(async () => (await listed(app, cookie)).length === 6)
  })

  it('walks a folder moved in once, however many entries it holds', async () => {
    await using app = await startTestServer({
      config: { watch: true },
      beforeStart: async (content) => void (await makeCbz(join(content, 'other.cbz'))),
    })
    await app.idle()
    const cookie = await app.login()
    // Prepared outside the content folder, then moved in: one event per entry under it, more
    // than a burst may name before it would rescan the whole folder.
    const outside = join(app.contentDir, '..', 'incoming')
    await mkdir(outside)
    await makeCbz(join(outside, 'first.cbz'))
    for (let i = 0; i < 299; i++)
      await copyFile(join(outside, 'first.cbz'), join(outside, `copy-${i}.cbz`))
    const before = await newestRescan(app, cookie)
    await rename(outside, join(app.contentDir, 'incoming'))
    await eventually(async () => (await listed(app, cookie)).length === 2)
    const results = await rescansAfter(app, cookie, before)
    expect(results.map((result) => result.scanned)).toEqual([300])
    expect(results[0]).toMatchObject({ added: 1 })
    expect(results[0]!.duplicates).toHaveLength(299)
  })

  it('takes a whole-folder rescan when an .lrrignore file changes', async () => {
    await using app = await startTestServer({
      config: { watch: true },
      beforeStart: async (content) => {
        await mkdir(join(content, 'keep'))
        await makeCbz(join(content, 'keep', 'k.cbz'))
        await mkdir(join(content, 'drop'))
        await makeCbz(join(content, 'drop', 'd.cbz'))
      },
    })
    await app.idle()
    const cookie = await app.login()
    expect(await listed(app, cookie)).toHaveLength(2)
    const before = await newestRescan(app, cookie)
    await writeFile(join(app.contentDir, '.lrrignore'), 'drop/\n')
    await eventually(async () => (await listed(app, cookie)).length === 1)
    expect((await listed(app, cookie))[0]!.filename).toBe('k')
    const whole = (await rescansAfter(app, cookie, before)).find((result) => result.unlinked === 1)
    expect(whole).toMatchObject({ scanned: 1, unlinked: 1 })
  })
})

describe('rescan job over some paths', () => {
  it('finds gone only the rows at or under its paths, and applies .lrrignore files above them', async () => {
    await using app = await startTestServer({
      beforeStart: async (content) => {
        await mkdir(join(content, 'a', 'deep'), { recursive: true })
        await mkdir(join(content, 'b'))
        await makeCbz(join(content, 'a', 'deep', 'a1.cbz'))
        await makeCbz(join(content, 'b', 'b1.cbz'), { pages: 2 })
        await writeFile(join(content, '.lrrignore'), '/a/deep/skipped*\n')
      },
    })
    await app.idle()
    const cookie = await app.login()
    expect(await listed(app, cookie)).toHaveLength(2)

    // b's file is gone, but a pass over `a` does not look there.
    await rm(join(app.contentDir, 'b', 'b1.cbz'))
    await makeCbz(join(app.contentDir, 'a', 'deep', 'a2.cbz'), { pages: 3 })
    await makeCbz(join(app.contentDir, 'a', 'deep', 'skipped.cbz'), { pages: 4 })
    expect(await rescanPaths(app, ['a'])).toMatchObject({ scanned: 2, added: 1, unlinked: 0 })
    expect((await listed(app, cookie)).map((a) => a.filename).sort()).toEqual(['a1', 'a2', 'b1'])

    // A file path alone, the ignored one: the root's rules apply to it.
    expect(await rescanPaths(app, ['a/deep/skipped.cbz'])).toMatchObject({ scanned: 0, added: 0 })
    // A path that is gone: its row is.
    expect(await rescanPaths(app, ['b/b1.cbz'])).toMatchObject({ scanned: 0, unlinked: 1 })
    expect((await listed(app, cookie)).map((a) => a.filename).sort()).toEqual(['a1', 'a2'])
    // A sibling whose name starts like the path is not under it.
    await mkdir(join(app.contentDir, 'a-side'))
    await rm(join(app.contentDir, 'a', 'deep', 'a1.cbz'))
    expect(await rescanPaths(app, ['a-side'])).toMatchObject({ scanned: 0, unlinked: 0 })
    expect(await rescanPaths(app, ['a-side', 'a', 'a/deep'])).toMatchObject({
      scanned: 1,
      unlinked: 1,
    })
  })

  it('follows a move whose source it was not told of, and still reports a real duplicate', async () => {
    await using app = await startTestServer({
      beforeStart: async (content) => {
        await mkdir(join(content, 'a'))
        await mkdir(join(content, 'b'))
        await makeCbz(join(content, 'a', 'kept.cbz'), { pages: 2 })
        await makeCbz(join(content, 'a', 'moved.cbz'), { pages: 3 })
      },
    })
    await app.idle()
    const cookie = await app.login()
    const before = await listed(app, cookie)
    const moved = before.find((a) => a.filename === 'moved')!
    await rename(join(app.contentDir, 'a', 'moved.cbz'), join(app.contentDir, 'b', 'moved.cbz'))
    await copyFile(join(app.contentDir, 'a', 'kept.cbz'), join(app.contentDir, 'b', 'copy.cbz'))
    // Only `b` is named, as when the event of the file leaving `a` was lost.
    const result = await rescanPaths(app, ['b'])
    expect(result).toMatchObject({ moved: 1, added: 0 })
    expect(result.duplicates.map((d: Wire) => d.path)).toEqual(['b/copy.cbz'])
    const meta = (await (
      await app.req(`/api/archives/${moved.arcid}/metadata`, { cookie })
    ).json()) as Wire
    expect(meta.filename).toBe('moved')
    expect(await listed(app, cookie)).toHaveLength(2)
  })

  it('leaves a link to a folder of the library to that folder, as a whole walk does', async () => {
    await using app = await startTestServer({
      beforeStart: async (content) => {
        await mkdir(join(content, 'a'))
        await mkdir(join(content, 'b'))
        await makeCbz(join(content, 'a', 'a1.cbz'))
        await symlink(join(content, 'a'), join(content, 'b', 'to-a'))
        await symlink(join(content, 'a'), join(content, 'to-a'))
      },
    })
    await app.idle()
    const cookie = await app.login()
    expect((await listed(app, cookie)).map((a) => a.filename)).toEqual(['a1'])
    await makeCbz(join(app.contentDir, 'b', 'b1.cbz'), { pages: 2 })
    // The pass over `b` does not walk `a` again through b/to-a, nor does a pass naming a link.
    const scoped = await rescanPaths(app, ['b', 'to-a'])
    expect(scoped).toMatchObject({ scanned: 1, added: 1 })
    expect(scoped.duplicates ?? []).toEqual([])
    expect((await listed(app, cookie)).map((a) => a.filename).sort()).toEqual(['a1', 'b1'])
  })
})
