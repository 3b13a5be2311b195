// POST /api/regen_thumbs while the database refuses job state writes (a full data folder): the
// job still ends for clients, is written once space returns, never traps new requests, and can
// be deleted. The refusal is real SQLite: a temporary trigger aborts every UPDATE of jobs.
import { describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { findJob } from '../../src/db/repos/jobs.repo.ts'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { makeCbz } from '../helpers/fixtures.ts'
import { until } from '../helpers/until.ts'

const refuseJobUpdates = (app: TestServer) =>
  app.deps.db.$client.exec(
    `CREATE TEMP TRIGGER refuse_job_updates BEFORE UPDATE ON jobs
     BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`,
  )
const allowJobUpdates = (app: TestServer) =>
  app.deps.db.$client.exec('DROP TRIGGER refuse_job_updates')

async function quietQueue(app: TestServer): Promise<void> {
  await app.idle()
  await until(() => app.deps.jobs.list().every((j) => j.state !== 'queued' && j.state !== 'active'))
}

describe('POST /api/regen_thumbs while job writes fail', () => {
  it('ends the job, writes it once writes work, gives a new request a new job, and deletes it', async () => {
    await using app = await startTestServer({
      beforeStart: async (dir) => {
        await makeCbz(join(dir, 'One.cbz'), { pages: 2 })
        await makeCbz(join(dir, 'Two.cbz'), { pages: 2 })
      },
    })
    await quietQueue(app)
    const cookie = await app.login()
    const status = async (id: number) =>
      ((await (await app.req(`/api/jobqueue/${id}`, { cookie })).json()) as Wire).state

    refuseJobUpdates(app)
    const regen = async () => {
      const res = await app.req('/api/regen_thumbs?force=true', { method: 'POST', cookie })
      expect(res.status).toBe(200)
      return ((await res.json()) as Wire).job as number
    }
    const first = await regen()
    expect(await until(async () => (await status(first)) === 'finished')).toBe(true)
    // The write failed: only the queue knows the job ended.
    expect(findJob(app.deps.db, first)?.state).toBe('queued')
    const listed = (await (await app.req('/api/jobs', { cookie })).json()) as Wire
    expect(listed.jobs.find((j: Wire) => j.id === String(first))).toMatchObject({
      state: 'finished',
      result: { total: 2, made: 2, failed: [] },
    })

    // A new request is not merged into the stale queued row.
    const second = await regen()
    expect(second).not.toBe(first)
    expect(await until(async () => (await status(second)) === 'finished')).toBe(true)

    allowJobUpdates(app)
    expect(await until(() => findJob(app.deps.db, first)?.state === 'finished')).toBe(true)
    expect(await until(() => findJob(app.deps.db, second)?.state === 'finished')).toBe(true)
    const deleted = await app.req(`/api/jobs/${first}`, { method: 'DELETE', cookie })
    expect(deleted.status).toBe(200)
    expect(await deleted.json()).toMatchObject({ operation: 'clear_job', success: 1 })
    expect(findJob(app.deps.db, first)).toBeUndefined()
  })

  it('deletes a job whose end is not written yet (no 409)', async () => {
    await using app = await startTestServer({
      beforeStart: async (dir) => {
        await makeCbz(join(dir, 'One.cbz'), { pages: 2 })
      },
    })
    await quietQueue(app)
    const cookie = await app.login()
    refuseJobUpdates(app)
    const res = await app.req('/api/regen_thumbs', { method: 'POST', cookie })
    const { job } = (await res.json()) as Wire
    await app.deps.jobs.waitFor(job)
    expect(findJob(app.deps.db, job)?.state).toBe('queued')
    const deleted = await app.req(`/api/jobs/${job}`, { method: 'DELETE', cookie })
    expect(deleted.status).toBe(200)
    expect((await app.req(`/api/jobqueue/${job}`, { cookie })).status).toBe(400)
    allowJobUpdates(app)
  })
})
