// A metadata plugin's answer obeys the caps of a metadata edit through the API (tag count and
// bytes, title and summary length): one that passes them fails its run with the reason and writes
// nothing, in the run now, a queued job and Run Automatically; the edit route refuses the same.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  MAX_ARCHIVE_TAGS,
  MAX_SUMMARY_CHARS,
  MAX_TITLE_CHARS,
} from '../../src/model/metadata-limits.ts'
import { makeCbz } from '../helpers/fixtures.ts'
import { rescan } from '../helpers/rescan.ts'
import { startTestServer, type TestServer } from '../helpers/server.ts'

const plugin = (name: string, body: string) =>
  `export function pluginInfo() { return ${JSON.stringify({
    name,
    author: 'test',
    description: 'a greedy plugin',
    version: '1.0',
    type: 'metadata',
  })} }
export function execMetadata(ctx) { ${body} }\n`

const PLUGINS: Record<string, string> = {
  // A black-box tester ran 200,002 tags, which the 1 MB result cap now stops first: 6,001 fit it.
  flood: plugin(
    'Flood',
    `const tags = []; for (let i = 0; i < 6001; i++) tags.push('t' + i); return { tags }`,
  ),
  fat: plugin(
    'Fat',
    `return { tags: Array.from({ length: 1000 }, (_, i) => i + 'x'.repeat(300)).join(', ') }`,
  ),
  'long-title': plugin('Long title', `return { title: 'T'.repeat(${MAX_TITLE_CHARS + 1}) }`),
  'long-summary': plugin(
    'Long summary',
    `return { summary: 'S'.repeat(${MAX_SUMMARY_CHARS + 1}) }`,
  ),
  twenty: plugin('Twenty', `return { tags: Array.from({ length: 20 }, (_, i) => 'extra:' + i) }`),
}

let app: TestServer
let cookie: string
let ids: Record<string, string>

beforeAll(async () => {
  app = await startTestServer({
    async beforeStart(contentDir) {
      await makeCbz(join(contentDir, 'Target.cbz'))
      await makeCbz(join(contentDir, 'Nearly Full.cbz'))
      // Read at catalogue without any plugin run: the caps hold there too.
      const info = `<ComicInfo><Series>Long</Series><Summary>${'S'.repeat(MAX_SUMMARY_CHARS + 1)}</Summary></ComicInfo>`
      await makeCbz(join(contentDir, 'Long Info.cbz'), {
        entries: [{ name: 'ComicInfo.xml', data: new TextEncoder().encode(info) }],
      })
      const folder = join(contentDir, '..', 'data', 'plugins', 'custom', 'metadata')
      mkdirSync(folder, { recursive: true })
      for (const [stem, source] of Object.entries(PLUGINS))
        writeFileSync(join(folder, `${stem}.ts`), source)
    },
  })
  cookie = await app.login()
  await app.idle()
  ids = await app.idsByTitle(cookie)
})

afterAll(async () => {
  await app[Symbol.asyncDispose]()
})

const use = (stem: string, id: string) =>
  app.json(`/api/plugins/use?plugin=custom/metadata/${stem}&id=${id}`, { method: 'POST', cookie })
const metadata = async (id: string) =>
  (await app.json(`/api/archives/${id}/metadata`, { cookie })).body

describe('a metadata plugin answering too much', () => {
  it('fails the run now with the reason', async () => {
    const id = ids['Target']!
    const cases: [string, string][] = [
      ['flood', 'too much metadata: 6,001 tags; an archive holds at most 5,000'],
      ['fat', 'bytes of tags; an archive holds at most 262,144'],
      ['long-title', 'a title of 2,001 characters; at most 2,000'],
      ['long-summary', 'a summary of 65,537 characters; at most 65,536'],
    ]
    for (const [stem, reason] of cases) {
      const { body } = await use(stem, id)
      expect([stem, body.success]).toEqual([stem, 0])
      expect(body.error).toContain(reason)
    }
  })

  it('fails a queued run and writes nothing', async () => {
    const id = ids['Target']!
    const before = await metadata(id)
    const queued = await app.json(`/api/plugins/queue?plugin=custom/metadata/flood&id=${id}`, {
      method: 'POST',
      cookie,
    })
    const job = await app.deps.jobs.waitFor(queued.body.job)
    expect(job.state).toBe('failed')
    expect(job.error).toContain('6,001 tags')
    expect(await metadata(id)).toEqual(before)
  })

  it('refuses tags that fit alone but not with the archive’s own', async () => {
    const id = ids['Nearly Full']!
    const own = Array.from({ length: MAX_ARCHIVE_TAGS - 10 }, (_, i) => `own:${i}`).join(', ')
    const edit = await app.json(`/api/archives/${id}/metadata`, {
      method: 'PUT',
      cookie,
      json: { tags: own },
    })
    expect(edit.status).toBe(200)
    const queued = await app.json(`/api/plugins/queue?plugin=custom/metadata/twenty&id=${id}`, {
      method: 'POST',
      cookie,
    })
    const job = await app.deps.jobs.waitFor(queued.body.job)
    expect(job.state).toBe('failed')
    expect(job.error).toContain(
      'Adding 20 tags would give the archive too much metadata: 5,010 tags; an archive holds at most 5,000',
    )
    expect((await metadata(id)).tags).not.toContain('extra:')
  })

  it('fails that archive in Run Automatically, and the others go on', async () => {
    await app.json('/api/plugins/settings?namespace=custom/metadata/flood', {
      method: 'PUT',
      cookie,
      json: { enabled: true },
    })
    try {
      await makeCbz(join(app.contentDir, 'Fresh.cbz'))
      const before = app.deps.jobs.list().filter((j) => j.name === 'plugin_exec').length
      expect((await rescan(app, cookie)).added).toBe(1)
      const jobs = app.deps.jobs
        .list()
        .filter((j) => j.name === 'plugin_exec')
        .sort((a, b) => a.id - b.id)
        .slice(before)
      const job = await app.deps.jobs.waitFor(jobs[0]!.id)
      const result = JSON.parse(job.result!)
      expect(result.applied).toEqual([])
      expect(result.failed).toHaveLength(1)
      expect(result.failed[0].error).toContain('6,001 tags')
    } finally {
      await app.json('/api/plugins/settings?namespace=custom/metadata/flood', {
        method: 'PUT',
        cookie,
        json: { enabled: false },
      })
    }
  })
})

describe('ComicInfo.xml at catalogue', () => {
  it('past a cap writes nothing of it', async () => {
    const meta = await metadata(ids['Long Info']!)
    expect(meta.summary).toBe('')
    expect(meta.tags).not.toContain('series:Long')
  })
})

describe('PUT /api/archives/{id}/metadata', () => {
  it('refuses the same caps with a 400 Env and writes nothing', async () => {
    const id = ids['Target']!
    const before = await metadata(id)
    const tooMany = Array.from({ length: MAX_ARCHIVE_TAGS + 1 }, (_, i) => `t${i}`).join(', ')
    for (const json of [
      { tags: tooMany },
      { title: 'T'.repeat(MAX_TITLE_CHARS + 1) },
      { summary: 'S'.repeat(MAX_SUMMARY_CHARS + 1) },
    ]) {
      const { status, body } = await app.json(`/api/archives/${id}/metadata`, {
        method: 'PUT',
        cookie,
        json,
      })
      expect(status).toBe(400)
      expect(body).toMatchObject({ operation: 'update_metadata', success: 0 })
      expect(body.error).toStartWith('Too much metadata: ')
    }
    expect(await metadata(id)).toEqual(before)
  })
})
