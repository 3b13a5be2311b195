// Queue downloads run as jobs of one kind, `download`, named after their plugin's namespace: the
// name every job view shows, and the unit of the two-per-plugin limit. A database from before the
// kind existed (queued download jobs named by namespace, run by a kind of that name) resumes them.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { Database } from 'bun:sqlite'
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { makeCbz, type Bytes } from '../helpers/fixtures.ts'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import {
  PLUGIN,
  addItem,
  inState,
  sideloadPlugins,
  startDownloadServer,
  startFakeSite,
  waitForItem,
  type FakeSite,
} from './fake-site.ts'

/** A second download plugin: the fake one under another namespace. */
const OTHER_PLUGIN = 'custom/download/other'

/** Polls the job until it has ended (10 s at most); answers its /api/jobqueue body. */
async function waitForJobEnd(app: TestServer, cookie: string, id: number): Promise<Wire> {
  let job: Wire = {}
  for (let waited = 0; waited < 10_000; waited += 25) {
    job = (await app.json(`/api/jobqueue/${id}`, { cookie })).body
    if (job.state === 'finished' || job.state === 'failed') return job
    await Bun.sleep(25)
  }
  throw new Error(`job ${id} never ended: ${JSON.stringify(job)}`)
}

let site: FakeSite
const scratch = mkdtempSync(join(tmpdir(), 'tankobun-dl-'))

beforeAll(async () => {
  site = await startFakeSite()
  // 8 MiB at 4 KiB per 100 ms: a download that runs until it is stopped.
  site.files.set('big.bin', new Uint8Array(8 * 1024 * 1024) as Bytes)
  for (const [name, pages] of [
    ['one.cbz', 2],
    ['two.cbz', 3],
  ] as const)
    site.files.set(
      name,
      new Uint8Array(await readFile(await makeCbz(join(scratch, name), { pages }))) as Bytes,
    )
})

afterAll(() => {
  site?.stop()
  rmSync(scratch, { recursive: true, force: true })
})

describe('download jobs', () => {
  let app: TestServer
  let cookie: string
  beforeAll(async () => {
    app = await startTestServer({
      config: { fetchAllowPrivate: ['127.0.0.1'] },
      beforeStart: (contentDir) => {
        sideloadPlugins(contentDir)
        const dir = join(contentDir, '..', 'data', 'plugins', 'custom', 'download')
        copyFileSync(join(dir, 'fake.ts'), join(dir, 'other.ts'))
      },
    })
    cookie = await app.login()
  })
  afterAll(() => app?.[Symbol.asyncDispose]())

  const start = async (id: string): Promise<number> => {
    const { status, body } = await app.json(`/api/download_queue/${id}/start`, {
      method: 'POST',
      cookie,
    })
    expect(status).toBe(200)
    return body.job
  }

  it('are named after their plugin and run two at once per plugin', async () => {
    const slow = (name: string) => `${site.base}/slow/big.bin?name=${name}.cbz`
    const first = await addItem(app, cookie, slow('a1'))
    const second = await addItem(app, cookie, slow('a2'))
    const third = await addItem(app, cookie, slow('a3'))
    const other = await addItem(app, cookie, slow('b1'), { plugin_namespace: OTHER_PLUGIN })
    const jobs = {
      first: await start(first.id),
      second: await start(second.id),
      third: await start(third.id),
      other: await start(other.id),
    }

    // The other plugin has slots of its own while this one's two are taken.
    for (const item of [first, second, other])
      await waitForItem(app, cookie, item.id, inState('downloading'))
    const { body: waiting } = await app.json(`/api/jobqueue/${jobs.third}`, { cookie })
    expect(waiting).toMatchObject({ state: 'queued', name: PLUGIN, task: PLUGIN })
    expect((await app.json(`/api/download_queue`, { cookie })).body.items).toContainEqual(
      expect.objectContaining({ id: third.id, state: 'starting', job_id: jobs.third }),
    )

    // Every job view names the plugin, never the kind.
    const { body: list } = await app.json('/api/jobs', { cookie })
    const nameOf = (id: number) => (list.jobs as Wire[]).find((job) => job.id === String(id))?.name
    expect(Object.values(jobs).map(nameOf)).toEqual([PLUGIN, PLUGIN, PLUGIN, OTHER_PLUGIN])
    const { body: minion } = await app.json(`/api/minion/${jobs.other}`, { cookie })
    expect(minion).toMatchObject({ id: jobs.other, name: OTHER_PLUGIN, task: OTHER_PLUGIN })

    // A slot that frees up goes to the plugin's next job.
    await app.req(`/api/download_queue/${first.id}/stop`, { method: 'POST', cookie })
    await waitForItem(app, cookie, third.id, inState('downloading'))
    expect((await waitForJobEnd(app, cookie, jobs.first)).name).toBe(PLUGIN)

    for (const item of [second, third, other])
      await app.req(`/api/download_queue/${item.id}/stop`, { method: 'POST', cookie })
    await app.jobsDone()
  }, 60_000)
})

describe('a database from before the download kind', () => {
  it('resumes and ends the download jobs it left queued, under their names', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tankobun-upgrade-'))
    try {
      const first = await startDownloadServer(root)
      const cookie = await first.login()
      const started = await addItem(first, cookie, `${site.base}/files/one.cbz?name=resumed.cbz`)
      const idle = await addItem(first, cookie, `${site.base}/files/two.cbz?name=idle.cbz`)
      await first.stop()

      // What the version before left at a stop: no `kind` column, and download jobs named after
      // their plugin's namespace with the item as their only argument, one of an item since gone.
      const db = new Database(join(root, 'data', 'db.sqlite'))
      db.run('ALTER TABLE jobs DROP COLUMN kind')
      db.run(
        'DELETE FROM __drizzle_migrations WHERE created_at = (SELECT max(created_at) FROM __drizzle_migrations)',
      )
      const queueJob = (item: string, state = 'queued') =>
        db
          .query<{ id: number }, [string, string, string, string]>(
            `INSERT INTO jobs (name, state, args, unique_key, created_at)
             VALUES (?, ?, ?, ?, 0) RETURNING id`,
          )
          .get(PLUGIN, state, JSON.stringify({ item }), `download:${item}`)!.id
      const startedJob = queueJob(started.id)
      const goneJob = queueJob('an-item-since-removed')
      const doneJob = queueJob(idle.id, 'finished')
      db.run(`UPDATE download_queue SET state = 'starting', job_id = ? WHERE id = ?`, [
        startedJob,
        started.id,
      ])
      db.close()

      const second = await startDownloadServer(root)
      try {
        const cookie2 = await second.login()
        for (const id of [startedJob, goneJob])
          expect(await waitForJobEnd(second, cookie2, id)).toMatchObject({
            name: PLUGIN,
            state: 'finished',
          })
        const { body: history } = await second.json(`/api/jobqueue/${doneJob}`, { cookie: cookie2 })
        expect(history).toMatchObject({ name: PLUGIN, task: PLUGIN, state: 'finished' })
        // The download the stop cut is an error to start again, as after any stop.
        const cut = await waitForItem(second, cookie2, started.id, inState('error'))
        expect(cut.error).toBe('stale_after_restart')

        for (const item of [started, idle]) {
          const { body } = await second.json(`/api/download_queue/${item.id}/start`, {
            method: 'POST',
            cookie: cookie2,
          })
          expect(
            await waitForItem(second, cookie2, item.id, inState('done', 'error')),
          ).toMatchObject({ state: 'done', job_id: body.job })
          expect((await waitForJobEnd(second, cookie2, body.job)).name).toBe(PLUGIN)
        }
      } finally {
        await second.stop()
      }
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 60_000)
})
