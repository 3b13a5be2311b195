// Runs a rescan the way a client does (POST /api/shinobu/rescan) and waits for its job.
import { expect } from 'bun:test'
import type { TestServer } from './server.ts'

/** The finished job row of one rescan; its `result` is the scan result as JSON text. */
export async function rescanJob(app: TestServer, cookie: string) {
  const res = await app.req('/api/shinobu/rescan', { method: 'POST', cookie })
  expect(res.status).toBe(200)
  const { job } = (await res.json()) as { job: number }
  return app.deps.jobs.waitFor(job)
}

/** The scan result of one rescan (`scanned`, `added`, `moved`, `unlinked`, ...). */
export async function rescan(app: TestServer, cookie: string): Promise<Record<string, any>> {
  const row = await rescanJob(app, cookie)
  expect(row.state).toBe('finished')
  return JSON.parse(row.result ?? '{}')
}
