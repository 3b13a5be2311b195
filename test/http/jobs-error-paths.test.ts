// Job errors and results are readable by guest tokens (GET /api/jobs): a failure's reason never
// carries a server path; the log keeps the whole message, with the job id, for the admin.
import { afterEach, describe, expect, it } from 'bun:test'
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { setLogLevel, setLogSink } from '../../src/log.ts'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'
import { makeCbz } from '../helpers/fixtures.ts'
import { until } from '../helpers/until.ts'

/** A '/'-rooted path of two or more segments, as a system error quotes it. */
const ABSOLUTE_PATH = /(^|[\s'"(])\/[^\s'"/]+\/[^\s'"]+/

async function ended(app: TestServer, cookie: string, job: number): Promise<Wire> {
  let body: Wire = {}
  await until(async () => {
    body = (await (await app.req(`/api/jobqueue/${job}`, { cookie })).json()) as Wire
    return body.state === 'finished' || body.state === 'failed'
  })
  return body
}

afterEach(() => {
  setLogSink((line) => process.stderr.write(line + '\n'))
  setLogLevel('silent')
})

describe('job errors without server paths', () => {
  it('reports a thumbnail write that fails with a system error by its reason only', async () => {
    await using app = await startTestServer({
      beforeStart: async (dir) => {
        await makeCbz(join(dir, 'One.cbz'), { pages: 2 })
      },
    })
    await app.idle()
    await until(() => app.deps.jobs.list().every((j) => j.state === 'finished'))
    const cookie = await app.login()
    const [archive] = (await (await app.req('/api/archives', { cookie })).json()) as Wire[]
    const id = archive!.arcid as string
    // A file where the thumbnail folder belongs: every write under it fails (EEXIST/ENOTDIR).
    const folder = join(app.deps.config.thumbsDir, id.slice(0, 2))
    rmSync(folder, { recursive: true, force: true })
    writeFileSync(folder, 'not a folder')
    const lines: string[] = []
    setLogSink((line) => lines.push(line))
    setLogLevel('warn')

    const thumb = await app.req(`/api/archives/${id}/thumbnail?no_fallback=true`, { cookie })
    expect(thumb.status).toBe(202)
    const single = await ended(app, cookie, ((await thumb.json()) as Wire).job)
    expect(single.state).toBe('failed')
    expect(single.error).toMatch(/^E[A-Z]+: /)
    expect(single.error).not.toContain(app.root)
    expect(single.error).not.toMatch(ABSOLUTE_PATH)

    const regen = await app.req('/api/regen_thumbs?force=true', { method: 'POST', cookie })
    const batch = await ended(app, cookie, ((await regen.json()) as Wire).job)
    expect(batch.state).toBe('finished')
    expect(batch.result.failed).toHaveLength(1)
    expect(batch.result.failed[0].error).toMatch(/^E[A-Z]+: /)
    expect(JSON.stringify(batch)).not.toContain(app.root)

    // What a guest token reads of every job.
    const created = await app.req('/api/tokens', {
      method: 'POST',
      cookie,
      json: { name: 'reader', role: 'guest' },
    })
    const token = ((await created.json()) as Wire).data.token as string
    const listed = await app.req('/api/jobs', { token })
    expect(listed.status).toBe(200)
    const text = await listed.text()
    expect(text).toContain(single.error)
    expect(text).not.toContain(app.root)
    expect(text).not.toMatch(ABSOLUTE_PATH)

    // The admin's log has the whole message, with the job it belongs to.
    const detailed = lines.map((line) => JSON.parse(line) as Wire).filter((l) => l.error)
    expect(detailed.some((l) => l.job === single.id * 1 && l.error.includes(folder))).toBe(true)
    expect(detailed.some((l) => l.job === batch.id * 1 && l.error.includes(folder))).toBe(true)
  })
})
