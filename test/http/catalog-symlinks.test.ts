// Links in the content folder: linked folders and files are catalogued, loops are walked once,
// and an entry that cannot be reached is reported (content-relative) instead of failing the scan.
import { describe, expect, it } from 'bun:test'
import { existsSync } from 'node:fs'
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { rescanJob } from '../helpers/rescan.ts'
import { makeCbz } from '../helpers/fixtures.ts'
import { findArchive } from '../../src/db/repos/archives.repo.ts'

async function rescan(app: TestServer, cookie: string) {
  const row = await rescanJob(app, cookie)
  return (await (await app.req(`/api/jobqueue/${row.id}`, { cookie })).json()) as Wire
}

describe('scanning a content folder with links', () => {
  it('follows linked folders and files, walks loops once and lists unreachable entries', async () => {
    let outside = ''
    await using app = await startTestServer({
      beforeStart: async (content) => {
        outside = join(content, '..', 'other-disk')
        await makeCbz(join(content, 'Real.cbz'), { pages: 1 })
        await makeCbz(join(outside, 'shelf', 'Far.cbz'), { pages: 1 })
        await makeCbz(join(outside, 'Single.cbz'), { pages: 1 })
        await mkdir(join(content, 'sub'))
        await makeCbz(join(content, 'sub', 'Deep.cbz'), { pages: 1 })
        await symlink('.', join(content, 'loop'))
        await symlink('..', join(content, 'sub', 'up'))
        await symlink(join(outside, 'shelf'), join(content, 'linked'))
        await symlink(join(outside, 'Single.cbz'), join(content, 'Alias.cbz'))
        await symlink('missing.cbz', join(content, 'broken.cbz'))
        await symlink('self.cbz', join(content, 'self.cbz'))
        // What a crash left of an upload: removed at start despite the loops.
        await writeFile(join(content, '.tankobun-tmp-0a1b'), 'partial')
      },
    })
    await app.idle()
    const cookie = await app.login()
    expect(existsSync(join(app.contentDir, '.tankobun-tmp-0a1b'))).toBe(false)
    const list = (await (await app.req('/api/archives', { cookie })).json()) as Wire[]
    expect(list.map((a) => a.title).sort()).toEqual(['Alias', 'Deep', 'Far', 'Real'])

    const job = await rescan(app, cookie)
    expect(job.state).toBe('finished')
    const unreadable = (job.result.unreadable as Wire[]).map((u) => u.path).sort()
    expect(unreadable).toEqual(['broken.cbz', 'self.cbz'])
    expect(JSON.stringify(job)).not.toContain(app.root)

    // Pages of a file behind a linked folder are served.
    const far = list.find((a) => a.title === 'Far')!
    const page = await app.req(`/api/archives/${far.arcid}/page?path=001.jpg`, { cookie })
    expect(page.status).toBe(200)
    const pathOf = (title: string) =>
      findArchive(app.deps.db, list.find((a) => a.title === title)!.arcid)!.path
    expect(['Alias', 'Deep', 'Far', 'Real'].map(pathOf)).toEqual([
      'Alias.cbz',
      'sub/Deep.cbz',
      'linked/Far.cbz',
      'Real.cbz',
    ])
    await rm(outside, { recursive: true, force: true })
  })

  it('fails a scan of a vanished content folder without naming the server path', async () => {
    await using app = await startTestServer({
      beforeStart: async (content) => void (await makeCbz(join(content, 'Kept.cbz'), { pages: 1 })),
    })
    await app.idle()
    const cookie = await app.login()
    await rm(app.contentDir, { recursive: true })
    try {
      const job = await rescan(app, cookie)
      expect(job.state).toBe('failed')
      expect(job.error).toContain('content folder cannot be read')
      expect(job.error).not.toContain(app.root)
    } finally {
      await mkdir(app.contentDir)
    }
    // Nothing was hidden by the failed scan.
    expect((await (await app.req('/api/archives', { cookie })).json()) as Wire[]).toHaveLength(1)
  })
})
