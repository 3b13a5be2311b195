// Job state writes the database refuses (a full disk): the job still ends, clients see its real
// state, its end reaches the database once writes work again, and it never traps new requests.
// The refusal is real SQLite: a temporary trigger aborts every UPDATE of the jobs table.
import { describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDb, type Db } from '../../src/db/client.ts'
import { findJob } from '../../src/db/repos/jobs.repo.ts'
import { jobs } from '../../src/db/schema/jobs.ts'
import { defineJob } from '../../src/jobs/define-job.ts'
import { createJobQueue, type JobQueue } from '../../src/jobs/queue.ts'
import { setLogLevel } from '../../src/log.ts'

setLogLevel('silent')

function refuseJobUpdates(db: Db): void {
  db.$client.exec(
    `CREATE TEMP TRIGGER refuse_job_updates BEFORE UPDATE ON jobs
     BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`,
  )
}

function allowJobUpdates(db: Db): void {
  db.$client.exec('DROP TRIGGER refuse_job_updates')
}

/** Polls until the stored row reaches the state (the queue writes it again with backoff). */
async function storedState(db: Db, id: number, state: string): Promise<string | undefined> {
  const deadline = Date.now() + 10_000
  while (findJob(db, id)?.state !== state && Date.now() < deadline) await Bun.sleep(20)
  return findJob(db, id)?.state
}

type GatedQueue = JobQueue<{ gated: { fail?: boolean } }>

/** A fresh queue on a real SQLite file with a `gated` kind that runs until released. */
function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'tankobun-job-writes-'))
  const db = openDb(join(dir, 'db.sqlite'))
  const queue: GatedQueue = createJobQueue(db)
  const gates: (() => void)[] = []
  let started = 0
  queue.register(
    {
      gated: () =>
        defineJob({
          concurrency: 2,
          uniqueKey: () => 'gated',
          async run(ctx, args) {
            started++
            ctx.progress(0.5, { step: 1 })
            await new Promise<void>((resolve) => gates.push(resolve))
            if (args.fail) throw new Error('target vanished')
            return { ok: true }
          },
        }),
    },
    null,
  )
  const release = async () => {
    while (gates.length === 0) await Bun.sleep(5)
    gates.shift()!()
  }
  return {
    db,
    queue,
    release,
    started: () => started,
    async [Symbol.asyncDispose]() {
      await queue.stop()
      db.$client.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

const untilActive = async (queue: GatedQueue, id: number) => {
  while (queue.get(id)?.state !== 'active') await Bun.sleep(5)
}

describe('job state writes the database refuses', () => {
  it('runs a job whose start cannot be written and writes its end once writes work again', async () => {
    await using t = setup()
    refuseJobUpdates(t.db)
    const id = t.queue.enqueue('gated', {})
    await untilActive(t.queue, id)
    // The database still says queued; clients see what really happens.
    expect(findJob(t.db, id)?.state).toBe('queued')
    await t.release()
    const done = await t.queue.waitFor(id)
    expect(done).toMatchObject({ state: 'finished', progress: 1, result: '{"ok":true}' })
    expect(t.queue.get(id)?.state).toBe('finished')
    expect(t.queue.list().find((row) => row.id === id)?.state).toBe('finished')
    expect(findJob(t.db, id)?.state).toBe('queued')

    allowJobUpdates(t.db)
    expect(await storedState(t.db, id, 'finished')).toBe('finished')
    const stored = findJob(t.db, id)!
    expect(stored).toMatchObject({ progress: 1, result: '{"ok":true}', error: null })
    expect(JSON.parse(stored.notes)).toEqual({ step: 1 })
    expect(stored.startedAt).toBeGreaterThan(0)
    expect(stored.finishedAt).toBeGreaterThanOrEqual(stored.startedAt!)
  })

  it('ends a running job whose end cannot be written, gives a new request a new job, and deletes it', async () => {
    await using t = setup()
    const id = t.queue.enqueue('gated', { fail: true })
    await untilActive(t.queue, id)
    expect(await storedState(t.db, id, 'active')).toBe('active')
    // The disk fills while the job runs.
    refuseJobUpdates(t.db)
    await t.release()
    const done = await t.queue.waitFor(id)
    expect(done).toMatchObject({ state: 'failed', error: 'target vanished' })
    expect(findJob(t.db, id)?.state).toBe('active')
    expect(t.queue.get(id)).toMatchObject({ state: 'failed', error: 'target vanished' })

    // Not merged into the row the database still calls active: nothing runs it any more.
    const next = t.queue.enqueue('gated', {})
    expect(next).not.toBe(id)
    await t.release()
    expect((await t.queue.waitFor(next)).state).toBe('finished')
    expect(t.started()).toBe(2)

    allowJobUpdates(t.db)
    expect(await storedState(t.db, id, 'failed')).toBe('failed')
    expect(findJob(t.db, id)?.error).toBe('target vanished')
    t.queue.clear(id)
    expect(findJob(t.db, id)).toBeUndefined()
  })

  it('deletes a job whose end is not written yet, and the late write does not bring it back', async () => {
    await using t = setup()
    refuseJobUpdates(t.db)
    const id = t.queue.enqueue('gated', {})
    await t.release()
    await t.queue.waitFor(id)
    expect(findJob(t.db, id)?.state).toBe('queued')
    t.queue.clear(id)
    expect(t.queue.get(id)).toBeUndefined()
    allowJobUpdates(t.db)
    // Queue activity retries held writes; the deleted job has none left.
    const next = t.queue.enqueue('gated', {})
    await t.release()
    await t.queue.waitFor(next)
    expect(findJob(t.db, id)).toBeUndefined()
    expect(findJob(t.db, next)?.state).toBe('finished')
  })

  it('counts a job ended in memory when clearing all jobs in its state', async () => {
    await using t = setup()
    refuseJobUpdates(t.db)
    const id = t.queue.enqueue('gated', {})
    await t.release()
    await t.queue.waitFor(id)
    expect(t.queue.clearInState('finished')).toBe(1)
    expect(findJob(t.db, id)).toBeUndefined()
    allowJobUpdates(t.db)
  })

  it('does not merge a new job into a queued row that this process does not run', async () => {
    await using t = setup()
    const orphan = t.db
      .insert(jobs)
      .values({ name: 'gated', state: 'queued', uniqueKey: 'gated', createdAt: Date.now() })
      .returning()
      .get().id
    const id = t.queue.enqueue('gated', {})
    expect(id).not.toBe(orphan)
    await t.release()
    expect((await t.queue.waitFor(id)).state).toBe('finished')
  })

  it('still merges a new job into a twin this process has queued or running', async () => {
    await using t = setup()
    const id = t.queue.enqueue('gated', {})
    expect(t.queue.enqueue('gated', {})).toBe(id)
    await untilActive(t.queue, id)
    expect(t.queue.enqueue('gated', {})).toBe(id)
    await t.release()
    await t.queue.waitFor(id)
  })
})
