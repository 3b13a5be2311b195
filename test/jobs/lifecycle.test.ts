import { describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startTestServer, type Wire } from '../helpers/server.ts'
import { makeCbz } from '../helpers/fixtures.ts'
import { jobs } from '../../src/db/schema/jobs.ts'

describe('job recovery', () => {
  it('marks jobs a crash left active as failed at the next start', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tankobun-restart-'))
    try {
      let jobId: number
      {
        await using app = await startTestServer({ root })
        await app.idle()
        jobId = app.deps.db
          .insert(jobs)
          .values({
            name: 'regen_thumbs',
            state: 'active',
            createdAt: Date.now(),
            startedAt: Date.now(),
          })
          .returning()
          .get().id
      }
      await using app = await startTestServer({ root })
      const cookie = await app.login()
      const status = (await (await app.req(`/api/jobqueue/${jobId}`, { cookie })).json()) as Wire
      expect(status.state).toBe('failed')
      expect(status.error).toContain('Interrupted')
      expect(status.finished_at).toBeGreaterThan(0)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })

  it('refuses to clear a job that is not terminal (409) and an unknown one (404)', async () => {
    await using app = await startTestServer()
    await app.idle()
    const cookie = await app.login()
    const id = app.deps.db
      .insert(jobs)
      .values({ name: 'rescan', state: 'queued', createdAt: Date.now() })
      .returning()
      .get().id
    const res = await app.req(`/api/jobs/${id}`, { method: 'DELETE', cookie })
    expect(res.status).toBe(409)
    expect(await res.json()).toMatchObject({ operation: 'clear_job', success: 0 })
    expect((await app.req('/api/jobs/999999', { method: 'DELETE', cookie })).status).toBe(404)
    expect((await app.req('/api/jobqueue/abc', { cookie })).status).toBe(400)
  })
})

describe('content folder watcher', () => {
  it('catalogues a file dropped into the content folder without a manual rescan', async () => {
    await using app = await startTestServer({ config: { watch: true } })
    await app.idle()
    const cookie = await app.login()
    await makeCbz(join(app.contentDir, 'Dropped.cbz'), { pages: 2 })
    let titles: string[] = []
    for (let i = 0; i < 100 && !titles.includes('Dropped'); i++) {
      await Bun.sleep(100)
      titles = ((await (await app.req('/api/archives', { cookie })).json()) as Wire[]).map(
        (a) => a.title,
      )
    }
    expect(titles).toEqual(['Dropped'])
  })
})

describe('server start', () => {
  it('refuses to share its port with a second server, which fails to start', async () => {
    await using first = await startTestServer()
    await first.idle()
    let refused: unknown = null
    const root = mkdtempSync(join(tmpdir(), 'tankobun-second-'))
    try {
      await using second = await startTestServer({ root, config: { port: first.port } })
      void second
    } catch (error) {
      refused = error
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
    expect((refused as NodeJS.ErrnoException | null)?.code).toBe('EADDRINUSE')
    expect((await first.req('/api/info')).status).toBe(200)
  })
})
