// A catalogued archive that turns out damaged (a page that does not decode, a file truncated
// after the scan): reads answer 400 Env with a short reason, the detail goes to the log at warn,
// and page-dimensions still measures every other page.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { setLogLevel, setLogSink } from '../../src/log.ts'
import { buildZip, makeCbz, makeJpeg, makePages } from '../helpers/fixtures.ts'
import { startTestServer, type TestServer, type Wire } from '../helpers/server.ts'

let app: TestServer
let cookie: string
let corrupt: string
let cut: string

beforeAll(async () => {
  app = await startTestServer({
    beforeStart: async (content) => {
      // Page 2 is the first half of a JPEG: listed like any page, but libvips cannot decode it
      // (its message runs over several lines).
      const path = join(content, 'Bad page.cbz')
      const [first, second, third] = await makePages(path, { pages: 3 })
      const jpeg = await makeJpeg(64, 64, 9)
      const half = jpeg.subarray(0, Math.floor(jpeg.length / 2))
      await writeFile(path, buildZip([first!, { ...second!, data: half }, third!]))
      await makeCbz(join(content, 'Cut.cbz'), { pages: 3 })
    },
  })
  await app.idle()
  cookie = await app.login()
  const list = (await (await app.req('/api/archives', { cookie })).json()) as Wire[]
  corrupt = list.find((a) => a.title === 'Bad page')!.arcid
  cut = list.find((a) => a.title === 'Cut')!.arcid
  // Truncated behind the catalog's back (no watcher in tests, no rescan): still catalogued.
  const path = join(app.contentDir, 'Cut.cbz')
  const bytes = await Bun.file(path).bytes()
  await writeFile(path, bytes.subarray(0, Math.floor(bytes.length / 2)))
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

/** Runs `act` with warn-level log lines captured. */
async function capturingLog(act: () => Promise<void>): Promise<string[]> {
  const lines: string[] = []
  setLogSink((line) => lines.push(line))
  setLogLevel('warn')
  try {
    await act()
  } finally {
    setLogLevel('silent')
    setLogSink((line) => process.stderr.write(line + '\n'))
  }
  return lines
}

async function expectCleanEnv(res: Response, operation: string, pattern: RegExp) {
  expect(res.status).toBe(400)
  const body = (await res.json()) as Wire
  expect([body.operation, body.success]).toEqual([operation, 0])
  expect(body.error).toMatch(pattern)
  expect(body.error).not.toMatch(/\n|vips|input buffer|yauzl|end of central directory/i)
  expect(body.error.length).toBeLessThan(160)
}

describe('PUT /api/archives/:id/thumbnail on a page that does not decode', () => {
  it('answers 400 Env with a short reason and logs the library message at warn', async () => {
    let res: Response | undefined
    const lines = await capturingLog(async () => {
      res = await app.req(`/api/archives/${corrupt}/thumbnail?page=2`, { method: 'PUT', cookie })
    })
    await expectCleanEnv(res!, 'update_thumbnail', /^Making a thumbnail of page 2 failed: /)
    const logged = lines.map((line) => JSON.parse(line) as Wire)
    expect(logged).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        id: corrupt,
        error: expect.stringContaining('Vips'),
      }),
    )
    const good = await app.req(`/api/archives/${corrupt}/thumbnail?page=3`, {
      method: 'PUT',
      cookie,
    })
    expect(good.status).toBe(200)
  })
})

describe('GET /api/archives/:id/thumbnail of a page that does not decode', () => {
  it('answers the failed job again instead of queueing one more that would fail alike', async () => {
    const ask = async () => {
      const res = await app.req(`/api/archives/${corrupt}/thumbnail?page=2&no_fallback=true`, {
        cookie,
      })
      expect(res.status).toBe(202)
      return ((await res.json()) as Wire).job as number
    }
    const first = await ask()
    expect((await app.deps.jobs.waitFor(first)).state).toBe('failed')
    const jobs = app.deps.jobs.list().length
    expect(await ask()).toBe(first)
    expect(await ask()).toBe(first)
    expect(app.deps.jobs.list()).toHaveLength(jobs)
  })
})

describe('GET /api/archives/:id/page-dimensions with an unreadable page', () => {
  it('answers every page in order, 0 x 0 for the one that does not decode', async () => {
    const res = await app.req(`/api/archives/${corrupt}/page-dimensions`, { cookie })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      operation: 'page_dimensions',
      success: 1,
      dimensions: [
        { page: 1, path: '001.jpg', width: 16, height: 24 },
        { page: 2, path: '002.jpg', width: 0, height: 0 },
        { page: 3, path: '003.jpg', width: 16, height: 24 },
      ],
    })
  })

  it('answers 0 x 0 for every page of an archive truncated since the scan', async () => {
    const res = await app.req(`/api/archives/${cut}/page-dimensions?count=2`, { cookie })
    expect(res.status).toBe(200)
    expect(((await res.json()) as Wire).dimensions).toEqual([
      { page: 1, path: '001.jpg', width: 0, height: 0 },
      { page: 2, path: '002.jpg', width: 0, height: 0 },
    ])
  })
})

describe('reads of an archive truncated since the scan', () => {
  it('GET page answers 400 Env with a short reason', async () => {
    const res = await app.req(`/api/archives/${cut}/page?path=001.jpg`, { cookie })
    await expectCleanEnv(res, 'serve_page', /^Reading the page failed: /)
  })

  it('PUT thumbnail answers 400 Env with a short reason', async () => {
    const res = await app.req(`/api/archives/${cut}/thumbnail?page=1`, { method: 'PUT', cookie })
    await expectCleanEnv(res, 'update_thumbnail', /^Making a thumbnail of page 1 failed: /)
  })
})
