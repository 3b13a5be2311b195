import { describe, expect, it } from 'bun:test'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDb } from '../../src/db/client.ts'
import { defineJob } from '../../src/jobs/define-job.ts'
import { createJobQueue } from '../../src/jobs/queue.ts'
import { createEventBus, type EventOf } from '../../src/events.ts'
import { MAX_RESULT_BYTES } from '../../src/jobs/run-job.ts'
import { pruneTerminalJobs } from '../../src/db/repos/jobs.repo.ts'
import { setLogLevel, setLogSink } from '../../src/log.ts'

setLogLevel('silent')
import { jobs } from '../../src/db/schema/jobs.ts'

type NoArgs = Record<string, never>

describe('job queue', () => {
  it('fails a job the shutdown stopped midway instead of calling its partial result finished', async () => {
    const db = openDb(':memory:')
    const queue = createJobQueue<{ long: NoArgs }>(db)
    let started!: () => void
    const running = new Promise<void>((r) => (started = r))
    queue.register(
      {
        long: () =>
          defineJob({
            concurrency: 1,
            async run(ctx) {
              started()
              let done = 0
              // A loop that stops early on abort and returns what it did, as real job kinds do.
              while (!ctx.signal.aborted) {
                done++
                await Bun.sleep(1)
              }
              return { done }
            },
          }),
      },
      null,
    )
    const id = queue.enqueue('long', {})
    await running
    await queue.stop()
    const row = db
      .select()
      .from(jobs)
      .all()
      .find((r) => r.id === id)!
    expect(row.state).toBe('failed')
    expect(row.error).toContain('Interrupted')
    expect(row.result).toBeNull()
    expect(row.finishedAt).toBeGreaterThan(0)
  })

  it('moves a job queued -> active -> finished with progress and a result', async () => {
    const db = openDb(':memory:')
    const queue = createJobQueue<{ double: { n: number } }>(db)
    let seenActive = false
    queue.register(
      {
        double: () =>
          defineJob({
            concurrency: 1,
            async run(ctx, args) {
              seenActive = queue.get(ctx.jobId)?.state === 'active'
              ctx.progress(0.5, { step: 1 })
              return { value: args.n * 2 }
            },
          }),
      },
      null,
    )
    const id = queue.enqueue('double', { n: 21 })
    expect(queue.get(id)?.state).toBe('queued')
    expect(queue.get(id)?.startedAt).toBeNull()
    const done = await queue.waitFor(id)
    expect(seenActive).toBe(true)
    expect(done).toMatchObject({ state: 'finished', progress: 1, error: null })
    expect(JSON.parse(done.result!)).toEqual({ value: 42 })
    expect(JSON.parse(done.notes)).toEqual({ step: 1 })
    expect(done.finishedAt).toBeGreaterThanOrEqual(done.startedAt!)
  })

  it('records a thrown error as failed, and merges jobs with the same unique key', async () => {
    const db = openDb(':memory:')
    const queue = createJobQueue<{ boom: NoArgs }>(db)
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    queue.register(
      {
        boom: () =>
          defineJob({
            concurrency: 1,
            uniqueKey: () => 'boom',
            async run() {
              await gate
              throw new Error('target vanished')
            },
          }),
      },
      null,
    )
    const first = queue.enqueue('boom', {})
    const second = queue.enqueue('boom', {})
    expect(second).toBe(first)
    release()
    const done = await queue.waitFor(first)
    expect(done.state).toBe('failed')
    expect(done.error).toBe('target vanished')
  })

  it('records a system error by its reason, without the server path it names', async () => {
    const db = openDb(':memory:')
    const queue = createJobQueue<{ 'read-missing': NoArgs }>(db)
    const dir = await mkdtemp(join(tmpdir(), 'tankobun-queue-'))
    queue.register(
      {
        'read-missing': () =>
          defineJob({ concurrency: 1, run: () => readFile(join(dir, 'missing.cbz')) }),
      },
      null,
    )
    try {
      const lines: string[] = []
      setLogSink((line) => lines.push(line))
      setLogLevel('warn')
      const id = queue.enqueue('read-missing', {})
      const done = await queue.waitFor(id)
      expect(done.state).toBe('failed')
      // The errno reason only: not the folder, nor a file name under it.
      expect(done.error).toBe('ENOENT: no such file or directory')
      expect(queue.get(id)?.error).toBe('ENOENT: no such file or directory')
      // The log keeps the whole message for the admin, with the job id.
      const logged = lines.map((line) => JSON.parse(line)).find((l) => l.msg === 'job failed')
      expect(logged).toMatchObject({ id, name: 'read-missing' })
      expect(logged.error).toContain(join(dir, 'missing.cbz'))
    } finally {
      setLogSink((line) => process.stderr.write(line + '\n'))
      setLogLevel('silent')
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('cuts a result past the size cap and flags result_truncated', async () => {
    const db = openDb(':memory:')
    const queue = createJobQueue<{ big: NoArgs }>(db)
    queue.register(
      {
        big: () =>
          defineJob({
            concurrency: 1,
            async run() {
              return Array.from({ length: 50_000 }, (_, i) => ({ i, text: 'x'.repeat(20) }))
            },
          }),
      },
      null,
    )
    const done = await queue.waitFor(queue.enqueue('big', {}))
    expect(done.resultTruncated).toBe(true)
    expect(done.result!.length).toBeLessThanOrEqual(MAX_RESULT_BYTES)
    expect(JSON.parse(done.result!).length).toBeGreaterThan(0)
  })

  it('publishes job.progress with its state when a job is queued, starts, reports progress and ends', async () => {
    const db = openDb(':memory:')
    const events = createEventBus()
    const seen: EventOf<'job.progress'>[] = []
    events.subscribe('job.progress', (event) => seen.push(event))
    const queue = createJobQueue<{ steps: NoArgs }>(db, { events })
    queue.register(
      {
        steps: () =>
          defineJob({
            concurrency: 1,
            async run(ctx) {
              ctx.progress(0.5, { step: 1 })
              ctx.progress(0.75)
              return 'done'
            },
          }),
      },
      null,
    )
    const id = queue.enqueue('steps', {})
    await queue.waitFor(id)
    const event = { type: 'job.progress', id, name: 'steps' } as const
    expect(seen).toEqual([
      { ...event, state: 'queued', progress: 0 },
      { ...event, state: 'active', progress: 0 },
      { ...event, state: 'active', progress: 0.5, notes: { step: 1 } },
      { ...event, state: 'active', progress: 0.75, notes: { step: 1 } },
      { ...event, state: 'finished', progress: 1, notes: { step: 1 } },
    ])
  })

  it('prunes terminal jobs beyond the newest ones kept, never live ones', () => {
    const db = openDb(':memory:')
    const now = Date.now()
    db.insert(jobs).values({ name: 'x', state: 'queued', createdAt: now }).run()
    for (let i = 0; i < 12; i++)
      db.insert(jobs)
        .values({ name: 'x', state: i % 2 ? 'failed' : 'finished', createdAt: now })
        .run()
    expect(pruneTerminalJobs(db, 10)).toBe(2)
    expect(db.select().from(jobs).all()).toHaveLength(11)
    expect(
      db
        .select()
        .from(jobs)
        .all()
        .some((j) => j.state === 'queued'),
    ).toBe(true)
  })
})
